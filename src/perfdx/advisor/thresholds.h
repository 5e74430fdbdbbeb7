// Health thresholds: the defaults come from ../shared/docs/thresholds.md (the
// tuning guides' numbers) or, where the guides give none, from the peer tool
// named beside each; docs/metrics.md lists every one with its source.
#pragma once

namespace perfdx::advisor {

// A metric is healthy on one side of `healthy` and abnormal beyond
// `abnormal`; in between it is a warning.
struct Band {
  double healthy;
  double abnormal;
  bool higher_is_better;
};

struct Thresholds {
  Band device_utilization{0.85, 0.60, true};         // guide 004 §2.2
  Band idle_share{0.10, 0.50, false};                 // guide 000 §一: target <10%, 50% seen
  Band top1_op_share{0.50, 0.70, false};              // guide 004 §2.2: one op > 70%
  Band top3_op_share{0.50, 0.70, false};              // guide 004 §2.2: top-3 < 50%
  Band memcpy_share{0.15, 0.30, false};               // guide 004 §2.2
  Band framework_overhead_share{0.10, 0.25, false};   // guide 004 §2.2: < 10%, "clearly higher"
  Band dataloader_stall_share{0.05, 0.20, false};     // TensorBoard plugin rule: > 5%
  Band comm_share{0.15, 0.40, false};                 // guide 000 §一: > 40%, target 15%
  Band comm_not_overlapped_share{0.10, 0.40, false};  // TensorBoard plugin rule: > 10%
  Band step_time_cv{0.05, 0.15, false};               // perfdx: "strongly fluctuating"
  double min_recurring_gap_ns = 1'000'000;            // guide: report gaps >= 1 ms that repeat
};

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
