// Allocator behaviour from the trace's memory records (Kineto "[memory]"
// events, Ascend memory records), per device:
//   peak_allocated / peak_reserved  the highest totals seen
//   fragmentation_at_peak  1 - allocated/reserved at the moment of peak
//                          allocated (memory the caching allocator holds
//                          but cannot use when demand is highest)
//   allocations / frees per step
// When the profiler did not record totals (2021 Kineto), totals are rebuilt
// by summing the signed sizes from the start of the trace; they are then
// relative to whatever was allocated before profiling began (`relative`).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "perfdx/analysis/interval_set.h"
#include "perfdx/analysis/steps.h"
#include "perfdx/model/trace.h"

namespace perfdx::analysis {

struct DeviceMemory {
  int32_t device_id = -1;  // -1: host memory
  bool relative = false;   // totals rebuilt from sizes (see above)
  int64_t peak_allocated_bytes = 0;
  int64_t peak_reserved_bytes = -1;               // -1: not recorded
  int64_t reserved_at_allocated_peak_bytes = -1;  // when allocated peaked; -1: not recorded
  std::optional<double> fragmentation_at_peak;
  std::optional<int64_t> capacity_bytes;  // from the profiler's device properties
  uint64_t allocations = 0;
  uint64_t frees = 0;
  double allocations_per_step = 0;
  double frees_per_step = 0;
};

struct MemorySummary {
  std::vector<DeviceMemory> devices;  // devices first (by id), host last
};

MemorySummary SummarizeMemory(const model::Trace& trace, const StepTimeline& timeline);

// Device-memory calls that reach the driver rather than the caching
// allocator's pool: cudaMalloc, cudaFree, cudaMallocAsync, hipMalloc,
// aclrtMalloc, aclrtFreePhysical, AscendCL@aclMallocMemInner, ... by exact
// name, from a table (memory_stats.cc) of the CUDA runtime and driver, HIP
// and AscendCL allocation calls (msprof-analyze's memory rule watches the
// same calls).
bool IsDriverAllocCall(std::string_view name);

struct DriverAllocCall {
  std::string name;
  uint64_t calls = 0;
  int64_t total_ns = 0;
};

// The host's runtime calls that are driver allocations, starting in a window.
struct DriverAllocSummary {
  int64_t total_ns = 0;
  std::vector<DriverAllocCall> calls;  // by total_ns, longest first (ties: first seen)
};

DriverAllocSummary SummarizeDriverAllocCalls(const model::Trace& trace, const IntervalSet& window);

}  // namespace perfdx::analysis
