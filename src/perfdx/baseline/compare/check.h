// `perfdx check`: did the new run improve, keep, or regress the step time of
// the baseline? The verdict comes from the two per-step time distributions
// (statistics.h: bootstrap CI of the median ratio, and Classify's rule), so
// run-to-run noise neither hides a regression nor fakes an improvement.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "perfdx/base/statistics.h"
#include "perfdx/base/status.h"
#include "perfdx/baseline/record/run_record.h"
#include "perfdx/baseline/verdict.h"

namespace perfdx::baseline {

struct CheckOptions {
  VerdictThresholds thresholds;
  BootstrapOptions bootstrap;
  // Fewer steps than this on either side cannot say anything about noise.
  size_t min_steps = 3;
};

struct CheckResult {
  Verdict verdict = Verdict::kUnchanged;
  RatioInterval interval;  // median(new) / median(base) and its CI
  std::string method;      // kBootstrapMethod
  VerdictThresholds thresholds;
  bool beyond_noise = false;    // the CI excludes 1
  bool past_threshold = false;  // the median moved past the threshold in its direction
  std::string base_label;
  std::string new_label;
  size_t base_steps = 0;
  size_t new_steps = 0;
  double base_median_ns = 0;
  double new_median_ns = 0;
  std::optional<double> base_throughput;  // median samples/s, when both logs have samples
  std::optional<double> new_throughput;
  // The step times the verdict was computed from (after the warm-up cut), in
  // step order: what the HTML page draws.
  std::vector<double> base_step_ns;
  std::vector<double> new_step_ns;
  std::vector<std::string> notes;  // same input, few steps, different devices

  double change() const { return interval.ratio - 1; }  // -0.28: 28% faster
};

// InvalidInput when a side has fewer than min_steps steps.
Result<CheckResult> CheckRun(const RunRecord& base, const RunRecord& current,
                             const CheckOptions& options = {});

}  // namespace perfdx::baseline
