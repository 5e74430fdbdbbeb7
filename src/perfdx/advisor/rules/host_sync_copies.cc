// Host syncs and small copies inside the step: dozens of `.item()` reads
// (aten::item -> aten::_local_scalar_dense), `.to()` / `.cpu()` copies of
// tiny tensors, cudaStreamSynchronize, aclrtSynchronizeStream... per step
// (analysis/host_syncs.h counts them). Each one costs a dispatch and, on an
// accelerator, drains the device queue.
//
// Condition: at least host_sync_min_per_step calls per step and their time
// past host_sync_share of the step. Gain: the host time per step in those
// calls, as the analysis measures it (the spans of their clusters: the code
// reading scalars one at a time). On a trace with device work the device
// idle a sync causes is sync_in_step's gain, so there only the small copies'
// own host time counts here (the syncs are still counted and named).
#include <fmt/format.h>

#include "perfdx/advisor/advisor.h"
#include "perfdx/advisor/knobs.h"
#include "perfdx/advisor/rules/rule_util.h"
#include "perfdx/advisor/rules/rules.h"

namespace perfdx::advisor {
namespace {

class HostSyncCopiesRule final : public Rule {
 public:
  std::string_view id() const override { return "host_sync_copies"; }

  void Evaluate(const RuleContext& c, std::vector<Finding>* out) const override {
    const analysis::HostSyncSummary& h = c.analysis.host_syncs;
    const auto steps = static_cast<double>(c.step_count());
    const double calls_per_step = static_cast<double>(h.syncs + h.copies) / steps;
    if (calls_per_step < c.thresholds.host_sync_min_per_step) return;
    const int64_t counted_ns = c.analysis.cpu_only ? h.span_ns : h.copy_call_ns;
    const int64_t per_step = counted_ns / static_cast<int64_t>(c.step_count());
    const double share = ShareOfStep(c, per_step);
    const Band& band = c.thresholds.host_sync_share;
    if (advisor::Evaluate(band, share) == HealthStatus::kHealthy) return;

    Finding f;
    f.rule = std::string(id());
    f.category = Category::kScheduling;
    f.gain = {per_step, share};
    f.severity = SeverityFor(band, share, share);
    const std::string where =
        h.phases.empty() ? "" : fmt::format(", most in the {}", h.phases.front().phase);
    const std::string offset =
        h.mean_offset_share >= 0
            ? fmt::format(", on average {} into the step", Pct(h.mean_offset_share))
            : "";
    f.title = fmt::format(
        "{:.0f} host syncs and {:.0f} small copies per step ({} most) take {} per step ({} of step "
        "time{}{})",
        static_cast<double>(h.syncs) / steps, static_cast<double>(h.copies) / steps,
        h.ops.empty() ? "" : h.ops.front().name, Ms(per_step), Pct(share), where, offset);
    f.evidence.metric = "host_sync_share";
    f.evidence.value = share;
    f.evidence.threshold = band.healthy;
    f.evidence.unit = "share";
    f.evidence.details = {{"syncs_per_step", static_cast<double>(h.syncs) / steps},
                          {"small_copies_per_step", static_cast<double>(h.copies) / steps},
                          {"cluster_span_ns_per_step", static_cast<double>(h.span_ns) / steps},
                          {"sync_call_ns_per_step", static_cast<double>(h.sync_call_ns) / steps},
                          {"copy_call_ns_per_step", static_cast<double>(h.copy_call_ns) / steps},
                          {"mean_offset_in_step", h.mean_offset_share}};
    for (const analysis::HostSyncPhase& p : h.phases) {
      f.evidence.details.emplace_back("calls_per_step_in_" + p.phase,
                                      static_cast<double>(p.count) / steps);
    }
    const auto window_ns = static_cast<double>(c.analysis.window_ns);
    for (const analysis::HostSyncOp& op : h.ops) {
      f.evidence.contributors.push_back(
          {op.name, op.total_ns, window_ns > 0 ? static_cast<double>(op.total_ns) / window_ns : 0});
    }
    KeepLargest(&f.evidence.contributors, 8);
    for (const auto& [start, end] : h.examples) f.evidence.ranges.push_back({start, end});
    AddTag(&f, "host_sync");
    f.recommendations = RecommendationsFor("avoid_host_sync");
    analysis::WhatIf fix;
    fix.removed_host_ns = h.clusters;
    f.what_if = std::move(fix);
    out->push_back(std::move(f));
  }
};

}  // namespace

const Rule& HostSyncCopies() {
  static const HostSyncCopiesRule rule;
  return rule;
}

}  // namespace perfdx::advisor
