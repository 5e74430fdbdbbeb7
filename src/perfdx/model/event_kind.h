// The one vocabulary every importer translates into and every analysis reads.
// Names returned by *Name() are the stable spellings used in JSON reports.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace perfdx::model {

enum class EventKind : uint8_t {
  // Device work.
  kComputeKernel = 0,
  kMemcpyH2D,
  kMemcpyD2H,
  kMemcpyD2D,
  kMemcpyP2P,
  kMemcpyOther,  // a copy whose direction the profiler did not record
  kMemset,
  kCollective,        // communication on the device: NCCL/RCCL kernels, HCCL ops
  kCollectiveTask,    // a sub-task of a collective (HCCL "Plane" tasks)
  kDeviceSync,        // the device waiting (CUDA "Event Sync", Ascend notify wait)
  kDeviceAnnotation,  // host annotation projected onto the device timeline
  // Host work.
  kFrameworkOp,  // aten::*, torch_npu / MindSpore operators
  kRuntimeCall,  // CUDA/HIP/ACL runtime and driver calls, task-queue hops
  kPythonFunction,
  kUserAnnotation,  // record_function ranges
  kDataLoading,     // DataLoader / dataset iteration
  kStepMarker,      // ProfilerStep#N
  // Non-slice records.
  kCounter,
  kMemoryEvent,
  kOther,  // profiler bookkeeping, its own analyses, unknown categories
};
inline constexpr int kEventKindCount = static_cast<int>(EventKind::kOther) + 1;

// The category of the events `perfdx annotate` adds to a trace
// (report/annotation_events.h); the reader puts their tracks with the
// profiler's own bookkeeping, so an annotated trace analyses as the original.
inline constexpr std::string_view kPerfdxAnnotationCategory = "perfdx";

std::string_view EventKindName(EventKind kind);

inline bool IsMemcpy(EventKind k) {
  return k >= EventKind::kMemcpyH2D && k <= EventKind::kMemcpyOther;
}
// Work that occupies a device engine (what "device busy" unions over).
inline bool IsDeviceWork(EventKind k) {
  return k == EventKind::kComputeKernel || IsMemcpy(k) || k == EventKind::kMemset ||
         k == EventKind::kCollective;
}

enum class TrackKind : uint8_t {
  kHostThread = 0,
  kDeviceStream,  // GPU stream / NPU stream ("Ascend Hardware")
  kCommOps,       // collective operations of one communication group (HCCL)
  kCommTasks,     // the tasks making up collectives (HCCL planes)
  kCounter,
  kAsync,             // b/e/n async slices
  kProfilerInternal,  // the profiler's own spans and analyses ("Overlap Analysis")
};
inline constexpr int kTrackKindCount = static_cast<int>(TrackKind::kProfilerInternal) + 1;

std::string_view TrackKindName(TrackKind kind);

inline bool IsDeviceTrack(TrackKind k) {
  return k == TrackKind::kDeviceStream || k == TrackKind::kCommOps || k == TrackKind::kCommTasks;
}

enum class FlowKind : uint8_t {
  kLaunch = 0,       // runtime/API call -> the device work it enqueued
  kOpToDevice,       // framework op -> device work (Ascend torch_to_npu)
  kTaskQueue,        // torch_npu enqueue -> dequeue
  kForwardBackward,  // forward op -> its backward op
  kOther,
};
inline constexpr int kFlowKindCount = static_cast<int>(FlowKind::kOther) + 1;

std::string_view FlowKindName(FlowKind kind);

// Where a Trace came from.
enum class SourceFormat : uint8_t {
  kKineto = 0,       // PyTorch Kineto Chrome trace (CUDA, ROCm, CPU)
  kPytorchLegacy,    // torch.autograd.profiler without Kineto ("CPU functions")
  kAscendTraceView,  // torch_npu / MindSpore trace_view.json
  kChromeJson,       // any other Chrome trace JSON
  kAscendDb,         // torch_npu / MindSpore ascend_*_profiler_{rank}.db (SQLite)
  kMsprofTimeline,   // msprof PROF_*/mindstudio_profiler_output/msprof_*.json
  kAscendKernelCsv,  // a lone kernel_details.csv / op_summary_*.csv (device tasks only)
};
std::string_view SourceFormatName(SourceFormat format);

enum class DeviceType : uint8_t { kUnknown = 0, kCpu, kCuda, kRocm, kNpu };
std::string_view DeviceTypeName(DeviceType type);

}  // namespace perfdx::model
