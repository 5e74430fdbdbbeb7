#include "perfdx/advisor/fix_targets.h"

#include <algorithm>

namespace perfdx::advisor {

std::vector<FixTarget> TargetsFor(const model::FrameworkInfo& runtime) {
  using model::Framework;
  using model::Platform;
  switch (runtime.framework) {
    case Framework::kTorchNpu: return {FixTarget::kTorchNpu};
    case Framework::kMindSpore: return {FixTarget::kMindSpore};
    case Framework::kPytorch:
      switch (runtime.platform) {
        case Platform::kCuda: return {FixTarget::kPytorch, FixTarget::kPytorchCuda};
        case Platform::kRocm: return {FixTarget::kPytorch, FixTarget::kPytorchRocm};
        case Platform::kCpu: return {FixTarget::kPytorch, FixTarget::kPytorchCpu};
        // XPU, MTIA and other accelerators: only the platform-neutral fixes.
        default: return {FixTarget::kPytorch};
      }
    case Framework::kUnknown:
      if (runtime.platform == Platform::kAscend) return {FixTarget::kTorchNpu, FixTarget::kMindSpore};
      return {};
  }
  return {};
}

void KeepFixesFor(const std::vector<FixTarget>& targets, Finding* finding) {
  std::erase_if(finding->recommendations, [&](const Recommendation& r) {
    return std::find(targets.begin(), targets.end(), r.framework) == targets.end();
  });
}

}  // namespace perfdx::advisor
