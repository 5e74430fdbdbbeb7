#include "perfdx/analysis/health.h"

namespace perfdx::analysis {
namespace {

int64_t Covered(const IntervalSet& set, const IntervalSet& window) {
  int64_t total = 0;
  for (const Interval& w : window.intervals()) total += set.LengthIn(w.start, w.end);
  return total;
}

}  // namespace

HealthMetrics ComputeHealth(const Activity& a, const IntervalSet& window, double top1_op_share,
                            double top3_op_share) {
  HealthMetrics h;
  const auto length = static_cast<double>(window.TotalLength());
  if (length <= 0) return h;
  auto share = [&](const IntervalSet& set) {
    return static_cast<double>(Covered(set, window)) / length;
  };
  h.device_utilization = share(a.compute_timeline);
  // CPU-only: the compute timeline is the host's operators, which is all
  // the compute there is.
  h.device_compute_share = a.cpu_only ? h.device_utilization : share(a.device_compute);
  h.idle_share = 1.0 - h.device_utilization;
  h.top1_op_share = top1_op_share;
  h.top3_op_share = top3_op_share;
  h.memcpy_share = share(a.device_memcpy);
  h.h2d_pageable_share = share(a.device_memcpy_h2d_pageable);
  h.h2d_pinned_share = share(a.device_memcpy_h2d_pinned);
  h.framework_overhead_share = share(a.framework_overhead);
  h.dataloader_stall_share = share(a.dataloader_stall);
  h.comm_share = share(a.communication);
  h.comm_not_overlapped_share = share(a.communication_exposed);
  return h;
}

}  // namespace perfdx::analysis
