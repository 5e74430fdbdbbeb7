#include "perfdx/analysis/step_stats.h"

#include <algorithm>
#include <cmath>

#include "perfdx/base/statistics.h"

namespace perfdx::analysis {

StepTimeStats ComputeStepTimeStats(const StepTimeline& timeline) {
  StepTimeStats out;
  std::vector<int64_t> durations;
  std::vector<double> durations_ns;
  for (const StepWindow& s : timeline.steps) {
    durations.push_back(s.dur_ns());
    durations_ns.push_back(static_cast<double>(s.dur_ns()));
  }
  out.count = durations.size();
  if (durations.empty()) return out;
  // Whole nanoseconds: the median of an even count is truncated, as
  // integer arithmetic would (durations are positive).
  const DistributionSummary summary = Summarize(std::move(durations_ns));
  out.mean_ns = static_cast<int64_t>(std::llround(summary.mean));
  out.median_ns = static_cast<int64_t>(summary.median);
  out.p90_ns = static_cast<int64_t>(summary.p90);
  out.min_ns = static_cast<int64_t>(summary.min);
  out.max_ns = static_cast<int64_t>(summary.max);
  out.cv = summary.cv;

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
