// Device memory allocated and freed inside the step
// (../shared/docs/ascend-advisor_rules.md, row 22; msprof-analyze
// memory_checker): the CANN host APIs AscendCL@aclMallocMemInner,
// AscendCL@aclrtFreePhysical and AscendCL@aclrtFree, each an issue when its
// time per step reaches memory_op_min_total_ns (10 ms, memory.yaml
// max_total_duration). Long aclMallocMemInner means the caching allocator
// keeps asking the driver for memory (fragmentation: expandable segments);
// long aclrtFree / aclrtFreePhysical means cached blocks are released and
// re-allocated (empty_cache() in the loop, or memory too tight).
//
// Gain: the flagged APIs' time per step — the what-if in which the cache
// serves every allocation. Host time, an upper bound on what the step
// saves.
#include <map>

#include <fmt/format.h>

#include "perfdx/advisor/knobs.h"
#include "perfdx/advisor/rules/rule_util.h"
#include "perfdx/advisor/rules/rules.h"
#include "perfdx/base/saturating.h"

namespace perfdx::advisor {
namespace {

using analysis::HostCallKind;

class MemoryOperatorsRule final : public Rule {
 public:
  std::string_view id() const override { return "memory_operators"; }

  void Evaluate(const RuleContext& c, std::vector<Finding>* out) const override {
    int64_t flagged_ns = 0;
    bool malloc_flagged = false;
    bool free_flagged = false;
    std::vector<Contributor> contributors;
    std::vector<std::pair<std::string, double>> details;
    for (HostCallKind kind :
         {HostCallKind::kMallocMemInner, HostCallKind::kFreePhysical, HostCallKind::kFree}) {
      const std::string_view api = analysis::HostCallName(kind);
      const std::vector<analysis::HostCall> calls = c.analysis.host_calls.Of(kind);
      int64_t ns = 0;
      for (const analysis::HostCall& call : calls) base::AddSaturating(ns, call.dur_ns);
      const int64_t per_step = PerStep(c, ns);
      if (calls.empty() || static_cast<double>(per_step) < c.thresholds.memory_op_min_total_ns)
        continue;
      base::AddSaturating(flagged_ns, per_step);
      (kind == HostCallKind::kMallocMemInner ? malloc_flagged : free_flagged) = true;
      contributors.push_back({std::string(api), ns, ShareOfStep(c, per_step)});
      details.emplace_back(std::string(api.substr(api.find('@') + 1)) + "_calls",
                           static_cast<double>(calls.size()));
    }
    if (contributors.empty()) return;

    Finding f;
    f.rule = std::string(id());
    f.category = Category::kMemory;
    f.gain.ns_per_step = flagged_ns;
    f.gain.share = ShareOfStep(c, flagged_ns);
    f.severity = PrioritySeverity(f.gain.share);
    std::string names;
    for (const Contributor& x : contributors) {
      if (!names.empty()) names += ", ";
      names += x.name.substr(x.name.find('@') + 1);
    }
    f.title = fmt::format(
        "Device memory is allocated or freed inside the step: {} take {} per "
        "step ({} of the step)",
        names, Ms(flagged_ns), Pct(f.gain.share));
    f.evidence.metric = "memory_api_ns_per_step";
    f.evidence.value = static_cast<double>(flagged_ns);
    f.evidence.threshold = c.thresholds.memory_op_min_total_ns;
    f.evidence.unit = "ns";
    f.evidence.contributors = std::move(contributors);
    f.evidence.details = std::move(details);
    if (malloc_flagged) AddTag(&f, "fragmentation");
    if (free_flagged) AddTag(&f, "cache_release");
    if (malloc_flagged) AppendFixes(&f.recommendations, {"memory_fragmentation"});
    if (free_flagged) AppendFixes(&f.recommendations, {"avoid_empty_cache"});
    out->push_back(std::move(f));
  }
};

}  // namespace

const Rule& MemoryOperators() {
  static const MemoryOperatorsRule rule;
  return rule;
}

}  // namespace perfdx::advisor
