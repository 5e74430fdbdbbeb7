// Device time spent converting tensor layouts — transpose, permute,
// NCHW<->NHWC, Ascend TransData — rather than computing (guide 004: layout
// conversions cost 15-30% in CV tasks; its health table counts them with
// the copies, as a share of step time). Gain: that time per step, the
// what-if in which the model keeps one layout throughout (channels_last, or
// the NPU's private format); an upper bound, as some conversions (input
// images, the loss) remain.
#include <fmt/format.h>

#include "perfdx/advisor/advisor.h"
#include "perfdx/advisor/knobs.h"
#include "perfdx/advisor/rules/rule_util.h"
#include "perfdx/advisor/rules/rules.h"
#include "perfdx/advisor/rules/trace_query.h"

namespace perfdx::advisor {
namespace {

constexpr size_t kMaxContributors = 5;

class LayoutConversionRule final : public Rule {
 public:
  std::string_view id() const override { return "layout_conversion"; }

  void Evaluate(const RuleContext& c, std::vector<Finding>* out) const override {
    const analysis::KernelSummary& k = c.analysis.kernels;
    if (k.layout_conversion_ns <= 0 || c.analysis.window_ns <= 0) return;
    const double window_ns = static_cast<double>(c.analysis.window_ns);
    const double share = static_cast<double>(k.layout_conversion_ns) / window_ns;
    const Band& band = c.thresholds.layout_conversion_share;
    if (advisor::Evaluate(band, share) == HealthStatus::kHealthy) return;

    Finding f;
    f.rule = std::string(id());
    f.category = Category::kOperator;
    f.gain.ns_per_step = PerStep(c, k.layout_conversion_ns);
    f.gain.share = ShareOfStep(c, f.gain.ns_per_step);
    f.severity = SeverityFor(band, share, f.gain.share);
    f.title = fmt::format(
        "Layout conversions (transpose, permute, TransData) take {} of the step ({} per step)",
        Pct(share), Ms(f.gain.ns_per_step));
    f.evidence.metric = "layout_conversion_share";
    f.evidence.value = share;
    f.evidence.threshold = band.healthy;
    f.evidence.unit = "share";
    f.evidence.details = {{"share_of_device_work",
                           k.device_work_ns > 0 ? static_cast<double>(k.layout_conversion_ns) /
                                                      static_cast<double>(k.device_work_ns)
                                                : 0}};
    for (const analysis::KernelStat& ks : k.kernels) {
      if (!ks.layout_conversion) continue;
      f.evidence.contributors.push_back(
          {ks.name, ks.total_ns, static_cast<double>(ks.total_ns) / window_ns});
      if (f.evidence.contributors.size() == kMaxContributors) break;
    }
    f.recommendations = RecommendationsFor("channels_last");
    out->push_back(std::move(f));
  }
};

}  // namespace

const Rule& LayoutConversion() {
  static const LayoutConversionRule rule;
  return rule;
}

}  // namespace perfdx::advisor
