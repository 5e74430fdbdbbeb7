#include "perfdx/advisor/finding.h"

namespace perfdx::advisor {

std::string_view CategoryName(Category c) {
  switch (c) {
    case Category::kComputeUtilization: return "compute-utilization";
    case Category::kMemory: return "memory";
    case Category::kCommunication: return "communication";
    case Category::kOperator: return "operator";
    case Category::kScheduling: return "scheduling";
    case Category::kDataPipeline: return "data-pipeline";
    case Category::kSystem: return "system";
  }
  return "system";
}

std::string_view SeverityName(Severity s) {
  switch (s) {
    case Severity::kInfo: return "info";
    case Severity::kWarning: return "warning";
    case Severity::kCritical: return "critical";
  }
  return "info";
}

std::optional<Severity> ParseSeverity(std::string_view s) {
  if (s == "info") return Severity::kInfo;
  if (s == "warning") return Severity::kWarning;
  if (s == "critical") return Severity::kCritical;
  return std::nullopt;
}

std::string_view FrameworkName(Framework f) {
  switch (f) {
    case Framework::kMindSpore: return "mindspore";
    case Framework::kTorchNpu: return "torch_npu";
    case Framework::kPytorchCuda: return "pytorch_cuda";
  }
  return "pytorch_cuda";
}

}  // namespace perfdx::advisor
