#include "perfdx/analysis/activity.h"

#include <optional>

#include "perfdx/analysis/copy_names.h"
#include "perfdx/analysis/slice_sets.h"

namespace perfdx::analysis {

using model::EventKind;
using model::SliceId;

bool IsSyncCall(std::string_view name) {
  static constexpr std::string_view kSyncNames[] = {"aten::item",
                                                    "aten::_local_scalar_dense",
                                                    "cudaStreamSynchronize",
                                                    "cudaDeviceSynchronize",
                                                    "cudaEventSynchronize",
                                                    "cudaMemcpy",
                                                    "hipStreamSynchronize",
                                                    "hipDeviceSynchronize",
                                                    "hipMemcpy",
                                                    "aclrtSynchronizeStream",
                                                    "aclrtSynchronizeDevice",
                                                    "aclrtSynchronizeEvent",
                                                    "AscendCL@aclrtSynchronizeStream",
                                                    "AscendCL@aclrtSynchronizeDevice",
                                                    "AscendCL@aclrtSynchronizeEvent"};
  for (std::string_view s : kSyncNames) {
    if (name == s) return true;
  }
  return false;
}

bool IsHostCollectiveName(std::string_view name) {
  static constexpr std::string_view kNames[] = {"gloo:all_reduce",
                                                "gloo:all_gather",
                                                "gloo:broadcast",
                                                "gloo:reduce",
                                                "gloo:reduce_scatter",
                                                "gloo:all_to_all",
                                                "gloo:gather",
                                                "gloo:scatter",
                                                "gloo:barrier",
                                                "gloo:send",
                                                "gloo:recv",
                                                "c10d::allreduce_",
                                                "c10d::allreduce_coalesced_",
                                                "c10d::broadcast_",
                                                "c10d::allgather_",
                                                "c10d::_allgather_base_",
                                                "c10d::allgather_into_tensor_coalesced_",
                                                "c10d::reduce_scatter_",
                                                "c10d::_reduce_scatter_base_",
                                                "c10d::reduce_scatter_tensor_coalesced_",
                                                "c10d::reduce_",
                                                "c10d::alltoall_",
                                                "c10d::alltoall_base_",
                                                "c10d::gather_",
                                                "c10d::scatter_",
                                                "c10d::barrier",
                                                "c10d::send",
                                                "c10d::recv_",
                                                "record_param_comms"};
  for (std::string_view s : kNames) {
    if (name == s) return true;
  }
  return false;
}

bool IsOptimizerStep(std::string_view name) {
  return name.rfind("Optimizer.step#", 0) == 0 ||
         name.find("torch/optim/") != std::string_view::npos;
}

bool InsideDataLoading(const model::Trace& trace, SliceId i) {
  for (int32_t p = trace.slices.parent[i]; p >= 0; p = trace.slices.parent[p]) {
    if (trace.slices.kind[p] == EventKind::kDataLoading) return true;
  }
  return false;
}

Activity BuildActivity(const model::Trace& trace) {
  Activity a;
  const model::SliceTable& s = trace.slices;
  auto device_kind = [&](EventKind kind) {
    return SliceIntervals(trace,
                          [&](SliceId i) { return s.kind[i] == kind && OnDevice(trace, i); });
  };
  a.device_compute = device_kind(EventKind::kComputeKernel);
  a.device_communication = device_kind(EventKind::kCollective);
  a.device_memset = device_kind(EventKind::kMemset);
  a.device_memcpy = SliceIntervals(
      trace, [&](SliceId i) { return model::IsMemcpy(s.kind[i]) && OnDevice(trace, i); });
  // Kineto names the host side of a copy: "Memcpy HtoD (Pageable -> Device)".
  auto h2d_from = [&](CopyMemory memory) {
    return SliceIntervals(trace, [&](SliceId i) {
      if (s.kind[i] != EventKind::kMemcpyH2D) return false;
      const std::optional<CopyEnds> ends = ParseCopyName(trace.slice_name(i));
      return ends && ends->source == memory;
    });
  };
  a.device_memcpy_h2d_pageable = h2d_from(CopyMemory::kPageable);
  a.device_memcpy_h2d_pinned = h2d_from(CopyMemory::kPinned);
  a.device_memcpy_d2d = device_kind(EventKind::kMemcpyD2D);
  a.device_busy = Union(Union(a.device_compute, a.device_communication),
                        Union(a.device_memcpy, a.device_memset));
  a.cpu_only = a.device_busy.empty();

  auto host_kind = [&](EventKind kind) {
    return SliceIntervals(trace, [&](SliceId i) { return s.kind[i] == kind && OnHost(trace, i); });
  };
  a.host_framework = host_kind(EventKind::kFrameworkOp);
  a.host_runtime = host_kind(EventKind::kRuntimeCall);
  a.host_dataloader = host_kind(EventKind::kDataLoading);
  a.host_sync = SliceIntervals(
      trace, [&](SliceId i) { return OnHost(trace, i) && IsSyncCall(trace.slice_name(i)); });
  a.host_optimizer = SliceIntervals(trace, [&](SliceId i) {
    return OnHost(trace, i) &&
           (s.kind[i] == EventKind::kUserAnnotation || s.kind[i] == EventKind::kPythonFunction) &&
           IsOptimizerStep(trace.slice_name(i));
  });
  a.host_any = SliceIntervals(trace, [&](SliceId i) {
    return OnHost(trace, i) && s.kind[i] != EventKind::kStepMarker &&
           s.kind[i] != EventKind::kOther;
  });

  if (a.cpu_only) {
    auto collective = [&](SliceId i) {
      return (s.kind[i] == EventKind::kFrameworkOp || s.kind[i] == EventKind::kUserAnnotation) &&
             IsHostCollectiveName(trace.slice_name(i));
    };
    // What encloses each op, for all slices in one pass in index order
    // (parents come first): a walk up the ancestors of every op was n x
    // depth on deeply nested traces (#17).
    std::vector<uint8_t> in_loading(s.size(), 0);     // a DataLoader slice is above it
    std::vector<uint8_t> in_collective(s.size(), 0);  // it, or a slice above it, is a collective
    for (SliceId i = 0; i < s.size(); ++i) {
      const int32_t p = s.parent[i];
      if (p >= 0) in_loading[i] = in_loading[p] || s.kind[p] == EventKind::kDataLoading;
      in_collective[i] = collective(i) || (p >= 0 && in_collective[p]);
    }
    a.compute_timeline = SliceIntervals(trace, [&](SliceId i) {
      return s.kind[i] == EventKind::kFrameworkOp && OnHost(trace, i) && !in_loading[i] &&
             !in_collective[i];
    });
    a.communication =
        SliceIntervals(trace, [&](SliceId i) { return OnHost(trace, i) && collective(i); });
  } else {
    a.compute_timeline = a.device_busy;
    a.communication = a.device_communication;
  }
  a.framework_overhead = Subtract(
      Subtract(Union(a.host_framework, a.host_runtime), a.compute_timeline), a.host_dataloader);
  a.dataloader_stall = Subtract(a.host_dataloader, a.compute_timeline);
  a.communication_exposed =
      Subtract(a.communication, a.cpu_only ? a.compute_timeline : a.device_compute);
  return a;
}

}  // namespace perfdx::analysis
