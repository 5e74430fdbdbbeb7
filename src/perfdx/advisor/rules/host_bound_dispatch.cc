// Host-bound dispatch: the device runs many short kernels and sits idle in
// short gaps while the host is still inside operators, launch calls or
// optimizer.step() — the guide's "device idle while the host dispatches" (up
// to 50% seen). Gain: that idle time per step, in gaps of every length up to
// a recurring gap's (rule_util.h, DispatchIdle); predicted by replaying the
// step with its dispatch removed (a captured graph).
#include <algorithm>
#include <map>
#include <string>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "perfdx/advisor/advisor.h"
#include "perfdx/advisor/knobs.h"
#include "perfdx/advisor/rules/rule_util.h"
#include "perfdx/advisor/rules/rules.h"

namespace perfdx::advisor {
namespace {

// The optimizer's part of the dispatch idle time that earns its own fix.
constexpr double kOptimizerShare = 0.25;
// The smallest part of it the title names (after the largest).
constexpr double kTitlePart = 0.05;

class HostBoundDispatchRule final : public Rule {
 public:
  std::string_view id() const override { return "host_bound_dispatch"; }

  void Evaluate(const RuleContext& c, std::vector<Finding>* out) const override {
    if (c.analysis.cpu_only) return;
    // Gaps inside a step while the host dispatches, however short: those
    // under --min-gap-us are most of a host-bound step's idle time.
    const DispatchIdle idle = MeasureDispatchIdle(c);
    if (idle.total_ns <= 0) return;
    const int64_t per_step = idle.total_ns / static_cast<int64_t>(c.step_count());
    const double share = ShareOfStep(c, per_step);
    const Band& band = c.thresholds.dispatch_gap_share;
    if (advisor::Evaluate(band, share) == HealthStatus::kHealthy) return;
    Finding f;
    f.evidence.ranges = idle.ranges;

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
        "The host cannot keep the device fed: the device idles {} per step ({} of step time) in {} "
        "gaps a step while operators are dispatched",
        Ms(per_step), Pct(share), idle.gaps / c.step_count());
    auto part = [&](int64_t ns) {
      return static_cast<double>(ns) / static_cast<double>(idle.total_ns);
    };
    for (const auto& [name, ns] : idle.by_cause) {
      f.evidence.contributors.push_back(
          {name, ns / static_cast<int64_t>(c.step_count()), part(ns)});
    }
    KeepLargest(&f.evidence.contributors, 3);
    // Where the host was, largest first: the operators (optimizer.step()
    // with its short gaps) and the gaps too short to list, which have no
    // operator of their own; parts under kTitlePart stay in the evidence.
    std::vector<std::pair<double, std::string>> where;
    for (const Contributor& x : f.evidence.contributors)
      where.emplace_back(x.share,
                         fmt::format("{} {} {}", Pct(x.share),
                                     x.name == kLaunchCallsCause ? "in" : "inside", x.name));
    const int64_t unlisted_dispatch_ns = c.analysis.gaps.short_gaps.dispatch_ns;
    if (unlisted_dispatch_ns > 0) {
      where.emplace_back(part(unlisted_dispatch_ns),
                         fmt::format("{} in gaps under {} µs", Pct(part(unlisted_dispatch_ns)),
                                     c.analysis.gaps.min_gap_ns / 1000));
    }
    std::stable_sort(where.begin(), where.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    std::vector<std::string> shown;
    for (const auto& [at, text] : where) {
      if (!shown.empty() && at < kTitlePart) break;
      shown.push_back(text);
    }
    f.title += fmt::format(" ({})", fmt::join(shown, ", "));
    f.evidence.metric = "dispatch_gap_share";
    f.evidence.value = share;
    f.evidence.threshold = band.healthy;
    f.evidence.unit = "share";
    f.evidence.details = {
        {"short_gaps_per_step",
         static_cast<double>(idle.gaps) / static_cast<double>(c.step_count())},
        {"optimizer_share",
         static_cast<double>(idle.optimizer_ns) / static_cast<double>(idle.total_ns)},
        {"unlisted_dispatch_share", part(unlisted_dispatch_ns)},
        {"kernels_per_step", static_cast<double>(kernels) / static_cast<double>(c.step_count())},
        {"median_kernel_mean_ns", median_kernel_ns},
        {"framework_overhead_share", c.analysis.summary.framework_overhead_share}};
    // Many short device-idle gaps while operators dispatch: fewer launches
    // (graphs, fused kernels) is what the evidence supports.
    AddTag(&f, "dispatch_bound");
    AddTag(&f, "fusible");
    f.host_cause = true;
    // Graph capture first, the fix the replay predicts: CUDA graphs
    // (reduce_launch_overhead) or TorchAir's graph mode; on torch_npu
    // TASK_QUEUE_ENABLE=2 (its reduce_launch_overhead) only pipelines the
    // dispatch.
    AppendFixes(&f.recommendations, {"npu_graph_mode", "reduce_launch_overhead"});
    // optimizer.step()'s own dispatch, where it is a large part: a fused
    // implementation launches a few kernels with no per-tensor Python.
    if (static_cast<double>(idle.optimizer_ns) >=
        kOptimizerShare * static_cast<double>(idle.total_ns)) {
      AddTag(&f, "optimizer_step");
      AddOptimizerClassTag(c, &f);
      AppendFixes(&f.recommendations, {"fused_optimizer", "fused_adam", "fused_sgd"});
    }
    AppendFixes(&f.recommendations, {"operator_fusion"});
    // Predicted for the first fix, a step captured as one graph: its
    // dispatch takes no time (replay.h), the host work of other causes
    // kept. Fusion alone would buy less.
    analysis::WhatIf fix;
    fix.remove_launch_overhead = true;
    f.what_if = ScopedToRank(std::move(fix), c.analysis, c.thresholds);
    out->push_back(std::move(f));
  }
};

}  // namespace

const Rule& HostBoundDispatch() {
  static const HostBoundDispatchRule rule;
  return rule;
}

}  // namespace perfdx::advisor
