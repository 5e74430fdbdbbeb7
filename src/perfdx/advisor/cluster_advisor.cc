#include "perfdx/advisor/cluster_advisor.h"

#include <vector>

#include "perfdx/advisor/advisor.h"
#include "perfdx/advisor/rule.h"

namespace perfdx::advisor {

std::vector<Finding> RunClusterAdvisor(const cluster::ClusterAnalysis& cluster,
                                       const std::vector<const cluster::RankSummary*>& ranks,
                                       const Thresholds& thresholds) {
  std::vector<Finding> out;
  if (ranks.size() < 2 || cluster.ranks.size() != ranks.size()) return out;
  const JobRuleContext context{cluster, ranks, thresholds};
  for (const JobRule* rule : AllJobRules()) rule->Evaluate(context, &out);
  // The same filter as a rank's findings, for the rank the finding names.
  for (Finding& f : out) {
    const cluster::RankSummary* named = nullptr;
    for (const cluster::RankSummary* r : ranks) {
      if (r->rank == f.rank && (f.rank || r->path == f.path)) named = r;
    }
    if (named == nullptr) {  // no rank to read the framework from: no fix
      f.recommendations.clear();
      continue;
    }
    FinishClusterFinding(*named, &f);
  }
  return out;
}

}  // namespace perfdx::advisor
