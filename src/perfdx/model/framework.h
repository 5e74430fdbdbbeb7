// Which framework and platform produced a rank's profile, and which of the
// framework's execution features the profile shows. Set once per rank by the
// importers (formats/framework_detection) from what the trace holds; the
// advisor keeps only the fixes for that framework and feature set.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace perfdx::model {

enum class Framework : uint8_t {
  kUnknown = 0,
  kPytorch,   // stock PyTorch (CUDA, ROCm, CPU, XPU, MTIA, ...)
  kTorchNpu,  // PyTorch with Ascend Extension for PyTorch
  kMindSpore,
};
std::string_view FrameworkName(Framework f);
std::optional<Framework> ParseFramework(std::string_view s);

// The device the framework ran its work on. Accelerators other than CUDA,
// ROCm and Ascend are named as what they are, never folded into CUDA.
enum class Platform : uint8_t {
  kUnknown = 0,
  kCpu,     // no device work: a CPU-only run
  kCuda,    // NVIDIA GPU
  kRocm,    // AMD GPU (HIP)
  kAscend,  // Huawei Ascend NPU
  kXpu,     // Intel GPU (XPU)
  kMtia,    // Meta MTIA
  kOther,   // another accelerator (PrivateUse1 backends, ...)
};
std::string_view PlatformName(Platform p);
std::optional<Platform> ParsePlatform(std::string_view s);

// Execution features seen in the trace, each from named events (see
// formats/framework_detection.cc for the event names).
struct RuntimeFeatures {
  bool compiled = false;     // torch.compile (Dynamo/Inductor) or MindSpore graph mode
  bool triton = false;       // Triton kernels
  bool cuda_graphs = false;  // graph launches (cudaGraphLaunch, hipGraphLaunch)
  bool ddp = false;          // DistributedDataParallel (its reducer or forward)
  bool fsdp = false;         // FullyShardedDataParallel
  // Kineto's first category names ("Operator", "Runtime"), which PyTorch
  // wrote before 1.13: no torch.compile, fused AdamW, torch.amp.GradScaler
  // ("cuda") or expandable segments (2.0-2.3), whatever else the trace says.
  bool pytorch_before_1_13 = false;
};

// Each feature by its key: in the analyze report's and the rank summary's
// "features" objects, and as the fix catalogue's tag (knobs.toml's `requires`
// and `excluded_by`). The one list of them.
struct RuntimeFeatureKey {
  const char* key;
  bool RuntimeFeatures::*member;
};
inline constexpr RuntimeFeatureKey kRuntimeFeatureKeys[] = {
    {"compiled", &RuntimeFeatures::compiled},
    {"triton", &RuntimeFeatures::triton},
    {"cuda_graphs", &RuntimeFeatures::cuda_graphs},
    {"ddp", &RuntimeFeatures::ddp},
    {"fsdp", &RuntimeFeatures::fsdp},
    {"pytorch_before_1_13", &RuntimeFeatures::pytorch_before_1_13},
};

// The features that are on, as a reader names them ("torch.compile", "Triton
// kernels" when not compiled, "CUDA graphs", "DDP", "FSDP", "PyTorch before
// 1.13"), for every report.
std::vector<std::string_view> FeatureNames(const RuntimeFeatures& f);

struct FrameworkInfo {
  Framework framework = Framework::kUnknown;
  Platform platform = Platform::kUnknown;
  RuntimeFeatures features;
  // What the framework and platform were read from, for the report
  // ("trace_view.json of a *_ascend_pt folder", "--framework", ...).
  std::string detected_from;
};

}  // namespace perfdx::model
