#include "perfdx/formats/framework_detection.h"

#include <string_view>

namespace perfdx::formats {
namespace {

using model::EventKind;
using model::Framework;
using model::Platform;

// Inductor names the kernels it generates triton_{poi,red,per,tem}_fused_*
// (torch/_inductor/codegen); a trace holding them ran compiled code.
bool IsInductorKernelName(std::string_view name) {
  return name.starts_with("triton_poi_") || name.starts_with("triton_red_") ||
         name.starts_with("triton_per_") || name.starts_with("triton_tem_");
}

// Events torch.compile writes around compiled code: the Kineto annotation of
// a compiled frame, Dynamo's guard check, AOTAutograd's autograd function.
bool IsCompiledRegionName(std::string_view name) {
  return name.starts_with("Torch-Compiled Region") || name == "TorchDynamo Cache Lookup" ||
         name == "CompiledFunction" || name == "CompiledFunctionBackward";
}

bool IsGraphLaunchName(std::string_view name) {
  return name == "cudaGraphLaunch" || name == "cuGraphLaunch" || name == "hipGraphLaunch" ||
         name.starts_with("cudaGraphLaunch_v");
}

// DistributedDataParallel records "DistributedDataParallel.forward"; with
// stacks, its module appears as "nn.Module: DistributedDataParallel".
bool IsDdpName(std::string_view name) {
  return name == "DistributedDataParallel.forward" ||
         name.starts_with("nn.Module: DistributedDataParallel");
}

// FSDP's record_function ranges: "FullyShardedDataParallel.forward",
// "FullyShardedDataParallel._pre_forward", ... and FSDP2's "FSDP::...".
bool IsFsdpName(std::string_view name) {
  return name.starts_with("FullyShardedDataParallel.") || name.starts_with("FSDP::") ||
         name.starts_with("nn.Module: FullyShardedDataParallel");
}

// Categories only PyTorch's profilers write (Kineto, and its 2021 spellings).
bool IsPytorchCategory(std::string_view cat) {
  return cat == "cpu_op" || cat == "Operator" || cat == "cuda_runtime" || cat == "Runtime" ||
         cat == "python_function" || cat == "user_annotation" || cat == "gpu_user_annotation" ||
         cat == "cpu_instant_event";
}

// The runtime category of a Kineto runtime call names the backend:
// cuda_runtime / cuda_driver, xpu_runtime, mtia_runtime, privateuse1_runtime.
Platform PlatformOfRuntimeCategory(std::string_view cat) {
  if (cat.starts_with("xpu_")) return Platform::kXpu;
  if (cat.starts_with("mtia_")) return Platform::kMtia;
  if (cat.starts_with("privateuse1_")) return Platform::kOther;
  return Platform::kUnknown;
}

}  // namespace

model::RuntimeFeatures DetectFeatures(const model::Trace& trace) {
  model::RuntimeFeatures f;
  const model::SliceTable& s = trace.slices;
  for (model::SliceId i = 0; i < s.size(); ++i) {
    const std::string_view name = trace.slice_name(i);
    const EventKind kind = s.kind[i];
    if (model::IsDeviceWork(kind)) {
      if (name.starts_with("triton_") || name.starts_with("triton__")) f.triton = true;
      if (IsInductorKernelName(name)) f.compiled = true;
    } else if (kind == EventKind::kRuntimeCall) {
      if (IsGraphLaunchName(name)) f.cuda_graphs = true;
    } else {
      if (IsCompiledRegionName(name)) f.compiled = true;
      if (IsDdpName(name)) f.ddp = true;
      if (IsFsdpName(name)) f.fsdp = true;
    }
  }
  return f;
}

model::FrameworkInfo DetectFramework(const model::Trace& trace, const io::TraceInput& input) {
  model::FrameworkInfo out;
  out.features = DetectFeatures(trace);
  const model::RankInfo& info = trace.info;

  bool aten = false;
  bool pytorch_events = false;  // aten:: operators, ProfilerStep#N, Kineto categories
  Platform runtime_platform = Platform::kUnknown;
  const model::SliceTable& s = trace.slices;
  for (model::SliceId i = 0; i < s.size(); ++i) {
    const EventKind kind = s.kind[i];
    if (!pytorch_events &&
        (kind == EventKind::kStepMarker || IsPytorchCategory(trace.str(s.category[i])))) {
      pytorch_events = true;
    }
    if (kind == EventKind::kFrameworkOp && !aten && trace.slice_name(i).starts_with("aten::")) {
      aten = true;
    } else if (kind == EventKind::kRuntimeCall && runtime_platform == Platform::kUnknown) {
      runtime_platform = PlatformOfRuntimeCategory(trace.str(s.category[i]));
    }
  }

  switch (info.source) {
    case model::SourceFormat::kAscendTraceView:
    case model::SourceFormat::kAscendDb:
    case model::SourceFormat::kMsprofTimeline:
    case model::SourceFormat::kAscendKernelCsv: {
      out.platform = Platform::kAscend;
      // The profile folder (*_ascend_pt, *_ascend_ms) or DB file name says
      // which framework wrote it; msprof and a lone op_summary do not.
      const std::string_view path = input.trace_path;
      // A kernel table named on its own says which framework wrote it only
      // through the profile folder it sits in.
      const bool lone_table = info.source == model::SourceFormat::kAscendKernelCsv;
      if (lone_table) {
        if (path.find("_ascend_pt/") != std::string_view::npos) {
          out.framework = Framework::kTorchNpu;
        } else if (path.find("_ascend_ms/") != std::string_view::npos) {
          out.framework = Framework::kMindSpore;
        }
        out.detected_from =
            out.framework == Framework::kUnknown
                ? "a kernel table outside a profile folder, which does not name its framework"
                : "the profile folder the kernel table is in";
        return out;
      }
      const bool torch_npu_db = path.find("ascend_pytorch_profiler") != std::string_view::npos;
      const bool mindspore_db = path.find("ascend_mindspore_profiler") != std::string_view::npos;
      if (input.framework == "torch_npu" || (input.framework.empty() && torch_npu_db)) {
        out.framework = Framework::kTorchNpu;
        out.detected_from = "a torch_npu profile (*_ascend_pt, ascend_pytorch_profiler)";
      } else if (input.framework == "mindspore" || (input.framework.empty() && mindspore_db)) {
        out.framework = Framework::kMindSpore;
        out.detected_from = "a MindSpore profile (*_ascend_ms, ascend_mindspore_profiler)";
      } else if (aten) {
        out.framework = Framework::kTorchNpu;
        out.detected_from = "aten:: operators on an Ascend timeline";
      } else {
        out.detected_from = "an Ascend profile that does not name its framework";
      }
      return out;
    }
    case model::SourceFormat::kKineto:
    case model::SourceFormat::kPytorchLegacy:
    case model::SourceFormat::kChromeJson:
      break;
  }

  const bool pytorch = aten || pytorch_events;
  if (pytorch) out.framework = Framework::kPytorch;
  if (runtime_platform != Platform::kUnknown) {
    out.platform = runtime_platform;
  } else {
    switch (info.device_type) {
      case model::DeviceType::kCpu:
        out.platform = Platform::kCpu;
        break;
      case model::DeviceType::kCuda:
        out.platform = Platform::kCuda;
        break;
      case model::DeviceType::kRocm:
        out.platform = Platform::kRocm;
        break;
      case model::DeviceType::kNpu:
        out.platform = Platform::kAscend;
        break;
      case model::DeviceType::kUnknown:
        break;
    }
  }
  if (!pytorch) {
    out.detected_from = "a Chrome trace that names no framework";
  } else if (info.source == model::SourceFormat::kPytorchLegacy) {
    out.detected_from = "a torch.autograd.profiler export";
  } else {
    out.detected_from = "a PyTorch Kineto trace";
  }
  return out;
}

}  // namespace perfdx::formats
