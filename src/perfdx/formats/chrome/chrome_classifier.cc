#include "perfdx/formats/chrome/chrome_classifier.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <vector>

#include "perfdx/base/hash.h"
#include "perfdx/base/strings.h"

namespace perfdx::formats {
namespace {

using model::ArgKey;
using model::EventKind;
using model::FlowKind;
using model::TrackKind;

std::optional<int64_t> TrailingNumber(std::string_view s) {
  size_t end = s.size();
  size_t begin = end;
  while (begin > 0 && std::isdigit(static_cast<unsigned char>(s[begin - 1]))) --begin;
  if (begin == end || end - begin > 12) return std::nullopt;
  int64_t v = 0;
  for (size_t i = begin; i < end; ++i) v = v * 10 + (s[i] - '0');
  return v;
}

// Kineto categories of work that runs on a device.
bool IsDeviceCategory(std::string_view cat) {
  return EqualsNoCase(cat, "kernel") || EqualsNoCase(cat, "gpu_memcpy") ||
         EqualsNoCase(cat, "gpu_memset") || EqualsNoCase(cat, "memcpy") ||
         EqualsNoCase(cat, "memset") || EqualsNoCase(cat, "gpu_user_annotation") ||
         EqualsNoCase(cat, "cuda_sync") || EqualsNoCase(cat, "mtia_ccp_events");
}

bool IsCommunicationKernel(std::string_view name) {
  // NCCL and RCCL kernels: ncclKernel_*, ncclDevKernel_* (NCCL >= 2.19),
  // and the "nccl:" / "rccl" spellings some builds use.
  return name.starts_with("nccl") || name.starts_with("rccl") || Contains(name, "ncclKernel") ||
         Contains(name, "ncclDevKernel") || name.starts_with("hccl");
}

EventKind MemcpyKind(std::string_view name) {
  if (Contains(name, "HtoD")) return EventKind::kMemcpyH2D;
  if (Contains(name, "DtoH")) return EventKind::kMemcpyD2H;
  if (Contains(name, "DtoD")) return EventKind::kMemcpyD2D;
  if (Contains(name, "PtoP") || Contains(name, "Peer")) return EventKind::kMemcpyP2P;
  return EventKind::kMemcpyOther;
}

const char* const kAscendProcesses[] = {"Ascend Hardware",  "CANN",         "HCCL",
                                        "Overlap Analysis", "AI Core Freq", "NPU MEM",
                                        "Stars Soc Info"};

}  // namespace

std::optional<int64_t> ParseProfilerStep(std::string_view name) {
  if (!name.starts_with("ProfilerStep")) return std::nullopt;
  size_t i = 12;
  while (i < name.size() && name[i] == ' ') ++i;
  if (i >= name.size() || name[i] != '#') return std::nullopt;
  ++i;
  while (i < name.size() && name[i] == ' ') ++i;
  const size_t begin = i;
  int64_t v = 0;
  while (i < name.size() && std::isdigit(static_cast<unsigned char>(name[i])) && i - begin < 18) {
    v = v * 10 + (name[i] - '0');
    ++i;
  }
  if (i == begin || i != name.size()) return std::nullopt;
  return v;
}

bool IsDataLoaderName(std::string_view name) {
  return (name.starts_with("enumerate(DataLoader)#") && name.ends_with(".__next__")) ||
         name.starts_with("enumerate(DataPipe)#");
}

void ChromeClassifier::ClassifyTracks(
    std::vector<model::Track>& tracks, const model::StringPool& strings,
    const std::vector<std::vector<model::StringId>>& track_categories) {
  cached_kinds_.assign(kCachedKinds, CachedKind{});
  // Which producer wrote this?
  bool any_category = false;
  for (const auto& cats : track_categories) {
    for (model::StringId c : cats) {
      const std::string_view cat = strings.Get(c);
      any_category |= !cat.empty() && cat != model::kPerfdxAnnotationCategory;
    }
  }
  for (const model::Track& t : tracks) {
    const std::string_view process = strings.Get(t.process_name);
    for (const char* name : kAscendProcesses) {
      if (process == name) flavor_ = ChromeFlavor::kAscend;
    }
    if (flavor_ == ChromeFlavor::kUnknown && t.pid.is_text &&
        strings.Get(t.pid.text) == "CPU functions") {
      flavor_ = ChromeFlavor::kPytorchLegacy;
    }
  }
  if (flavor_ == ChromeFlavor::kUnknown) {
    flavor_ = (envelope_.has_schema_version || any_category) ? ChromeFlavor::kKineto
                                                             : ChromeFlavor::kPytorchLegacy;
  }

  for (size_t t = 0; t < tracks.size(); ++t) {
    model::Track& track = tracks[t];
    if (track.kind == TrackKind::kCounter || track.kind == TrackKind::kAsync) continue;
    const std::string_view process = strings.Get(track.process_name);
    const std::string_view thread = strings.Get(track.thread_name);
    track.kind = TrackKind::kHostThread;
    if (std::any_of(track_categories[t].begin(), track_categories[t].end(), [&](model::StringId c) {
          return strings.Get(c) == model::kPerfdxAnnotationCategory;
        })) {
      track.kind = TrackKind::kProfilerInternal;  // perfdx annotate's own tracks
      continue;
    }

    if (flavor_ == ChromeFlavor::kAscend) {
      if (process == "Ascend Hardware") {
        track.kind = TrackKind::kDeviceStream;
        if (!track.tid.is_text) track.stream_id = track.tid.number;
      } else if (process == "HCCL" || process == "Communication") {
        track.kind =
            (thread.starts_with("Plane") || (!Contains(thread, "Communication") && !thread.empty()))
                ? TrackKind::kCommTasks
                : TrackKind::kCommOps;
      } else if (process == "Overlap Analysis") {
        track.kind = TrackKind::kProfilerInternal;
      } else if (strings.Get(track.process_label) == "NPU" ||
                 strings.Get(track.process_label).starts_with("NPU ")) {
        track.kind = TrackKind::kProfilerInternal;  // counters written as slices, etc.
      }
      continue;
    }

    bool device = false;
    bool internal = false;
    for (model::StringId c : track_categories[t]) {
      const std::string_view cat = strings.Get(c);
      device |= IsDeviceCategory(cat);
      internal |= EqualsNoCase(cat, "Trace");
    }
    const std::string_view label = strings.Get(track.process_label);
    if (device) {
      track.kind = TrackKind::kDeviceStream;
      if (!track.pid.is_text) track.device_id = static_cast<int32_t>(track.pid.number);
      if (!track.tid.is_text) {
        track.stream_id = track.tid.number;
      } else if (auto n = TrailingNumber(strings.Get(track.tid.text))) {
        track.stream_id = *n;  // "stream 7"
      }
    } else if (internal || (track.pid.is_text && (strings.Get(track.pid.text) == "Spans" ||
                                                  strings.Get(track.pid.text) == "Traces" ||
                                                  strings.Get(track.pid.text).empty()))) {
      // The profiler's own spans, and Kineto's "Record Window End" marker
      // (pid "", tid "").
      track.kind = TrackKind::kProfilerInternal;
    } else if (label.starts_with("GPU ")) {
      track.kind = TrackKind::kDeviceStream;
      track.device_id = static_cast<int32_t>(TrailingNumber(label).value_or(-1));
    }
  }
}

EventKind ChromeClassifier::ClassifyHostSlice(std::string_view name, std::string_view cat,
                                              std::optional<int64_t>* step_id) const {
  if (auto step = ParseProfilerStep(name)) {
    *step_id = step;
    return EventKind::kStepMarker;
  }
  if (IsDataLoaderName(name)) return EventKind::kDataLoading;
  if (cat.empty()) {
    // Legacy profiler: no categories at all; operators have namespaces.
    if (Contains(name, "::")) return EventKind::kFrameworkOp;
    return EventKind::kUserAnnotation;
  }
  if (EqualsNoCase(cat, "cpu_op") || EqualsNoCase(cat, "operator")) return EventKind::kFrameworkOp;
  if (EqualsNoCase(cat, "user_annotation")) return EventKind::kUserAnnotation;
  if (EqualsNoCase(cat, "python_function") || EqualsNoCase(cat, "python"))
    return EventKind::kPythonFunction;
  if (EqualsNoCase(cat, "cuda_runtime") || EqualsNoCase(cat, "runtime") ||
      EqualsNoCase(cat, "cuda_driver") || cat.ends_with("_runtime") || cat.ends_with("_driver") ||
      cat == "enqueue" || cat == "dequeue") {
    return EventKind::kRuntimeCall;
  }
  return EventKind::kOther;
}

EventKind ChromeClassifier::ClassifyAscendDeviceTask(const model::Trace& partial,
                                                     model::SliceId i) const {
  const std::string_view name = partial.slice_name(i);
  const auto task_type = partial.ArgString(i, ArgKey::kTaskType).value_or("");
  if (task_type == "AI_CORE" || task_type == "AI_CPU" || task_type == "AI_VECTOR_CORE" ||
      task_type == "MIX_AIC" || task_type == "MIX_AIV" || task_type == "DSA_SQE" ||
      task_type == "Other" || task_type == "FFTS_PLUS") {
    return EventKind::kComputeKernel;
  }
  if (task_type == "SDMA") return EventKind::kCollectiveTask;  // HCCL's own transfers
  if (task_type == "SDMA_SQE" || task_type == "PCIE_DMA_SQE" || name == "MEMCPY_ASYNC") {
    return EventKind::kMemcpyOther;
  }
  if (task_type == "Notify Wait" || task_type == "EVENT_WAIT_SQE" || task_type == "Notify_Wait") {
    return EventKind::kDeviceSync;
  }
  if (name.starts_with("hcom_")) return EventKind::kCollective;
  return EventKind::kOther;  // Write Value, EVENT_RECORD, PLACE_HOLDER, ...
}

template <typename Classify>
EventKind ChromeClassifier::Cached(model::StringId name, model::StringId category, bool device,
                                   std::optional<int64_t>* step_id, Classify&& classify) {
  if (cached_kinds_.empty()) return classify(step_id);  // no ClassifyTracks yet
  const uint64_t key = uint64_t{name} << 32 | category;
  CachedKind& slot = cached_kinds_[HashMix(key ^ (device ? 1 : 0)) & (kCachedKinds - 1)];
  const uint8_t track = device ? CachedKind::kDevice : CachedKind::kHost;
  if (slot.key != key || slot.track != track) {
    slot.step_id.reset();
    slot.kind = classify(&slot.step_id);
    slot.key = key;
    slot.track = track;
  }
  *step_id = slot.step_id;
  return slot.kind;
}

EventKind ChromeClassifier::ClassifyDeviceSlice(std::string_view name, std::string_view cat) const {
  if (EqualsNoCase(cat, "kernel")) {
    return IsCommunicationKernel(name) ? EventKind::kCollective : EventKind::kComputeKernel;
  }
  if (EqualsNoCase(cat, "gpu_memcpy") || EqualsNoCase(cat, "memcpy")) return MemcpyKind(name);
  if (EqualsNoCase(cat, "gpu_memset") || EqualsNoCase(cat, "memset")) return EventKind::kMemset;
  if (EqualsNoCase(cat, "gpu_user_annotation")) return EventKind::kDeviceAnnotation;
  if (EqualsNoCase(cat, "cuda_sync")) return EventKind::kDeviceSync;
  if (EqualsNoCase(cat, "mtia_ccp_events")) return EventKind::kCollective;
  return EventKind::kOther;
}

EventKind ChromeClassifier::ClassifySlice(const model::Trace& partial, model::SliceId i,
                                          std::optional<int64_t>* step_id) {
  const model::Track& track = partial.tracks[partial.slices.track[i]];
  const model::StringId name_id = partial.slices.name[i];
  const model::StringId cat_id = partial.slices.category[i];
  // The strings are read only where a test needs them: most slices are
  // answered by the cache.
  auto name = [&] { return partial.str(name_id); };
  auto cat = [&] { return partial.str(cat_id); };
  switch (track.kind) {
    case TrackKind::kCounter:
    case TrackKind::kProfilerInternal:
      return EventKind::kOther;
    case TrackKind::kAsync:
      return EventKind::kUserAnnotation;
    case TrackKind::kCommOps:
      return EventKind::kCollective;
    case TrackKind::kCommTasks:
      return EventKind::kCollectiveTask;
    case TrackKind::kDeviceStream:
      if (flavor_ == ChromeFlavor::kAscend) return ClassifyAscendDeviceTask(partial, i);
      return Cached(name_id, cat_id, /*device=*/true, step_id,
                    [&](std::optional<int64_t>*) { return ClassifyDeviceSlice(name(), cat()); });
    case TrackKind::kHostThread:
      break;
  }
  if (flavor_ == ChromeFlavor::kAscend) {
    const std::string_view process = partial.str(track.process_name);
    if (process == "CANN") return EventKind::kRuntimeCall;  // AscendCL@, Node@, HCCL@ APIs
    if (cat() == "gc") return EventKind::kOther;
  }
  return Cached(name_id, cat_id, /*device=*/false, step_id, [&](std::optional<int64_t>* step) {
    return ClassifyHostSlice(name(), cat(), step);
  });
}

FlowKind ChromeClassifier::ClassifyFlow(std::string_view category, std::string_view name) {
  if (category == "ac2g" || category == "async_gpu" || category == "async_cpu_to_gpu" ||
      category == "HostToDevice" || (category == "async" && name == "launch")) {
    return FlowKind::kLaunch;
  }
  if (category == "async_npu") return FlowKind::kOpToDevice;
  if (category == "async_task_queue") return FlowKind::kTaskQueue;
  if (category == "fwdbwd") return FlowKind::kForwardBackward;
  return FlowKind::kOther;
}

void ChromeClassifier::DescribeRank(const model::Trace& trace, model::RankInfo* info) {
  switch (flavor_) {
    case ChromeFlavor::kAscend:
      info->source = model::SourceFormat::kAscendTraceView;
      break;
    case ChromeFlavor::kPytorchLegacy:
      info->source = model::SourceFormat::kPytorchLegacy;
      break;
    case ChromeFlavor::kKineto:
      info->source = model::SourceFormat::kKineto;
      break;
    case ChromeFlavor::kUnknown:
      info->source = model::SourceFormat::kChromeJson;
      break;
  }
  // The device that ran most device work names the rank's device: counted
  // by track, then summed by the tracks' devices.
  std::vector<uint64_t> work_by_track(trace.tracks.size(), 0);
  bool any_device_work = false;
  bool hip = false;
  bool cuda_runtime = false;
  // A runtime call's name is tested once, not once per call.
  std::vector<bool> name_tested(trace.strings.size(), false);
  for (model::SliceId i = 0; i < trace.slices.size(); ++i) {
    const model::EventKind kind = trace.slices.kind[i];
    if (model::IsDeviceWork(kind)) {
      any_device_work = true;
      ++work_by_track[trace.slices.track[i]];
    } else if (kind == EventKind::kRuntimeCall && !name_tested[trace.slices.name[i]]) {
      name_tested[trace.slices.name[i]] = true;
      // The API's own namespace: cuda* (runtime), cu* (driver), hip*.
      const std::string_view name = trace.slice_name(i);
      if (name.starts_with("hip")) {
        hip = true;
      } else if (name.starts_with("cuda") || name.starts_with("cu")) {
        cuda_runtime = true;
      }
    }
  }
  std::map<int32_t, uint64_t> work_by_device;
  for (size_t t = 0; t < trace.tracks.size(); ++t) {
    if (work_by_track[t] > 0) work_by_device[trace.tracks[t].device_id] += work_by_track[t];
  }
  if (flavor_ == ChromeFlavor::kAscend) {
    info->device_type = model::DeviceType::kNpu;
    if (info->device_name.empty()) info->device_name = "Ascend NPU";
    if (info->distributed_backend.empty()) info->distributed_backend = "hccl";
    return;
  }
  // Without device work in the trace, what else it holds decides: GPU
  // runtime calls (the host launched device work whose records are missing),
  // or, in a truncated trace, the GPUs its deviceProperties list (with a
  // compute capability, as CUDA and HIP report them): Kineto writes every
  // host event before the device activities, so a cut loses the device work
  // first (a trace cut at half keeps only host operators). A complete trace
  // with GPUs listed but no device work is a CPU run on a GPU machine.
  const bool truncated = trace.load_stats.Get(model::LoadStat::kTruncated) > 0;
  const bool listed_gpu = truncated && std::any_of(info->devices.begin(), info->devices.end(),
                                                   [](const model::DeviceProperties& p) {
                                                     return p.compute_major >= 0;
                                                   });
  if (!any_device_work && !hip && !cuda_runtime && !listed_gpu) {
    info->device_type = model::DeviceType::kCpu;
    if (info->device_name.empty()) info->device_name = "CPU";
    return;
  }
  int32_t device = -1;
  uint64_t best = 0;
  for (const auto& [id, count] : work_by_device) {
    if (count > best) device = id, best = count;
  }
  for (const model::DeviceProperties& p : info->devices) {
    if (p.id == device || (device < 0 && info->device_name.empty())) info->device_name = p.name;
  }
  const bool amd = Contains(info->device_name, "AMD") || Contains(info->device_name, "Instinct");
  info->device_type = (hip || amd) ? model::DeviceType::kRocm : model::DeviceType::kCuda;
  if (info->device_name.empty()) info->device_name = hip || amd ? "AMD GPU" : "NVIDIA GPU";
}

}  // namespace perfdx::formats
