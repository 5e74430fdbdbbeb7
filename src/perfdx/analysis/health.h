// The per-window health metrics of the thresholds table, as shares 0..1 of
// the window's wall time (docs/metrics.md defines each once):
//   device_utilization      compute timeline busy / window: any device work,
//                           communication and copies included
//   device_compute_share    compute kernels alone / window
//   idle_share              1 - device_utilization
//   top1/top3_op_share      of operator device time (op_stats.h)
//   memcpy_share            copies / window; h2d_pageable/pinned split it
//   framework_overhead_share host in framework or runtime code while the
//                           compute timeline is idle, data loading excluded
//   dataloader_stall_share  host in data loading while compute is idle
//   comm_share              collectives / window
//   comm_not_overlapped_share collectives with no compute running / window
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "perfdx/analysis/activity.h"
#include "perfdx/analysis/interval_set.h"

namespace perfdx::analysis {

struct HealthMetrics {
  double device_utilization = 0;
  double device_compute_share = 0;
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

// The one list of health metrics, in report order: the JSON keys of
// `health` / `summary`, the run library's metric names and the report
// reader all come from it.
struct HealthMetricDef {
  std::string_view name;
  double HealthMetrics::*value;
};
inline constexpr std::array<HealthMetricDef, 12> kHealthMetrics = {{
    {"device_utilization", &HealthMetrics::device_utilization},
    {"device_compute_share", &HealthMetrics::device_compute_share},
    {"idle_share", &HealthMetrics::idle_share},
    {"top1_op_share", &HealthMetrics::top1_op_share},
    {"top3_op_share", &HealthMetrics::top3_op_share},
    {"memcpy_share", &HealthMetrics::memcpy_share},
    {"h2d_pageable_share", &HealthMetrics::h2d_pageable_share},
    {"h2d_pinned_share", &HealthMetrics::h2d_pinned_share},
    {"framework_overhead_share", &HealthMetrics::framework_overhead_share},
    {"dataloader_stall_share", &HealthMetrics::dataloader_stall_share},
    {"comm_share", &HealthMetrics::comm_share},
    {"comm_not_overlapped_share", &HealthMetrics::comm_not_overlapped_share},
}};

// Over `window` (one step, or the union of the analysed steps). The op
// shares come from the op summary of the same window.
HealthMetrics ComputeHealth(const Activity& activity, const IntervalSet& window,
                            double top1_op_share, double top3_op_share);

}  // namespace perfdx::analysis
