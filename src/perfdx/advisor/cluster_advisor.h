// The advisor over the ranks of one job: runs every job rule of the
// registry (rules/rules.h: late_rank / slow_rank, slow_link) over the job's
// cluster analysis and finishes each finding as a rank's are (the fix
// filter of the rank it names, read from its summary; the gain clamped to
// that rank's step).
#pragma once

#include <vector>

#include "perfdx/advisor/finding.h"
#include "perfdx/advisor/thresholds.h"
#include "perfdx/cluster/cluster_analysis.h"

namespace perfdx::advisor {

// `ranks` are the summaries `cluster` was made from, in its order.
std::vector<Finding> RunClusterAdvisor(const cluster::ClusterAnalysis& cluster,
                                       const std::vector<const cluster::RankSummary*>& ranks,
                                       const Thresholds& thresholds);

}  // namespace perfdx::advisor
