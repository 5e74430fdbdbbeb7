// The check verdict: did a change move the step time past a threshold and
// beyond noise? Header-only and standard-library-only, like the statistics
// it reads (base/statistics.h): perf_monitor.h uses it too.
#pragma once

#include <cstdint>
#include <string_view>

#include "perfdx/base/statistics.h"

namespace perfdx::baseline {

enum class Verdict : uint8_t { kImproved, kUnchanged, kRegressed };

inline std::string_view VerdictName(Verdict v) {
  switch (v) {
    case Verdict::kImproved:
      return "improved";
    case Verdict::kUnchanged:
      return "unchanged";
    case Verdict::kRegressed:
      return "regressed";
  }
  return "unchanged";
}

struct VerdictThresholds {
  double max_regression = 0.05;   // step time may grow this much before it is a regression
  double min_improvement = 0.10;  // step time must fall this much to count as an improvement
};

// The tuning guide's rule (../shared/docs/thresholds.md "Validation"): a
// change counts when the median moved past the threshold AND the confidence
// interval excludes "no change" (ratio 1), i.e. it is larger than the noise.
//   regressed: ratio >= 1 + max_regression and low > 1
//   improved:  ratio <= 1 - min_improvement and high < 1
//   unchanged: anything else (including real changes smaller than the thresholds)
inline Verdict Classify(const perfdx::RatioInterval& r, const VerdictThresholds& t) {
  if (!r.valid) return Verdict::kUnchanged;
  if (r.ratio >= 1 + t.max_regression && r.low > 1) return Verdict::kRegressed;
  if (r.ratio <= 1 - t.min_improvement && r.high < 1) return Verdict::kImproved;
  return Verdict::kUnchanged;
}

// True when the interval excludes 1: the runs differ beyond noise.
inline bool BeyondNoise(const perfdx::RatioInterval& r) {
  return r.valid && (r.low > 1 || r.high < 1);
}

}  // namespace perfdx::baseline
