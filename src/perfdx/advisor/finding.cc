#include "perfdx/advisor/finding.h"

namespace perfdx::advisor {

std::string_view CategoryName(Category c) {
  switch (c) {
    case Category::kComputeUtilization:
      return "compute-utilization";
    case Category::kMemory:
      return "memory";
    case Category::kCommunication:
      return "communication";
    case Category::kOperator:
      return "operator";
    case Category::kScheduling:
      return "scheduling";
    case Category::kDataPipeline:
      return "data-pipeline";
    case Category::kSystem:
      return "system";
  }
  return "system";
}

std::string_view SeverityName(Severity s) {
  switch (s) {
    case Severity::kInfo:
      return "info";
    case Severity::kWarning:
      return "warning";
    case Severity::kCritical:
      return "critical";
  }
  return "info";
}

std::optional<Severity> ParseSeverity(std::string_view s) {
  if (s == "info") return Severity::kInfo;
  if (s == "warning") return Severity::kWarning;
  if (s == "critical") return Severity::kCritical;
  return std::nullopt;
}

namespace {
constexpr std::pair<FixTarget, std::string_view> kFixTargetNames[] = {
    {FixTarget::kMindSpore, "mindspore"},      {FixTarget::kTorchNpu, "torch_npu"},
    {FixTarget::kPytorchCuda, "pytorch_cuda"}, {FixTarget::kPytorchRocm, "pytorch_rocm"},
    {FixTarget::kPytorchCpu, "pytorch_cpu"},   {FixTarget::kPytorch, "pytorch"},
};
}  // namespace

std::string_view FixTargetName(FixTarget f) {
  for (const auto& [value, name] : kFixTargetNames) {
    if (value == f) return name;
  }
  return "pytorch";
}

std::optional<FixTarget> ParseFixTarget(std::string_view s) {
  for (const auto& [value, name] : kFixTargetNames) {
    if (name == s) return value;
  }
  return std::nullopt;
}

}  // namespace perfdx::advisor
