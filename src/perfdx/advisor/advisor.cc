#include "perfdx/advisor/advisor.h"

#include <algorithm>

#include "perfdx/advisor/fix_targets.h"
#include "perfdx/advisor/rule.h"

namespace perfdx::advisor {

namespace {
constexpr double kCriticalGainShare = 0.05;
constexpr double kWarningGainShare = 0.01;
}  // namespace

Severity SeverityFor(const Band& band, double value, double gain_share) {
  const HealthStatus status = Evaluate(band, value);
  if (status == HealthStatus::kAbnormal && gain_share >= kCriticalGainShare) return Severity::kCritical;
  if (status != HealthStatus::kHealthy && gain_share >= kWarningGainShare) return Severity::kWarning;
  return Severity::kInfo;
}

std::vector<Finding> RunAdvisor(const analysis::RankAnalysis& analysis, const Thresholds& thresholds) {
  const RuleContext context{analysis, thresholds};
  std::vector<Finding> findings;
  for (const Rule* rule : AllRules()) rule->Evaluate(context, &findings);
  const model::RankInfo& info = analysis.trace->info;
  const std::vector<FixTarget> targets = TargetsFor(info.runtime);
  for (Finding& f : findings) {
    f.rank = info.rank;
    f.path = info.path;
    KeepFixesFor(targets, &f);
  }
  std::stable_sort(findings.begin(), findings.end(), [](const Finding& a, const Finding& b) {
    if (a.gain.ns_per_step != b.gain.ns_per_step) return a.gain.ns_per_step > b.gain.ns_per_step;
    return a.severity > b.severity;
  });
  return findings;
}

}  // namespace perfdx::advisor
