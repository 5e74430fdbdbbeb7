// Low device (or, for CPU-only traces, compute) utilization that the
// specific rules do not explain. Utilization is a symptom; its causes are
// the gaps the other rules report (data loading, syncs, dispatch, recurring
// host work). This rule reports only the idle time left over, so that the
// findings never count the same time twice. Gain: that unexplained idle
// time per step.
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "perfdx/advisor/advisor.h"
#include "perfdx/advisor/knobs.h"
#include "perfdx/advisor/rules/rule_util.h"
#include "perfdx/advisor/rules/rules.h"
#include "perfdx/base/saturating.h"

namespace perfdx::advisor {
namespace {

constexpr double kMinTracedCompute = 0.01;

class LowDeviceUtilizationRule final : public Rule {
 public:
  std::string_view id() const override { return "low_device_utilization"; }

  void Evaluate(const RuleContext& c, std::vector<Finding>* out) const override {
    const double utilization = c.analysis.summary.device_utilization;
    const Band& band = c.thresholds.device_utilization;
    if (advisor::Evaluate(band, utilization) == HealthStatus::kHealthy) return;
    // A CPU-only trace that records (almost) no operator time says nothing
    // about utilization: its ops were not traced, not idle.
    if (c.analysis.cpu_only && utilization < kMinTracedCompute) return;

    // Idle time inside the steps that another rule already explains, each
    // gap once: outlier steps belong to the step-jitter finding, the groups
    // recurring_gap reports to it, the host's dispatch (listed gaps or
    // shorter) to host_bound_dispatch.
    const std::vector<int64_t>& outliers = c.analysis.step_time.outlier_steps;
    const std::vector<GapKey> reported = ReportedRecurringGroups(c);
    int64_t explained_ns = 0;
    // The listed gaps no rule explains, by what the host was in: what was
    // measured, for the evidence (no cause is claimed).
    std::map<std::string, int64_t> left_ns;
    for (const analysis::Gap& g : c.analysis.gaps.gaps) {
      if (g.between_steps) continue;
      const std::string& kind = g.cause.kind;
      if (std::find(outliers.begin(), outliers.end(), g.step) != outliers.end() ||
          std::binary_search(reported.begin(), reported.end(),
                             GapKey{kind, g.cause.name, g.position}) ||
          IsDispatchGap(g, c.thresholds, reported) || CauseHasItsOwnRule(kind)) {
        base::AddSaturating(explained_ns, g.dur_ns);
      } else {
        base::AddSaturating(left_ns[g.cause.name.empty() ? kind : g.cause.name], g.dur_ns);
      }
    }
    const analysis::ShortGapTotals& short_gaps = c.analysis.gaps.short_gaps;
    base::AddSaturating(explained_ns, short_gaps.dispatch_ns + short_gaps.optimizer_ns);
    const int64_t idle_per_step = PerStepNs(c, c.analysis.summary.idle_share);
    const int64_t unexplained = idle_per_step - explained_ns / static_cast<int64_t>(c.step_count());
    const double share = ShareOfStep(c, unexplained);
    if (share < 0.05) return;  // the specific findings cover the idle time

    Finding f;
    f.rule = std::string(id());
    f.category = Category::kComputeUtilization;
    f.gain = {unexplained, share};
    f.severity = SeverityFor(band, utilization, share);
    // A kernel table alone (or a device-only trace) cannot say what the host
    // did meanwhile: say so rather than that the host had no cause.
    const bool host_traced = c.analysis.layout.host_traced;
    f.title = fmt::format("The {} is busy only {} of the step; {} per step of idle time {}",
                          c.analysis.cpu_only ? "compute timeline" : "device", Pct(utilization),
                          Ms(unexplained),
                          host_traced ? "has no single host-side cause"
                                      : "cannot be attributed: the trace records no host activity");
    for (const auto& [name, ns] : left_ns) {
      const int64_t per_step = ns / static_cast<int64_t>(c.step_count());
      f.evidence.contributors.push_back({name, per_step, ShareOfStep(c, per_step)});
    }
    KeepLargest(&f.evidence.contributors, 3);
    if (!f.evidence.contributors.empty() && !c.analysis.cpu_only) {
      std::vector<std::string> where;
      for (const Contributor& x : f.evidence.contributors)
        where.push_back(fmt::format("{} {}", ShortName(x.name), Ms(x.ns)));
      f.title += fmt::format(
          " (listed gaps no finding explains, by what the host was in most, per step: {})",
          fmt::join(where, ", "));
    }
    // On a CPU-only trace the time between operators is the Python
    // interpreter running the training loop; with no cause found (the gaps
    // the specific rules claim are already left out) it is what was
    // measured, not a problem (issue #10).
    if (c.analysis.cpu_only) {
      f.severity = Severity::kInfo;
      f.title = fmt::format(
          "The compute timeline (host operators) is busy {} of the step; the other {} per step is "
          "interpreter time between operators with no other cause in the trace",
          Pct(utilization), Ms(unexplained));
    }
    f.evidence.metric = "device_utilization";
    f.evidence.value = utilization;
    f.evidence.threshold = band.healthy;
    f.evidence.unit = "share";
    f.evidence.details = {
        {"idle_share", c.analysis.summary.idle_share},
        {"explained_idle_ns_per_step", static_cast<double>(idle_per_step - unexplained)}};
    // Scattered idle time with no dominant host cause usually means the
    // device gets too little work per launch: bigger batches, or fewer,
    // larger kernels (the TensorBoard plugin's low-utilization advice).
    // No evidence points to a cause: the advisor replaces these with how to
    // profile for it (their evidence tags are not established here).
    f.host_cause = true;
    AppendFixes(&f.recommendations, {"reduce_launch_overhead", "operator_fusion"});
    out->push_back(std::move(f));
  }
};

}  // namespace

const Rule& LowDeviceUtilization() {
  static const LowDeviceUtilizationRule rule;
  return rule;
}

}  // namespace perfdx::advisor
