// The device idles while the host blocks in a synchronization inside the
// step (aten::item, .cpu(), cudaStreamSynchronize, aclrtSynchronizeStream...):
// each one drains the device queue. Gain: the sync-caused idle time per step.
#include <map>

#include <fmt/format.h>

#include "perfdx/advisor/advisor.h"
#include "perfdx/advisor/knobs.h"
#include "perfdx/advisor/rules/rule_util.h"
#include "perfdx/advisor/rules/rules.h"
#include "perfdx/base/saturating.h"

namespace perfdx::advisor {
namespace {

class SyncInStepRule final : public Rule {
 public:
  std::string_view id() const override { return "sync_in_step"; }

  void Evaluate(const RuleContext& c, std::vector<Finding>* out) const override {
    int64_t total_ns = 0;
    uint64_t count = 0;
    std::map<std::string, int64_t> by_call;
    Finding f;
    for (const analysis::Gap& g : c.analysis.gaps.gaps) {
      if (g.cause.kind != "synchronization") continue;
      base::AddSaturating(total_ns, g.dur_ns);
      ++count;
      base::AddSaturating(by_call[g.cause.name.empty() ? "(sync)" : g.cause.name], g.dur_ns);
      if (f.evidence.ranges.size() < 5)
        f.evidence.ranges.push_back({g.start_ns, g.start_ns + g.dur_ns});
    }
    if (count == 0) return;
    const int64_t per_step = total_ns / static_cast<int64_t>(c.step_count());
    const double share = ShareOfStep(c, per_step);
    const Band& band = c.thresholds.sync_stall_share;
    if (advisor::Evaluate(band, share) == HealthStatus::kHealthy) return;
    f.rule = std::string(id());
    f.category = Category::kComputeUtilization;
    f.gain = {per_step, share};
    f.severity = SeverityFor(band, share, share);
    std::string worst;
    int64_t worst_ns = 0;
    for (const auto& [name, ns] : by_call) {
      f.evidence.contributors.push_back({name, ns / static_cast<int64_t>(c.step_count()),
                                         static_cast<double>(ns) / static_cast<double>(total_ns)});
      if (ns > worst_ns) worst = name, worst_ns = ns;
    }
    f.title = fmt::format(
        "Host synchronizations ({} most) leave the device idle {} per step ({} of step time, {} "
        "gaps)",
        worst, Ms(per_step), Pct(share), count);
    f.evidence.metric = "sync_idle_share";
    f.evidence.value = share;
    f.evidence.threshold = band.healthy;
    f.evidence.unit = "share";
    AddTag(&f, "host_sync");
    f.host_cause = true;
    AppendFixes(&f.recommendations, {"avoid_host_sync", "launch_blocking_off"});
    out->push_back(std::move(f));
  }
};

}  // namespace

const Rule& SyncInStep() {
  static const SyncInStepRule rule;
  return rule;
}

}  // namespace perfdx::advisor
