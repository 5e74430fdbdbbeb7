#include "perfdx/model/event_kind.h"

namespace perfdx::model {

std::string_view EventKindName(EventKind kind) {
  switch (kind) {
    case EventKind::kComputeKernel:
      return "compute_kernel";
    case EventKind::kMemcpyH2D:
      return "memcpy_h2d";
    case EventKind::kMemcpyD2H:
      return "memcpy_d2h";
    case EventKind::kMemcpyD2D:
      return "memcpy_d2d";
    case EventKind::kMemcpyP2P:
      return "memcpy_p2p";
    case EventKind::kMemcpyOther:
      return "memcpy_other";
    case EventKind::kMemset:
      return "memset";
    case EventKind::kCollective:
      return "collective";
    case EventKind::kCollectiveTask:
      return "collective_task";
    case EventKind::kDeviceSync:
      return "device_sync";
    case EventKind::kDeviceAnnotation:
      return "device_annotation";
    case EventKind::kFrameworkOp:
      return "framework_op";
    case EventKind::kRuntimeCall:
      return "runtime_call";
    case EventKind::kPythonFunction:
      return "python_function";
    case EventKind::kUserAnnotation:
      return "user_annotation";
    case EventKind::kDataLoading:
      return "data_loading";
    case EventKind::kStepMarker:
      return "step_marker";
    case EventKind::kCounter:
      return "counter";
    case EventKind::kMemoryEvent:
      return "memory_event";
    case EventKind::kOther:
      return "other";
  }
  return "other";
}

std::string_view TrackKindName(TrackKind kind) {
  switch (kind) {
    case TrackKind::kHostThread:
      return "host_thread";
    case TrackKind::kDeviceStream:
      return "device_stream";
    case TrackKind::kCommOps:
      return "comm_ops";
    case TrackKind::kCommTasks:
      return "comm_tasks";
    case TrackKind::kCounter:
      return "counter";
    case TrackKind::kAsync:
      return "async";
    case TrackKind::kProfilerInternal:
      return "profiler_internal";
  }
  return "profiler_internal";
}

std::string_view FlowKindName(FlowKind kind) {
  switch (kind) {
    case FlowKind::kLaunch:
      return "launch";
    case FlowKind::kOpToDevice:
      return "op_to_device";
    case FlowKind::kTaskQueue:
      return "task_queue";
    case FlowKind::kForwardBackward:
      return "forward_backward";
    case FlowKind::kOther:
      return "other";
  }
  return "other";
}

std::string_view SourceFormatName(SourceFormat format) {
  switch (format) {
    case SourceFormat::kKineto:
      return "kineto";
    case SourceFormat::kPytorchLegacy:
      return "pytorch_legacy";
    case SourceFormat::kAscendTraceView:
      return "ascend_trace_view";
    case SourceFormat::kChromeJson:
      return "chrome_json";
    case SourceFormat::kAscendDb:
      return "ascend_db";
    case SourceFormat::kMsprofTimeline:
      return "msprof_timeline";
    case SourceFormat::kAscendKernelCsv:
      return "ascend_kernel_csv";
  }
  return "chrome_json";
}

std::string_view DeviceTypeName(DeviceType type) {
  switch (type) {
    case DeviceType::kUnknown:
      return "unknown";
    case DeviceType::kCpu:
      return "cpu";
    case DeviceType::kCuda:
      return "cuda";
    case DeviceType::kRocm:
      return "rocm";
    case DeviceType::kNpu:
      return "npu";
  }
  return "unknown";
}

}  // namespace perfdx::model
