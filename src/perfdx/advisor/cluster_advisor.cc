#include "perfdx/advisor/cluster_advisor.h"

#include <vector>

#include "perfdx/advisor/advisor.h"
#include "perfdx/advisor/fix_targets.h"
#include "perfdx/advisor/rule.h"
#include "perfdx/advisor/rules/rule_util.h"

namespace perfdx::advisor {

std::vector<Finding> RunClusterAdvisor(const std::vector<const analysis::RankAnalysis*>& ranks,
                                       const Thresholds& thresholds) {
  std::vector<Finding> out;
  if (ranks.size() < 2) return out;
  const JobRuleContext context{ranks, thresholds};
  for (const JobRule* rule : AllJobRules()) rule->Evaluate(context, &out);
  // The same filter as a rank's findings, with the evidence of the rank the
  // finding names: its data-loading stalls and its stalled launches.
  for (Finding& f : out) {
    const analysis::RankAnalysis* named = nullptr;
    for (const analysis::RankAnalysis* r : ranks) {
      if (r->info().rank == f.rank) named = r;
    }
    if (named == nullptr) {  // no rank to read the framework from: no fix
      f.recommendations.clear();
      continue;
    }
    if (f.rule == "late_rank" || f.rule == "slow_rank") {
      f.host_cause = true;
      if (advisor::Evaluate(thresholds.dataloader_stall_share,
                            named->summary.dataloader_stall_share) != HealthStatus::kHealthy) {
        AddTag(&f, "data_loader_wait");
      }
      if (named->gaps.stalled_launch_steps.size() >= 2) AddTag(&f, "host_contention");
    }
    FinishClusterFinding(*named, &f);
    if (f.path.empty()) f.path = named->info().path;
  }
  return out;
}

}  // namespace perfdx::advisor
