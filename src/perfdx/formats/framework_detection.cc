#include "perfdx/formats/framework_detection.h"

#include <cstdint>
#include <string_view>
#include <vector>

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

// Kineto's first names for an operator and a runtime call; PyTorch 1.13 and
// later write "cpu_op" and "cuda_runtime" (pytorch/kineto#679). The kernel
// category went back and forth, so "Kernel" says nothing.
bool IsKinetoFirstCategory(std::string_view cat) {
  return cat == "Operator" || cat == "Runtime";
}

// The runtime category of a Kineto runtime call names the backend:
// cuda_runtime / cuda_driver, xpu_runtime, mtia_runtime, privateuse1_runtime.
Platform PlatformOfRuntimeCategory(std::string_view cat) {
  if (cat.starts_with("xpu_")) return Platform::kXpu;
  if (cat.starts_with("mtia_")) return Platform::kMtia;
  if (cat.starts_with("privateuse1_")) return Platform::kOther;
  return Platform::kUnknown;
}

// Which of the name tests below a slice's kind calls for: one bit each, so
// a name is tested once per kind of slice it names, not once per slice (a
// trace repeats a few hundred names over its 100 k slices).
enum NameClass : uint8_t {
  kDeviceName = 1,
  kRuntimeName = 2,
  kFrameworkOpName = 4,  // also a host name: the aten:: test
  kOtherHostName = 8,
};

NameClass ClassOf(EventKind kind) {
  if (model::IsDeviceWork(kind)) return kDeviceName;
  if (kind == EventKind::kRuntimeCall) return kRuntimeName;
  return kind == EventKind::kFrameworkOp ? kFrameworkOpName : kOtherHostName;
}

// What the slices' names and categories say: features, aten:: operators,
// PyTorch's own categories, the runtime's platform.
struct SliceEvidence {
  model::RuntimeFeatures features;
  bool aten = false;
  bool pytorch_events = false;  // ProfilerStep#N or a Kineto category
  bool kineto_first_categories = false;
  Platform runtime_platform = Platform::kUnknown;
};

void TestName(std::string_view name, NameClass cls, SliceEvidence* out) {
  model::RuntimeFeatures& f = out->features;
  if (cls == kDeviceName) {
    if (name.starts_with("triton_") || name.starts_with("triton__")) f.triton = true;
    if (IsInductorKernelName(name)) f.compiled = true;
  } else if (cls == kRuntimeName) {
    if (IsGraphLaunchName(name)) f.cuda_graphs = true;
  } else {
    if (IsCompiledRegionName(name)) f.compiled = true;
    if (IsDdpName(name)) f.ddp = true;
    if (IsFsdpName(name)) f.fsdp = true;
    if (cls == kFrameworkOpName && name.starts_with("aten::")) out->aten = true;
  }
}

// A category is tested once as a runtime call's (its platform) and once as
// any other slice's.
void TestCategory(std::string_view category, bool runtime_call, SliceEvidence* out) {
  if (IsPytorchCategory(category)) out->pytorch_events = true;
  if (IsKinetoFirstCategory(category)) out->kineto_first_categories = true;
  if (runtime_call && out->runtime_platform == Platform::kUnknown) {
    out->runtime_platform = PlatformOfRuntimeCategory(category);
  }
}

SliceEvidence ScanSlices(const model::Trace& trace) {
  SliceEvidence evidence;
  const model::SliceTable& s = trace.slices;
  // By string id: the NameClass bits a name was tested for, and bit 1 (any
  // slice) / bit 2 (a runtime call) for a category.
  std::vector<uint8_t> tested(trace.strings.size(), 0);
  std::vector<uint8_t> category_tested(trace.strings.size(), 0);
  for (model::SliceId i = 0; i < s.size(); ++i) {
    const EventKind kind = s.kind[i];
    if (kind == EventKind::kStepMarker) evidence.pytorch_events = true;
    const NameClass cls = ClassOf(kind);
    uint8_t& name_bits = tested[s.name[i]];
    if ((name_bits & cls) == 0) {
      name_bits |= cls;
      TestName(trace.str(s.name[i]), cls, &evidence);
    }
    const uint8_t category_bit = cls == kRuntimeName ? 2 : 1;
    uint8_t& category_bits = category_tested[s.category[i]];
    if ((category_bits & category_bit) == 0) {
      category_bits |= category_bit;
      TestCategory(trace.str(s.category[i]), cls == kRuntimeName, &evidence);
    }
  }
  return evidence;
}

}  // namespace

model::RuntimeFeatures DetectFeatures(const model::Trace& trace) {
  return ScanSlices(trace).features;
}

model::FrameworkInfo DetectFramework(const model::Trace& trace, const io::TraceInput& input) {
  model::FrameworkInfo out;
  const SliceEvidence evidence = ScanSlices(trace);
  out.features = evidence.features;
  const model::RankInfo& info = trace.info;
  const bool aten = evidence.aten;
  const bool pytorch_events = evidence.pytorch_events;  // or aten::, below
  const Platform runtime_platform = evidence.runtime_platform;

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
  out.features.pytorch_before_1_13 = pytorch && evidence.kineto_first_categories;
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
