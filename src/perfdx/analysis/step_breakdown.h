// Where each step's wall time went, as the TensorBoard profiler plugin's
// "Step Time Breakdown" partitions it (../shared/docs/tbp-definitions.md §2):
// every instant of the step window is given to the first category active
// then, in the priority order kernel > memcpy > memset > communication >
// runtime > dataloader > cpu_exec > other. The categories sum to the step's
// duration exactly.
#pragma once

#include <cstdint>
#include <vector>

#include "perfdx/analysis/steps.h"
#include "perfdx/model/trace.h"

namespace perfdx::analysis {

struct StepBreakdown {
  int64_t kernel_ns = 0;
  int64_t memcpy_ns = 0;
  int64_t memset_ns = 0;
  int64_t communication_ns = 0;
  int64_t runtime_ns = 0;
  int64_t dataloader_ns = 0;
  int64_t cpu_exec_ns = 0;
  int64_t other_ns = 0;
  // Each category / the step's duration (the text report's step table).
  struct Shares {
    double kernel = 0, memcpy = 0, memset = 0, communication = 0, runtime = 0, dataloader = 0,
           cpu_exec = 0, other = 0;
  } shares;
  int64_t total_ns() const {
    return kernel_ns + memcpy_ns + memset_ns + communication_ns + runtime_ns + dataloader_ns +
           cpu_exec_ns + other_ns;
  }
};

// One breakdown per timeline.steps[i].
std::vector<StepBreakdown> ComputeStepBreakdowns(const model::Trace& trace,
                                                 const StepTimeline& timeline);

}  // namespace perfdx::analysis
