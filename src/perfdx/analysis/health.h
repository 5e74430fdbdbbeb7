// The per-window health metrics of the thresholds table, as shares 0..1 of
// the window's wall time (docs/metrics.md defines each once):
//   device_utilization      compute timeline busy / window
//   idle_share              1 - device_utilization
//   top1/top3_op_share      of operator device time (op_stats.h)
//   memcpy_share            copies / window; h2d_pageable/pinned split it
//   framework_overhead_share host in framework or runtime code while the
//                           compute timeline is idle, data loading excluded
//   dataloader_stall_share  host in data loading while compute is idle
//   comm_share              collectives / window
//   comm_not_overlapped_share collectives with no compute running / window
#pragma once

#include <cstdint>

#include "perfdx/analysis/activity.h"
#include "perfdx/analysis/interval_set.h"

namespace perfdx::analysis {

struct HealthMetrics {
  double device_utilization = 0;
  double idle_share = 0;
  double top1_op_share = 0;
  double top3_op_share = 0;
  double memcpy_share = 0;
  double h2d_pageable_share = 0;
  double h2d_pinned_share = 0;
  double framework_overhead_share = 0;
  double dataloader_stall_share = 0;
  double comm_share = 0;
  double comm_not_overlapped_share = 0;
};

// Over `window` (one step, or the union of the analysed steps). The op
// shares come from the op summary of the same window.
HealthMetrics ComputeHealth(const Activity& activity, const IntervalSet& window, double top1_op_share,
                            double top3_op_share);

}  // namespace perfdx::analysis
