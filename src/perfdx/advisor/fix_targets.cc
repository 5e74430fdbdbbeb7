#include "perfdx/advisor/fix_targets.h"

#include <algorithm>

#include "perfdx/advisor/knobs.h"

namespace perfdx::advisor {

std::vector<FixTarget> TargetsFor(const model::FrameworkInfo& runtime) {
  using model::Framework;
  using model::Platform;
  switch (runtime.framework) {
    case Framework::kTorchNpu:
      return {FixTarget::kTorchNpu};
    case Framework::kMindSpore:
      return {FixTarget::kMindSpore};
    case Framework::kPytorch:
      switch (runtime.platform) {
        case Platform::kCuda:
          return {FixTarget::kPytorch, FixTarget::kPytorchCuda};
        case Platform::kRocm:
          return {FixTarget::kPytorch, FixTarget::kPytorchRocm};
        case Platform::kCpu:
          return {FixTarget::kPytorch, FixTarget::kPytorchCpu};
        // XPU, MTIA and other accelerators: only the platform-neutral fixes.
        default:
          return {FixTarget::kPytorch};
      }
    case Framework::kUnknown:
      if (runtime.platform == Platform::kAscend)
        return {FixTarget::kTorchNpu, FixTarget::kMindSpore};
      return {};
  }
  return {};
}

// The release bound's tag is a feature's key.
static_assert([] {
  for (const auto& f : model::kRuntimeFeatureKeys) {
    if (f.key == kPytorchBefore113 && f.member == &model::RuntimeFeatures::pytorch_before_1_13) {
      return true;
    }
  }
  return false;
}());

std::vector<std::string> RankTags(const model::RankInfo& info) {
  const model::RuntimeFeatures& f = info.runtime.features;
  std::vector<std::string> tags;
  for (const auto& feature : model::kRuntimeFeatureKeys) {
    if (f.*feature.member) tags.emplace_back(feature.key);
  }
  tags.push_back("platform:" + std::string(model::PlatformName(info.runtime.platform)));
  tags.push_back("framework:" + std::string(model::FrameworkName(info.runtime.framework)));
  if (!info.distributed_backend.empty()) tags.push_back("backend:" + info.distributed_backend);
  return tags;
}

namespace {

bool IsTarget(const std::vector<FixTarget>& targets, FixTarget t) {
  return std::find(targets.begin(), targets.end(), t) != targets.end();
}

void Filter(const std::vector<FixTarget>& targets, const std::vector<std::string>& tags,
            std::vector<Recommendation>* recs) {
  std::erase_if(*recs, [&](const Recommendation& r) {
    if (!IsTarget(targets, r.framework)) return true;
    const Knob* knob = FindKnob(r.fix_id, r.framework);
    return knob == nullptr || !EvidenceHolds(*knob, tags);
  });
}

// Would a recommendation be kept but for the rank's PyTorch being older than
// its API? Its evidence holds once the version tag is taken away.
bool NeedsNewerPytorch(const std::vector<FixTarget>& targets, const std::vector<std::string>& tags,
                       const Recommendation& r) {
  if (!IsTarget(targets, r.framework)) return false;
  const Knob* knob = FindKnob(r.fix_id, r.framework);
  if (knob == nullptr || EvidenceHolds(*knob, tags)) return false;
  std::vector<std::string> without = tags;
  std::erase(without, kPytorchBefore113);
  return without.size() < tags.size() && EvidenceHolds(*knob, without);
}

}  // namespace

void KeepFixesFor(const std::vector<FixTarget>& targets, const std::vector<std::string>& rank_tags,
                  Finding* finding) {
  std::vector<std::string> tags = finding->evidence_tags;
  tags.insert(tags.end(), rank_tags.begin(), rank_tags.end());
  const bool needs_upgrade =
      std::any_of(finding->recommendations.begin(), finding->recommendations.end(),
                  [&](const Recommendation& r) { return NeedsNewerPytorch(targets, tags, r); });
  Filter(targets, tags, &finding->recommendations);
  // The fix the trace's evidence calls for exists in a newer PyTorch, and
  // the catalogue has no entry written for the rank's older one.
  const auto for_older = [](const Recommendation& r) {
    const Knob* knob = FindKnob(r.fix_id, r.framework);
    return std::find(knob->required_tags.begin(), knob->required_tags.end(), kPytorchBefore113) !=
           knob->required_tags.end();
  };
  if (needs_upgrade &&
      std::none_of(finding->recommendations.begin(), finding->recommendations.end(), for_older)) {
    std::vector<Recommendation> upgrade;
    AppendFixes(&upgrade, {kUpgradePytorch});
    Filter(targets, tags, &upgrade);
    for (Recommendation& r : upgrade) finding->recommendations.push_back(std::move(r));
  }
  if (!finding->recommendations.empty()) return;
  // Left with no fix: how to profile for the cause, where the rule knows
  // where the cause lies.
  const auto profile = [&](const char* tag, std::initializer_list<std::string_view> fix_ids) {
    finding->evidence_tags.emplace_back(tag);
    tags.emplace_back(tag);
    AppendFixes(&finding->recommendations, fix_ids);
    Filter(targets, tags, &finding->recommendations);
  };
  // Stacks already recorded (python_stacks) call for ranges instead: the
  // knobs' tags choose between the two.
  if (finding->host_cause) {
    profile("host_cause_unknown", {"profile_with_stack", "profile_with_ranges"});
  } else if (finding->comm_cause) {
    profile("comm_cause_unknown", {kProfileAllRanks});
  }
}

void AnalysedWithPeers(std::vector<Finding>* findings) {
  for (Finding& f : *findings) {
    std::erase_if(f.recommendations,
                  [](const Recommendation& r) { return r.fix_id == kProfileAllRanks; });
  }
}

}  // namespace perfdx::advisor
