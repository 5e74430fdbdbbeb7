#include "perfdx/analysis/step_stats.h"

#include <algorithm>
#include <cmath>

#include "perfdx/base/statistics.h"

namespace perfdx::analysis {

StepTimeStats ComputeStepTimeStats(const StepTimeline& timeline) {
  StepTimeStats out;
  std::vector<int64_t> durations;
  for (const StepWindow& s : timeline.steps) durations.push_back(s.dur_ns());
  out.count = durations.size();
  if (durations.empty()) return out;
  double sum = 0;
  for (int64_t d : durations) sum += static_cast<double>(d);
  const double mean = sum / static_cast<double>(durations.size());
  double var = 0;
  for (int64_t d : durations)
    var += (static_cast<double>(d) - mean) * (static_cast<double>(d) - mean);
  var /= static_cast<double>(durations.size());
  out.mean_ns = static_cast<int64_t>(std::llround(mean));
  out.median_ns = Median(durations);
  out.p90_ns = NearestRankPercentile(durations, 90);
  out.min_ns = *std::min_element(durations.begin(), durations.end());
  out.max_ns = *std::max_element(durations.begin(), durations.end());
  out.cv = mean > 0 ? std::sqrt(var) / mean : 0;

  std::vector<int64_t> deviations;
  for (int64_t d : durations) deviations.push_back(std::llabs(d - out.median_ns));
  const double mad = static_cast<double>(Median(deviations));
  const double limit = std::max(static_cast<double>(out.median_ns) + 3 * 1.4826 * mad,
                                1.1 * static_cast<double>(out.median_ns));
  for (const StepWindow& s : timeline.steps) {
    if (static_cast<double>(s.dur_ns()) > limit) out.outlier_steps.push_back(s.id);
  }
  return out;
}

}  // namespace perfdx::analysis
