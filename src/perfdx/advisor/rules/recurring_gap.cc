// A host-side gap that recurs at the same place in most steps: the guide's
// "15 ms after every step" (synchronous logging; async logging gave +22%).
// Data loading, synchronization and stalled runtime calls have their own
// rules; this one reports the rest: named Python functions and
// record_function ranges, optimizer steps, untraced host time, and operators
// that leave the device idle.
// Gain: the group's idle time per step (the step without the gap).
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "perfdx/advisor/advisor.h"
#include "perfdx/advisor/knobs.h"
#include "perfdx/advisor/rules/rule_util.h"
#include "perfdx/advisor/rules/rules.h"

namespace perfdx::advisor {
namespace {

std::string WhatTheHostDoes(const analysis::GapCause& cause,
                            const std::vector<std::string>& optimizer_classes) {
  if (cause.kind == "python_function" || cause.kind == "user_annotation")
    return fmt::format("runs {}", cause.name);
  if (cause.kind == "optimizer_step") {
    return optimizer_classes.empty()
               ? "runs optimizer.step()"
               : fmt::format("runs optimizer.step() ({})", fmt::join(optimizer_classes, ", "));
  }
  if (cause.kind == "framework_op")
    return fmt::format("is inside {} with no device work queued", cause.name);
  if (cause.kind == "untraced") {
    return cause.name.empty() ? "runs untraced code"
                              : fmt::format("runs untraced code next to {}", cause.name);
  }
  return fmt::format("is in {}", cause.kind);
}

class RecurringGapRule final : public Rule {
 public:
  std::string_view id() const override { return "recurring_gap"; }

  void Evaluate(const RuleContext& c, std::vector<Finding>* out) const override {
    const Band& band = c.thresholds.recurring_gap_share;
    for (const analysis::GapGroup& g : c.analysis.gaps.recurring) {
      if (!IsReportedRecurringGroup(c, g)) continue;
      const std::string& kind = g.cause.kind;
      const double share = ShareOfStep(c, g.ns_per_step);
      Finding f;
      f.rule = std::string(id());
      f.category = kind == "optimizer_step" ? Category::kScheduling : Category::kComputeUtilization;
      f.gain.ns_per_step = g.ns_per_step;
      f.gain.share = share;
      f.severity = SeverityFor(band, share, share);
      const std::string where = g.position == "between_steps"
                                    ? "between steps"
                                    : fmt::format("at the {} of the step", g.position);
      // A CPU-only trace has no device: its compute timeline is the host's ops.
      // The time per step leads: a group of many short gaps must not read
      // as one short pause.
      const std::string gaps = g.count > g.steps ? fmt::format(" in {} gaps of {} on average",
                                                               g.count, Ms(g.mean_dur_ns))
                                                 : "";
      f.title = fmt::format(
          "{} {} per step{} {} in {} of {} steps while the host {} ({} of step time)",
          c.analysis.cpu_only ? "Compute pauses" : "The device idles", Ms(g.ns_per_step), gaps,
          where, g.steps, c.analysis.steps.size(),
          WhatTheHostDoes(g.cause, c.analysis.host_calls.optimizer_classes), Pct(share));
      f.evidence.metric = "recurring_gap_ns_per_step";
      f.evidence.value = static_cast<double>(g.ns_per_step);
      f.evidence.threshold = band.healthy * static_cast<double>(c.step_ns());
      f.evidence.unit = "ns";
      f.evidence.details = {{"mean_gap_ns", static_cast<double>(g.mean_dur_ns)},
                            {"gaps", static_cast<double>(g.count)},
                            {"cause_coverage", g.cause.coverage}};
      if (!g.cause.name.empty())
        f.evidence.contributors.push_back({g.cause.name, g.ns_per_step, share});
      std::set<int64_t> steps;
      // The fix replayed: the host's time in the group's gaps taken away.
      analysis::WhatIf without_gaps;
      for (const analysis::Gap& gap : c.analysis.gaps.gaps) {
        if (gap.cause.kind != kind || gap.cause.name != g.cause.name || gap.position != g.position)
          continue;
        steps.insert(gap.step);
        if (f.evidence.ranges.size() < 5)
          f.evidence.ranges.push_back({gap.start_ns, gap.start_ns + gap.dur_ns});
        without_gaps.removed_host_ns.emplace_back(gap.start_ns, gap.start_ns + gap.dur_ns);
      }
      f.what_if = std::move(without_gaps);
      f.steps.assign(steps.begin(), steps.end());
      // The evidence each fix needs: an operator with no device work queued
      // (dispatch), optimizer.step(), or logging / printing / file I/O seen
      // in the gap. Untraced time and other user code give no fix but how
      // to profile for the cause (the advisor adds it).
      // optimizer.step() is a cause the trace names: no fix for its class is
      // no call to profile again.
      f.host_cause = kind != "optimizer_step";
      if (kind == "framework_op") AddTag(&f, "dispatch_bound");
      if (kind == "optimizer_step") {
        AddTag(&f, "optimizer_step");
        AddOptimizerClassTag(c, &f);
      }
      if (!g.host_activity.empty()) {
        AddTag(&f, "host_io");
        f.evidence.details.emplace_back("host_activity_" + g.host_activity, 1.0);
      }
      const char* fix = kind == "framework_op"     ? "reduce_launch_overhead"
                        : kind == "optimizer_step" ? "fused_optimizer"
                                                   : "async_logging";
      f.recommendations = RecommendationsFor(fix);
      if (kind == "optimizer_step") AppendFixes(&f.recommendations, {"fused_adam", "fused_sgd"});
      if (kind == "framework_op") AppendFixes(&f.recommendations, {"npu_graph_mode"});
      if (kind != "framework_op" && kind != "optimizer_step")
        AppendFixes(&f.recommendations, {"avoid_host_sync"});
      out->push_back(std::move(f));
    }
  }
};

}  // namespace

const Rule& RecurringGap() {
  static const RecurringGapRule rule;
  return rule;
}

}  // namespace perfdx::advisor
