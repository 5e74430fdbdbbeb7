// The advisor over the ranks of one job: runs every job rule of the
// registry (rules/rules.h: late_rank / slow_rank, slow_link) and finishes
// each finding as a rank's are (the fix filter of the rank it names, the
// gain clamped to that rank's step).
#pragma once

#include <vector>

#include "perfdx/advisor/finding.h"
#include "perfdx/advisor/thresholds.h"
#include "perfdx/analysis/rank_analysis.h"

namespace perfdx::advisor {

std::vector<Finding> RunClusterAdvisor(const std::vector<const analysis::RankAnalysis*>& ranks,
                                       const Thresholds& thresholds);

}  // namespace perfdx::advisor
