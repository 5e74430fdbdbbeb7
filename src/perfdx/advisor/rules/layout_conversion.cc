// Device time spent converting tensor layouts — transpose, permute,
// NCHW<->NHWC, Ascend TransData — instead of computing (kernel classes:
// kernel_taxonomy.h). Guide 004: layout conversions cost 15-30% in CV tasks.
// The metric is the analysis's one layout share, KernelSummary::
// layout_conversion_share (of device work time), the number MICRO shows too.
// Gain: that time per step, the what-if in which the model keeps one
// layout throughout (channels_last, or the NPU's private format); an upper
// bound, as some conversions (input images, the loss) remain. The gain is
// a share of the whole step, so the severity stays low when compute is a
// small part of it.
#include <fmt/format.h>

#include "perfdx/advisor/advisor.h"
#include "perfdx/advisor/knobs.h"
#include "perfdx/advisor/rules/rule_util.h"
#include "perfdx/advisor/rules/rules.h"

namespace perfdx::advisor {
namespace {

constexpr size_t kMaxContributors = 5;

class LayoutConversionRule final : public Rule {
 public:
  std::string_view id() const override { return "layout_conversion"; }

  void Evaluate(const RuleContext& c, std::vector<Finding>* out) const override {
    const analysis::KernelSummary& k = c.analysis.kernels;
    if (k.layout_conversion_ns <= 0 || c.analysis.window_ns <= 0 || k.device_work_ns <= 0) return;
    const double share = k.layout_conversion_share;
    const Band& band = c.thresholds.layout_conversion_share;
    if (advisor::Evaluate(band, share) == HealthStatus::kHealthy) return;

    Finding f;
    f.rule = std::string(id());
    f.category = Category::kOperator;
    f.gain.ns_per_step = PerStep(c, k.layout_conversion_ns);
    f.gain.share = ShareOfStep(c, f.gain.ns_per_step);
    f.severity = SeverityFor(band, share, f.gain.share);
    f.title = fmt::format(
        "Layout conversions (transpose, permute, TransData) take {} of device time ({} per "
        "step, {} of the step)",
        Pct(share), Ms(f.gain.ns_per_step), Pct(f.gain.share));
    f.evidence.metric = "layout_conversion_share";
    f.evidence.value = share;
    f.evidence.threshold = band.healthy;
    f.evidence.unit = "share";
    f.evidence.details = {
        {"device_work_ns_per_step", static_cast<double>(PerStep(c, k.device_work_ns))},
        {"share_of_step", f.gain.share}};
    for (const analysis::KernelStat& ks : k.kernels) {
      if (!ks.layout_conversion) continue;
      f.evidence.contributors.push_back({ks.name, ks.total_ns, ks.share});
      if (f.evidence.contributors.size() == kMaxContributors) break;
    }
    AddTag(&f, "layout_conversion");
    for (const analysis::KernelStat& ks : k.kernels) {
      if (ks.layout_conversion) f.rests_on.push_back("kernel:" + ks.name);
    }
    AppendFixes(&f.recommendations, {"memory_layout"});
    analysis::WhatIf fix;
    fix.remove_layout_conversions = true;
    f.what_if = fix;
    out->push_back(std::move(f));
  }
};

}  // namespace

const Rule& LayoutConversion() {
  static const LayoutConversionRule rule;
  return rule;
}

}  // namespace perfdx::advisor
