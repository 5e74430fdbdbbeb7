#include "perfdx/model/framework.h"

#include <array>
#include <utility>

namespace perfdx::model {
namespace {

constexpr std::array<std::pair<Framework, std::string_view>, 4> kFrameworkNames = {{
    {Framework::kUnknown, "unknown"},
    {Framework::kPytorch, "pytorch"},
    {Framework::kTorchNpu, "torch_npu"},
    {Framework::kMindSpore, "mindspore"},
}};

constexpr std::array<std::pair<Platform, std::string_view>, 8> kPlatformNames = {{
    {Platform::kUnknown, "unknown"},
    {Platform::kCpu, "cpu"},
    {Platform::kCuda, "cuda"},
    {Platform::kRocm, "rocm"},
    {Platform::kAscend, "ascend"},
    {Platform::kXpu, "xpu"},
    {Platform::kMtia, "mtia"},
    {Platform::kOther, "other"},
}};

}  // namespace

std::string_view FrameworkName(Framework f) {
  for (const auto& [value, name] : kFrameworkNames) {
    if (value == f) return name;
  }
  return "unknown";
}

std::optional<Framework> ParseFramework(std::string_view s) {
  for (const auto& [value, name] : kFrameworkNames) {
    if (name == s) return value;
  }
  return std::nullopt;
}

std::vector<std::string_view> FeatureNames(const RuntimeFeatures& f) {
  std::vector<std::string_view> out;
  if (f.compiled) out.push_back("torch.compile");
  if (f.triton && !f.compiled) out.push_back("Triton kernels");
  if (f.cuda_graphs) out.push_back("CUDA graphs");
  if (f.ddp) out.push_back("DDP");
  if (f.fsdp) out.push_back("FSDP");
  if (f.pytorch_before_1_13) out.push_back("PyTorch before 1.13");
  return out;
}

std::string_view PlatformName(Platform p) {
  for (const auto& [value, name] : kPlatformNames) {
    if (value == p) return name;
  }
  return "unknown";
}

std::optional<Platform> ParsePlatform(std::string_view s) {
  for (const auto& [value, name] : kPlatformNames) {
    if (name == s) return value;
  }
  return std::nullopt;
}

}  // namespace perfdx::model
