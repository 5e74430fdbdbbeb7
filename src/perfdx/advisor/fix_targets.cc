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

std::vector<std::string> RankTags(const model::RankInfo& info) {
  const model::RuntimeFeatures& f = info.runtime.features;
  std::vector<std::string> tags;
  if (f.compiled) tags.emplace_back("compiled");
  if (f.triton) tags.emplace_back("triton");
  if (f.cuda_graphs) tags.emplace_back("cuda_graphs");
  if (f.ddp) tags.emplace_back("ddp");
  if (f.fsdp) tags.emplace_back("fsdp");
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

}  // namespace

void KeepFixesFor(const std::vector<FixTarget>& targets, const std::vector<std::string>& rank_tags,
                  Finding* finding) {
  std::vector<std::string> tags = finding->evidence_tags;
  tags.insert(tags.end(), rank_tags.begin(), rank_tags.end());
  Filter(targets, tags, &finding->recommendations);
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
