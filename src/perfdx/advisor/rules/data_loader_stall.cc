// The device waits while the host loads data (tuning guide 000 §一: data
// loading lag; TensorBoard plugin rule: DataLoader > 5% of the step).
// Gain: the step without the stall time.
#include <fmt/format.h>

#include "perfdx/advisor/advisor.h"
#include "perfdx/advisor/knobs.h"
#include "perfdx/advisor/rules/rule_util.h"
#include "perfdx/advisor/rules/rules.h"

namespace perfdx::advisor {
namespace {

class DataLoaderStallRule final : public Rule {
 public:
  std::string_view id() const override { return "data_loader_stall"; }

  void Evaluate(const RuleContext& c, std::vector<Finding>* out) const override {
    const double share = c.analysis.summary.dataloader_stall_share;
    const Band& band = c.thresholds.dataloader_stall_share;
    if (advisor::Evaluate(band, share) == HealthStatus::kHealthy) return;
    Finding f;
    f.rule = std::string(id());
    f.category = Category::kDataPipeline;
    f.gain.ns_per_step = PerStepNs(c, share);
    f.gain.share = ShareOfStep(c, f.gain.ns_per_step);
    f.severity = SeverityFor(band, share, f.gain.share);
    f.title = fmt::format("Data loading stalls the device for {} of the step ({} per step)",
                          Pct(share), Ms(f.gain.ns_per_step));
    f.evidence.metric = "dataloader_stall_share";
    f.evidence.value = share;
    f.evidence.threshold = band.healthy;
    f.evidence.unit = "share";
    for (const analysis::Gap& g : c.analysis.gaps.gaps) {
      if (g.cause.kind != "data_loader") continue;
      if (f.evidence.ranges.size() < 5)
        f.evidence.ranges.push_back({g.start_ns, g.start_ns + g.dur_ns});
    }
    AddTag(&f, "data_loader_wait");
    // Which loader the trace shows decides the fix: worker processes where
    // the main process loads (num_workers=0), more of them and a deeper
    // prefetch where they already exist.
    if (c.analysis.layout.dataloader_single_process) AddTag(&f, "dataloader_single_process");
    if (c.analysis.layout.dataloader_workers) AddTag(&f, "dataloader_workers");
    f.host_cause = true;
    AppendFixes(&f.recommendations, {"dataloader_parallel", "dataloader_more_workers",
                                     "pinned_memory", "data_sinking"});
    analysis::WhatIf fix;
    fix.remove_data_loading = true;
    f.what_if = fix;
    out->push_back(std::move(f));
  }
};

}  // namespace

const Rule& DataLoaderStall() {
  static const DataLoaderStallRule rule;
  return rule;
}

}  // namespace perfdx::advisor
