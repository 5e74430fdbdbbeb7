// Rules that need several ranks at once: a rank that is late to the
// collectives (late_rank), msprof-analyze's slow rank (slow_rank: Computing,
// Communication or Free differ across ranks by more than 5% of the mean
// step; folded into late_rank when that fires, one finding per cause) and
// slow link (slow_link: per-rank SDMA / RDMA bandwidths 5% apart). In a
// data-parallel collective every rank waits for the last to arrive, so the
// late rank shows the *least* communication time and the others show the
// wait (msprof-analyze's slow-rank analysis reads it the same way: the rank
// with the shortest communication time is the slow one).
#pragma once

#include <vector>

#include "perfdx/advisor/finding.h"
#include "perfdx/advisor/thresholds.h"
#include "perfdx/analysis/rank_analysis.h"

namespace perfdx::advisor {

std::vector<Finding> RunClusterAdvisor(const std::vector<const analysis::RankAnalysis*>& ranks,
                                       const Thresholds& thresholds);

}  // namespace perfdx::advisor
