#include "perfdx/analysis/runtime_calls.h"

#include <array>
#include <utility>

namespace perfdx::analysis {
namespace {

using enum RuntimeCallClass;

// The names as the PyTorch profiler (CUPTI, roctracer) writes them.
constexpr std::array<std::pair<std::string_view, RuntimeCallClass>, 52> kCalls = {{
    {"cudaLaunchKernel", kLaunch},
    {"cudaLaunchKernelExC", kLaunch},
    {"cudaLaunchCooperativeKernel", kLaunch},
    {"cuLaunchKernel", kLaunch},
    {"cuLaunchKernelEx", kLaunch},
    {"hipLaunchKernel", kLaunch},
    {"hipExtLaunchKernel", kLaunch},
    {"hipExtModuleLaunchKernel", kLaunch},
    {"hipModuleLaunchKernel", kLaunch},
    {"cudaMalloc", kMemory},
    {"cudaFree", kMemory},
    {"cudaMallocAsync", kMemory},
    {"cudaFreeAsync", kMemory},
    {"cudaMallocHost", kMemory},
    {"cudaFreeHost", kMemory},
    {"cudaHostAlloc", kMemory},
    {"cudaHostRegister", kMemory},
    {"cudaHostUnregister", kMemory},
    {"hipMalloc", kMemory},
    {"hipFree", kMemory},
    {"hipMallocAsync", kMemory},
    {"hipFreeAsync", kMemory},
    {"hipHostMalloc", kMemory},
    {"hipHostFree", kMemory},
    {"cudaGetDeviceCount", kSetup},
    {"cudaGetDeviceProperties", kSetup},
    {"cudaDeviceGetAttribute", kSetup},
    {"cudaDeviceGetStreamPriorityRange", kSetup},
    {"cudaDriverGetVersion", kSetup},
    {"cudaRuntimeGetVersion", kSetup},
    {"cudaStreamCreate", kSetup},
    {"cudaStreamCreateWithFlags", kSetup},
    {"cudaStreamCreateWithPriority", kSetup},
    {"cudaStreamGetPriority", kSetup},
    {"cudaStreamIsCapturing", kSetup},
    {"cudaStreamWaitEvent", kSetup},
    {"cudaEventCreate", kSetup},
    {"cudaEventCreateWithFlags", kSetup},
    {"cudaEventRecord", kSetup},
    {"cudaEventQuery", kSetup},
    {"cudaFuncSetAttribute", kSetup},
    {"cudaFuncGetAttributes", kSetup},
    {"cudaOccupancyMaxActiveBlocksPerMultiprocessor", kSetup},
    {"cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags", kSetup},
    {"cudaGetSymbolAddress", kSetup},
    {"cudaHostGetDevicePointer", kSetup},
    {"hipGetDeviceCount", kSetup},
    {"hipGetDeviceProperties", kSetup},
    {"hipDeviceGetAttribute", kSetup},
    {"hipStreamCreateWithFlags", kSetup},
    {"hipStreamWaitEvent", kSetup},
    {"hipEventRecord", kSetup},
}};

}  // namespace

std::string_view RuntimeCallClassName(RuntimeCallClass c) {
  switch (c) {
    case kOther:
      return "other";
    case kLaunch:
      return "launch";
    case kMemory:
      return "memory";
    case kSetup:
      return "setup";
  }
  return "other";
}

RuntimeCallClass ClassifyRuntimeCall(std::string_view name) {
  for (const auto& [call, c] : kCalls) {
    if (name == call) return c;
  }
  return kOther;
}

}  // namespace perfdx::analysis
