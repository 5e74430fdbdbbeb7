// Step-time statistics: how long steps take and how much they vary.
//   mean, median, p90 (nearest rank), cv = stddev / mean (population)
//   outliers: steps longer than median + 3 x 1.4826 x MAD (a robust
//   3-sigma) and at least 10% above the median
#pragma once

#include <cstdint>
#include <vector>

#include "perfdx/analysis/steps.h"

namespace perfdx::analysis {

struct StepTimeStats {
  uint64_t count = 0;
  int64_t mean_ns = 0;
  int64_t median_ns = 0;
  int64_t p90_ns = 0;
  int64_t min_ns = 0;
  int64_t max_ns = 0;
  double cv = 0;
  std::vector<int64_t> outlier_steps;  // step ids
};

StepTimeStats ComputeStepTimeStats(const StepTimeline& timeline);

}  // namespace perfdx::analysis
