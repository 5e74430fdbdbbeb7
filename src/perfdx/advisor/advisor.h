// Runs every rule over one rank's analysis and returns its findings: ranked
// by estimated gain (largest first), one per cause.
#pragma once

#include <vector>

#include "perfdx/advisor/finding.h"
#include "perfdx/advisor/thresholds.h"
#include "perfdx/analysis/rank_analysis.h"

namespace perfdx::advisor {

std::vector<Finding> RunAdvisor(const analysis::RankAnalysis& analysis, const Thresholds& thresholds);

// The severity a rule gives its finding: critical when the metric is past the
// band's abnormal limit and the gain is at least 5% of the step (the
// msprof-analyze advisor's "high priority" ratio), warning when it is past
// the healthy limit and the gain is at least 1%, info otherwise.
Severity SeverityFor(const Band& band, double value, double gain_share);

}  // namespace perfdx::advisor
