// Host-bound dispatch: the device runs many short kernels and sits idle in
// short gaps while the host is still inside operators or launch calls — the
// guide's "device idle while the host dispatches" (up to 50% seen). Gain:
// the short dispatch gaps per step (what a captured graph or fused kernels
// would hide); predicted by replaying the step with its dispatch removed.
#include <algorithm>
#include <map>
#include <string>

#include <fmt/format.h>

#include "perfdx/advisor/advisor.h"
#include "perfdx/advisor/knobs.h"
#include "perfdx/advisor/rules/rule_util.h"
#include "perfdx/advisor/rules/rules.h"

namespace perfdx::advisor {
namespace {

class HostBoundDispatchRule final : public Rule {
 public:
  std::string_view id() const override { return "host_bound_dispatch"; }

  void Evaluate(const RuleContext& c, std::vector<Finding>* out) const override {
    if (c.analysis.cpu_only) return;
    int64_t total_ns = 0;
    uint64_t count = 0;
    std::map<std::string, int64_t> by_op;  // the operators being dispatched
    Finding f;
    for (const analysis::Gap& g : c.analysis.gaps.gaps) {
      // Short gaps inside a step where the host is dispatching; long ones
      // are recurring-gap findings.
      if (g.between_steps || static_cast<double>(g.dur_ns) >= c.thresholds.min_recurring_gap_ns)
        continue;
      if (g.cause.kind != "framework_op" && g.cause.kind != "launch_overhead") continue;
      total_ns += g.dur_ns;
      ++count;
      by_op[g.cause.name.empty() ? "(launch calls)" : g.cause.name] += g.dur_ns;
      if (f.evidence.ranges.size() < 5)
        f.evidence.ranges.push_back({g.start_ns, g.start_ns + g.dur_ns});
    }
    if (count == 0) return;
    const int64_t per_step = total_ns / static_cast<int64_t>(c.step_count());
    const double share = ShareOfStep(c, per_step);
    const Band& band = c.thresholds.dispatch_gap_share;
    if (advisor::Evaluate(band, share) == HealthStatus::kHealthy) return;

    // How small the device work is: kernels per step and their median length.
    std::vector<int64_t> means;
    uint64_t kernels = 0;
    for (const analysis::KernelStat& k : c.analysis.kernels.kernels) {
      if (k.kind != model::EventKind::kComputeKernel) continue;
      kernels += k.count;
      means.insert(means.end(), std::min<uint64_t>(k.count, 1000), k.mean_ns());
    }
    std::sort(means.begin(), means.end());
    const double median_kernel_ns =
        means.empty() ? 0 : static_cast<double>(means[means.size() / 2]);

    f.rule = std::string(id());
    f.category = Category::kComputeUtilization;
    f.gain = {per_step, share};
    f.severity = SeverityFor(band, share, share);
    f.title = fmt::format(
        "The host cannot keep the device fed: {} short gaps leave it idle {} per step ({} of step "
        "time) "
        "while operators are dispatched",
        count / c.step_count(), Ms(per_step), Pct(share));
    for (const auto& [name, ns] : by_op) {
      f.evidence.contributors.push_back({name, ns / static_cast<int64_t>(c.step_count()),
                                         static_cast<double>(ns) / static_cast<double>(total_ns)});
    }
    KeepLargest(&f.evidence.contributors, 3);
    std::string names;
    for (const Contributor& x : f.evidence.contributors)
      names += (names.empty() ? "" : ", ") + x.name;
    f.title += fmt::format(" (mostly inside {})", names);
    f.evidence.metric = "dispatch_gap_share";
    f.evidence.value = share;
    f.evidence.threshold = band.healthy;
    f.evidence.unit = "share";
    f.evidence.details = {
        {"short_gaps_per_step", static_cast<double>(count) / static_cast<double>(c.step_count())},
        {"kernels_per_step", static_cast<double>(kernels) / static_cast<double>(c.step_count())},
        {"median_kernel_mean_ns", median_kernel_ns},
        {"framework_overhead_share", c.analysis.summary.framework_overhead_share}};
    // Many short device-idle gaps while operators dispatch: fewer launches
    // (graphs, fused kernels) is what the evidence supports.
    AddTag(&f, "dispatch_bound");
    AddTag(&f, "fusible");
    f.host_cause = true;
    AppendFixes(&f.recommendations, {"reduce_launch_overhead", "operator_fusion"});
    // Predicted for the first fix, a step captured as one graph: its
    // dispatch takes no time (replay.h). Fusion alone would buy less.
    analysis::WhatIf fix;
    fix.remove_launch_overhead = true;
    f.what_if = fix;
    out->push_back(std::move(f));
  }
};

}  // namespace

const Rule& HostBoundDispatch() {
  static const HostBoundDispatchRule rule;
  return rule;
}

}  // namespace perfdx::advisor
