// Rules that need several ranks at once. Today: a rank that is late to the
// collectives. In a data-parallel collective every rank waits for the last
// to arrive, so the late rank shows the *least* communication time and the
// others show the wait (msprof-analyze's slow-rank analysis reads it the
// same way: the rank with the shortest communication time is the slow one).
#pragma once

#include <vector>

#include "perfdx/advisor/finding.h"
#include "perfdx/advisor/thresholds.h"
#include "perfdx/analysis/rank_analysis.h"

namespace perfdx::advisor {

std::vector<Finding> RunClusterAdvisor(const std::vector<const analysis::RankAnalysis*>& ranks,
                                       const Thresholds& thresholds);

}  // namespace perfdx::advisor
