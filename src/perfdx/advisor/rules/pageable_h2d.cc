// Host->device copies from pageable memory: the driver stages them through
// a pinned bounce buffer and the copy cannot run asynchronously, so it
// cannot overlap compute (Kineto names them "Memcpy HtoD (Pageable ->
// Device)"). When the copy share as a whole is past its band, memcpy_share
// reports the copies once, with this part as a detail; this rule speaks only
// when the copies are otherwise healthy. Gain: the pageable copy time per
// step, an upper bound (pinned copies still take some time).
#include <fmt/format.h>

#include "perfdx/advisor/advisor.h"
#include "perfdx/advisor/knobs.h"
#include "perfdx/advisor/rules/rule_util.h"
#include "perfdx/advisor/rules/rules.h"

namespace perfdx::advisor {
namespace {

constexpr size_t kMaxRanges = 5;

class PageableH2dRule final : public Rule {
 public:
  std::string_view id() const override { return "pageable_h2d"; }

  void Evaluate(const RuleContext& c, std::vector<Finding>* out) const override {
    const analysis::HealthMetrics& h = c.analysis.summary;
    if (h.h2d_pageable_share <= 0) return;
    if (advisor::Evaluate(c.thresholds.memcpy_share, h.memcpy_share) != HealthStatus::kHealthy)
      return;
    const Band& band = c.thresholds.pageable_h2d_share;
    if (advisor::Evaluate(band, h.h2d_pageable_share) == HealthStatus::kHealthy) return;

    Finding f;
    f.rule = std::string(id());
    f.category = Category::kMemory;
    f.gain.ns_per_step = PerStepNs(c, h.h2d_pageable_share);
    f.gain.share = ShareOfStep(c, f.gain.ns_per_step);
    f.severity = SeverityFor(band, h.h2d_pageable_share, f.gain.share);
    f.title = fmt::format(
        "Host-to-device copies from pageable memory take {} of the step ({} per step) and cannot "
        "overlap compute",
        Pct(h.h2d_pageable_share), Ms(f.gain.ns_per_step));
    f.evidence.metric = "h2d_pageable_share";
    f.evidence.value = h.h2d_pageable_share;
    f.evidence.threshold = band.healthy;
    f.evidence.unit = "share";
    f.evidence.details = {{"memcpy_share", h.memcpy_share},
                          {"h2d_pinned_share", h.h2d_pinned_share}};
    const analysis::IntervalSet pageable =
        Intersect(c.analysis.activity.device_memcpy_h2d_pageable, c.analysis.window_intervals);
    for (const analysis::Interval& iv : pageable.intervals()) {
      if (f.evidence.ranges.size() == kMaxRanges) break;
      f.evidence.ranges.push_back({iv.start, iv.end});
    }
    AddTag(&f, "pageable_copy");
    AppendFixes(&f.recommendations, {"pinned_memory"});
    out->push_back(std::move(f));
  }
};

}  // namespace

const Rule& PageableH2d() {
  static const PageableH2dRule rule;
  return rule;
}

}  // namespace perfdx::advisor
