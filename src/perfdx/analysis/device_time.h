// Device time per step with the semantics of Ascend's step_trace_time.csv
// (../shared/docs/ascend-formats.md §6), computed from the device tasks
// themselves — never copied from the profiler's own "Overlap Analysis"
// process, step_trace_time.csv or analysis.db, which serve only as the
// cross-check. The same definitions apply to GPU traces:
//   computing                     time some compute work runs
//   communication                 time some collective runs
//   communication_not_overlapped  communication while no compute runs
//   free                          device time with neither (see docs/metrics.md
//                                 for the exact window)
//   preparing                     from the step's start to its first
//                                 computing/communication instant
//   trailing                      from the step's last such instant to its end
// so that preparing + computing + communication_not_overlapped + free +
// trailing is the step's duration.
#pragma once

#include <cstdint>
#include <vector>

#include "perfdx/analysis/steps.h"
#include "perfdx/model/trace.h"

namespace perfdx::analysis {

struct DeviceTime {
  int64_t computing_ns = 0;
  int64_t communication_ns = 0;
  int64_t communication_not_overlapped_ns = 0;
  int64_t free_ns = 0;
  int64_t preparing_ns = 0;  // step_trace_time.csv "Preparing"
  int64_t trailing_ns = 0;   // the rest of the step, after its last device task
  int64_t overlapped_ns() const { return communication_ns - communication_not_overlapped_ns; }
};

// One per timeline.steps[i].
std::vector<DeviceTime> ComputeDeviceTime(const model::Trace& trace, const StepTimeline& timeline);

}  // namespace perfdx::analysis
