#include "perfdx/analysis/memory_stats.h"

#include <algorithm>
#include <array>
#include <map>
#include <string_view>

#include "perfdx/analysis/step_index.h"
#include "perfdx/base/saturating.h"

namespace perfdx::analysis {

MemorySummary SummarizeMemory(const model::Trace& trace, const StepTimeline& timeline) {
  MemorySummary out;
  const model::MemoryEventTable& m = trace.memory;
  struct State {
    DeviceMemory memory;
    int64_t running = 0;         // rebuilt total when the profiler gave none
    int64_t last_reserved = -1;  // the latest reserved total recorded
  };
  std::map<int32_t, State> by_device;
  const StepIndex step_index(timeline.steps);
  for (size_t i = 0; i < m.size(); ++i) {
    State& st = by_device[m.device_id[i]];
    st.memory.device_id = m.device_id[i];
    // A binary search: a scan of the steps per event was events x steps (#17).
    const bool in_step = step_index.StepOf(m.ts_ns[i]) >= 0;
    if (in_step) {
      if (m.bytes[i] > 0) ++st.memory.allocations;
      if (m.bytes[i] < 0) ++st.memory.frees;
    }
    int64_t allocated = m.total_allocated[i];
    if (allocated < 0) {
      base::AddSaturating(st.running, m.bytes[i]);
      allocated = st.running;
      st.memory.relative = true;
    }
    if (m.total_reserved[i] >= 0) {
      st.last_reserved = m.total_reserved[i];
      st.memory.peak_reserved_bytes = std::max(st.memory.peak_reserved_bytes, m.total_reserved[i]);
    }
    // Fragmentation where it matters: at the peak of demand. (Measured where
    // reserved peaks instead, a cache kept from earlier steps reads as
    // fragmentation whenever a step starts with little allocated.)
    if (allocated > st.memory.peak_allocated_bytes) {
      st.memory.peak_allocated_bytes = allocated;
      st.memory.reserved_at_allocated_peak_bytes = st.last_reserved;
      if (st.last_reserved > 0) {
        st.memory.fragmentation_at_peak = std::max(
            0.0, 1.0 - static_cast<double>(allocated) / static_cast<double>(st.last_reserved));
      }
    }
  }
  const double steps = static_cast<double>(timeline.steps.size());
  for (auto& [id, st] : by_device) {
    DeviceMemory d = st.memory;
    if (steps > 0) {
      d.allocations_per_step = static_cast<double>(d.allocations) / steps;
      d.frees_per_step = static_cast<double>(d.frees) / steps;
    }
    for (const model::DeviceProperties& p : trace.info.devices) {
      if (p.id == id && p.total_memory_bytes > 0) d.capacity_bytes = p.total_memory_bytes;
    }
    out.devices.push_back(d);
  }
  // Devices by id, host (-1) last.
  std::stable_sort(out.devices.begin(), out.devices.end(),
                   [](const DeviceMemory& a, const DeviceMemory& b) {
                     return (a.device_id < 0) < (b.device_id < 0);
                   });
  return out;
}

namespace {

// The runtime and driver calls that allocate or free device (or pinned host)
// memory, by their exact names in the CUDA runtime and driver APIs, HIP and
// AscendCL (CANN spans carry the "AscendCL@" prefix). Sorted, for binary
// search; tests/analysis/memory_stats_test.cc checks every name.
constexpr std::array kDriverAllocCalls = std::to_array<std::string_view>({
    "AscendCL@aclMallocMemInner",
    "AscendCL@aclrtFree",
    "AscendCL@aclrtFreeHost",
    "AscendCL@aclrtFreePhysical",
    "AscendCL@aclrtMalloc",
    "AscendCL@aclrtMallocAlign32",
    "AscendCL@aclrtMallocCached",
    "AscendCL@aclrtMallocHost",
    "AscendCL@aclrtMallocPhysical",
    "aclrtFree",
    "aclrtFreeHost",
    "aclrtFreePhysical",
    "aclrtMalloc",
    "aclrtMallocAlign32",
    "aclrtMallocCached",
    "aclrtMallocHost",
    "aclrtMallocPhysical",
    "cuMemAlloc",
    "cuMemAllocAsync",
    "cuMemAllocHost",
    "cuMemAllocHost_v2",
    "cuMemAllocManaged",
    "cuMemAllocPitch",
    "cuMemAllocPitch_v2",
    "cuMemAlloc_v2",
    "cuMemCreate",
    "cuMemFree",
    "cuMemFreeAsync",
    "cuMemFreeHost",
    "cuMemFree_v2",
    "cuMemHostAlloc",
    "cuMemRelease",
    "cudaFree",
    "cudaFreeArray",
    "cudaFreeAsync",
    "cudaFreeHost",
    "cudaFreeMipmappedArray",
    "cudaHostAlloc",
    "cudaMalloc",
    "cudaMalloc3D",
    "cudaMalloc3DArray",
    "cudaMallocArray",
    "cudaMallocAsync",
    "cudaMallocFromPoolAsync",
    "cudaMallocHost",
    "cudaMallocManaged",
    "cudaMallocMipmappedArray",
    "cudaMallocPitch",
    "hipExtMallocWithFlags",
    "hipFree",
    "hipFreeArray",
    "hipFreeAsync",
    "hipHostFree",
    "hipHostMalloc",
    "hipMalloc",
    "hipMalloc3D",
    "hipMallocArray",
    "hipMallocAsync",
    "hipMallocFromPoolAsync",
    "hipMallocManaged",
    "hipMallocPitch",
});
static_assert(std::is_sorted(kDriverAllocCalls.begin(), kDriverAllocCalls.end()));

}  // namespace

bool IsDriverAllocCall(std::string_view name) {
  return std::binary_search(kDriverAllocCalls.begin(), kDriverAllocCalls.end(), name);
}

DriverAllocSummary SummarizeDriverAllocCalls(const model::Trace& trace, const IntervalSet& window) {
  DriverAllocSummary out;
  const model::SliceTable& s = trace.slices;
  for (model::SliceId i = 0; i < s.size(); ++i) {
    if (s.kind[i] != model::EventKind::kRuntimeCall || !window.Contains(s.ts_ns[i])) continue;
    const std::string_view name = trace.slice_name(i);
    if (!IsDriverAllocCall(name)) continue;
    base::AddSaturating(out.total_ns, s.dur_ns[i]);
    // At most one entry per name of the table: the search stays short.
    auto it = std::find_if(out.calls.begin(), out.calls.end(),
                           [&](const DriverAllocCall& c) { return c.name == name; });
    if (it == out.calls.end()) {
      out.calls.push_back({std::string(name), 0, 0});
      it = out.calls.end() - 1;
    }
    ++it->calls;
    base::AddSaturating(it->total_ns, s.dur_ns[i]);
  }
  std::stable_sort(
      out.calls.begin(), out.calls.end(),
      [](const DriverAllocCall& a, const DriverAllocCall& b) { return a.total_ns > b.total_ns; });
  return out;
}

}  // namespace perfdx::analysis
