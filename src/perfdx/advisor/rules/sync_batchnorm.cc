// Many SyncBatchNorm calls (../shared/docs/ascend-advisor_rules.md, row 18;
// msprof-analyze syncbn_checker): framework operators named
// "SyncBatchNorm" (case-insensitive, exact) per step >= syncbn_min_count
// (20, sync_batchnorm.yaml max_syncbn_num). Each one all-reduces its
// layer's statistics across devices and dispatches slowly (msprof's text).
//
// Gain 0: plain BatchNorm still computes the statistics and the trace does
// not separate the synchronization inside each SyncBatchNorm from its
// BatchNorm work, so there is no what-if on the measured timeline.
#include <fmt/format.h>

#include "perfdx/advisor/knobs.h"
#include "perfdx/advisor/rules/rule_util.h"
#include "perfdx/advisor/rules/rules.h"
#include "perfdx/base/saturating.h"

namespace perfdx::advisor {
namespace {

class SyncBatchNormRule final : public Rule {
 public:
  std::string_view id() const override { return "sync_batchnorm"; }

  void Evaluate(const RuleContext& c, std::vector<Finding>* out) const override {
    uint64_t calls = 0;
    int64_t host_ns = 0;
    for (const analysis::HostCall& call :
         c.analysis.host_calls.Of(analysis::HostCallKind::kSyncBatchNorm)) {
      ++calls;
      base::AddSaturating(host_ns, call.dur_ns);
    }
    const double per_step = static_cast<double>(calls) / static_cast<double>(c.step_count());
    if (calls == 0 || per_step < c.thresholds.syncbn_min_count) return;

    Finding f;
    f.rule = std::string(id());
    f.category = Category::kScheduling;
    f.gain = {0, 0};
    f.severity = Severity::kInfo;
    f.title = fmt::format(
        "{:.0f} SyncBatchNorm calls per step ({} of host time): each synchronizes its layer's "
        "statistics across devices",
        per_step, Ms(PerStep(c, host_ns)));
    f.evidence.metric = "syncbn_per_step";
    f.evidence.value = per_step;
    f.evidence.threshold = c.thresholds.syncbn_min_count;
    f.evidence.unit = "count";
    f.evidence.details = {{"syncbn_host_ns_per_step", static_cast<double>(PerStep(c, host_ns))}};
    AddTag(&f, "sync_batchnorm");
    AppendFixes(&f.recommendations, {"avoid_sync_batchnorm"});
    out->push_back(std::move(f));
  }
};

}  // namespace

const Rule& SyncBatchNormCalls() {
  static const SyncBatchNormRule rule;
  return rule;
}

}  // namespace perfdx::advisor
