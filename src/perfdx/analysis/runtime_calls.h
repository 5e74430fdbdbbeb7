// What a CUDA or HIP runtime call is, from a table of real names (never a
// substring): the calls whose length does not depend on the device's work or
// on the bytes they move. Such a call returns once the driver has done its own
// part: a launch queues a kernel in microseconds, an allocation or a query
// takes what the driver takes. One that lasts far longer than its own median
// while the device idles is a stall (gaps.h): a one-time cost (the CUDA
// context created by the first call that needs it, a kernel's module loaded
// at its first launch, the caching allocator's first cudaMalloc) or the host
// thread held up. Synchronizations, copies and memsets are not in the table:
// they wait for the device or move bytes, so their length is not theirs.
#pragma once

#include <cstdint>
#include <string_view>

namespace perfdx::analysis {

enum class RuntimeCallClass : uint8_t {
  kOther,   // not in the table: synchronizations, copies, memsets, graphs, ...
  kLaunch,  // queues one kernel: cudaLaunchKernel, hipLaunchKernel, cuLaunchKernel, ...
  kMemory,  // device or pinned host memory: cudaMalloc, cudaFree, cudaHostAlloc, ...
  kSetup,   // device, stream, event and function setup and queries: cudaStreamCreate, ...
};

// "other", "launch", "memory", "setup".
std::string_view RuntimeCallClassName(RuntimeCallClass c);

RuntimeCallClass ClassifyRuntimeCall(std::string_view name);

// Is `name` a runtime call that only queues a kernel? Such a call takes
// microseconds; one that takes far longer while the device idles was not
// running on a CPU (the evidence of host contention).
inline bool IsKernelLaunchCall(std::string_view name) {
  return ClassifyRuntimeCall(name) == RuntimeCallClass::kLaunch;
}

}  // namespace perfdx::analysis
