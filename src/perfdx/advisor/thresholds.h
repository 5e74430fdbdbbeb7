// Health thresholds: the defaults come from ../shared/docs/thresholds.md (the
// tuning guides' numbers) or, where the guides give none, from the peer tool
// named beside each, all in one list (thresholds.def).
#pragma once

#include "perfdx/analysis/link_peaks.h"

namespace perfdx::advisor {

// A metric is healthy on one side of `healthy` and abnormal beyond
// `abnormal`; in between it is a warning.
struct Band {
  double healthy;
  double abnormal;
  bool higher_is_better;
};

// Every threshold, with its default (thresholds.def has each one's meaning
// and source).
struct Thresholds {
#define PERFDX_BAND(name, healthy, abnormal, higher_is_better, meaning, source) \
  Band name{healthy, abnormal, higher_is_better};
#define PERFDX_SCALAR(name, value, unit, meaning, source) double name = value;
#include "perfdx/advisor/thresholds.def"
#undef PERFDX_BAND
#undef PERFDX_SCALAR
};

// The link-peak table the thresholds hold (analysis/link_peaks.h).
inline analysis::LinkPeaks LinkPeaksOf(const Thresholds& th) {
  return {th.hccs_peak_gbps, th.pcie_peak_gbps, th.rdma_peak_gbps, th.sdma_peak_gbps};
}

enum class HealthStatus { kHealthy, kWarning, kAbnormal };

inline HealthStatus Evaluate(const Band& band, double value) {
  if (band.higher_is_better) {
    if (value >= band.healthy) return HealthStatus::kHealthy;
    return value < band.abnormal ? HealthStatus::kAbnormal : HealthStatus::kWarning;
  }
  if (value <= band.healthy) return HealthStatus::kHealthy;
  return value > band.abnormal ? HealthStatus::kAbnormal : HealthStatus::kWarning;
}

}  // namespace perfdx::advisor
