// Long Python garbage collections (../shared/docs/ascend-advisor_rules.md,
// row 20; msprof-analyze gc_checker): torch_npu records each collection as
// an event of category "gc" on its "Python GC" process (with
// experimental_config gc_detect_threshold set); each one at least
// gc_min_event_ns long (1 ms, gc.yaml gc_threshold) stops the training
// thread. The conjectured-GC variant (row 21, long free time with no host
// activity when no GC events were collected) is not implemented: an idle
// gap without host events is already reported by the gap analysis.
//
// Gain: the time of those collections per step — the what-if in which they
// run outside the step (collected explicitly between steps). An upper
// bound: the device may have had queued work while the host collected.
#include <algorithm>

#include <fmt/format.h>

#include "perfdx/advisor/knobs.h"
#include "perfdx/advisor/rules/rule_util.h"
#include "perfdx/advisor/rules/rules.h"
#include "perfdx/base/saturating.h"

namespace perfdx::advisor {
namespace {

constexpr size_t kMaxRanges = 10;  // gc.yaml top_num

class PythonGcRule final : public Rule {
 public:
  std::string_view id() const override { return "python_gc"; }

  void Evaluate(const RuleContext& c, std::vector<Finding>* out) const override {
    uint64_t events = 0;
    int64_t gc_ns = 0;
    int64_t longest_ns = 0;
    std::vector<analysis::HostCall> long_ones;
    for (const analysis::HostCall& gc :
         c.analysis.host_calls.Of(analysis::HostCallKind::kPythonGc)) {
      if (static_cast<double>(gc.dur_ns) < c.thresholds.gc_min_event_ns) continue;
      ++events;
      base::AddSaturating(gc_ns, gc.dur_ns);
      longest_ns = std::max(longest_ns, gc.dur_ns);
      long_ones.push_back(gc);
    }
    if (events == 0) return;

    Finding f;
    f.rule = std::string(id());
    f.category = Category::kScheduling;
    f.gain.ns_per_step = PerStep(c, gc_ns);
    f.gain.share = ShareOfStep(c, f.gain.ns_per_step);
    f.severity = PrioritySeverity(f.gain.share);
    f.title = fmt::format(
        "{} Python garbage collections of >= {} stop the host for {} per step (the longest {})",
        events, Ms(static_cast<int64_t>(c.thresholds.gc_min_event_ns)), Ms(f.gain.ns_per_step),
        Ms(longest_ns));
    f.evidence.metric = "gc_ns_per_step";
    f.evidence.value = static_cast<double>(f.gain.ns_per_step);
    f.evidence.threshold = c.thresholds.gc_min_event_ns;
    f.evidence.unit = "ns";
    f.evidence.details = {{"gc_events", static_cast<double>(events)},
                          {"longest_gc_ns", static_cast<double>(longest_ns)}};
    std::sort(long_ones.begin(), long_ones.end(),
              [](const analysis::HostCall& a, const analysis::HostCall& b) {
                return a.dur_ns > b.dur_ns;
              });
    for (const analysis::HostCall& gc : long_ones) {
      if (f.evidence.ranges.size() == kMaxRanges) break;
      f.evidence.ranges.push_back({gc.ts_ns, gc.end_ns()});
    }
    AddTag(&f, "python_gc");
    f.host_cause = true;
    AppendFixes(&f.recommendations, {"python_gc"});
    out->push_back(std::move(f));
  }
};

}  // namespace

const Rule& PythonGc() {
  static const PythonGcRule rule;
  return rule;
}

}  // namespace perfdx::advisor
