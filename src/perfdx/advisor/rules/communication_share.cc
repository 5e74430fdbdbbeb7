// Communication takes a large share of the step (guide 000 §一:
// communication congestion, > 40% abnormal, target 15%; TensorBoard plugin
// rule R4) while running mostly under compute. When it is exposed,
// exposed_communication reports it once (with the communication share as a
// detail), so this rule speaks only for hidden communication: it still
// competes with compute for SMs / AI cores and memory bandwidth, and grows
// into the step as soon as compute shrinks. Gain: the part still exposed
// per step — what cutting the volume could give back now (small, by the
// time this rule fires).
#include <fmt/format.h>

#include "perfdx/advisor/advisor.h"
#include "perfdx/advisor/knobs.h"
#include "perfdx/advisor/rules/rule_util.h"
#include "perfdx/advisor/rules/rules.h"

namespace perfdx::advisor {
namespace {

class CommunicationShareRule final : public Rule {
 public:
  std::string_view id() const override { return "communication_share"; }

  void Evaluate(const RuleContext& c, std::vector<Finding>* out) const override {
    const analysis::HealthMetrics& h = c.analysis.summary;
    const Band& band = c.thresholds.comm_share;
    if (advisor::Evaluate(band, h.comm_share) == HealthStatus::kHealthy) return;
    if (advisor::Evaluate(c.thresholds.comm_not_overlapped_share, h.comm_not_overlapped_share) !=
        HealthStatus::kHealthy) {
      return;  // exposed_communication owns it
    }
    const double hidden = h.comm_share > 0 ? 1.0 - h.comm_not_overlapped_share / h.comm_share : 0;

    Finding f;
    f.rule = std::string(id());
    f.category = Category::kCommunication;
    f.gain.ns_per_step = PerStepNs(c, h.comm_not_overlapped_share);
    f.gain.share = ShareOfStep(c, f.gain.ns_per_step);
    f.severity = SeverityFor(band, h.comm_share, f.gain.share);
    f.title = fmt::format(
        "Communication takes {} of the step ({} per step); {} of it is hidden under compute",
        Pct(h.comm_share), Ms(PerStepNs(c, h.comm_share)), Pct(hidden));
    f.evidence.metric = "comm_share";
    f.evidence.value = h.comm_share;
    f.evidence.threshold = band.healthy;
    f.evidence.unit = "share";
    f.evidence.details = {{"comm_not_overlapped_share", h.comm_not_overlapped_share},
                          {"hidden_share", hidden}};
    if (AllReduceDominates(c.analysis.collectives)) AddTag(&f, "allreduce");
    AppendFixes(&f.recommendations,
                {"ddp_bucket", "gradient_accumulation", "overlap_communication"});
    out->push_back(std::move(f));
  }
};

}  // namespace

const Rule& CommunicationShare() {
  static const CommunicationShareRule rule;
  return rule;
}

}  // namespace perfdx::advisor
