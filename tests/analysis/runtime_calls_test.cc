#include "perfdx/analysis/runtime_calls.h"

#include <string_view>

#include <gtest/gtest.h>

namespace perfdx::analysis {
namespace {

using enum RuntimeCallClass;

struct Case {
  std::string_view name;
  RuntimeCallClass expected;
};

// Every name of the table, each with the class the CUDA or HIP runtime
// documents for it, and names that must stay out of it: calls that wait for
// the device or move bytes, and near-misses of the table's names.
TEST(RuntimeCallsTest, EachRealNameHasItsClass) {
  const Case cases[] = {
      // Queue one kernel (seen: cudaLaunchKernel in every CUDA trace of
      // ../shared, hipLaunchKernel in the ROCm one).
      {"cudaLaunchKernel", kLaunch},
      {"cudaLaunchKernelExC", kLaunch},
      {"cudaLaunchCooperativeKernel", kLaunch},
      {"cuLaunchKernel", kLaunch},
      {"cuLaunchKernelEx", kLaunch},
      {"hipLaunchKernel", kLaunch},
      {"hipExtLaunchKernel", kLaunch},
      {"hipExtModuleLaunchKernel", kLaunch},
      {"hipModuleLaunchKernel", kLaunch},
      // Device and pinned host memory.
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
      // Setup and queries (all but the hip ones seen in HTA's simple_add
      // benchmark trace).
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
      // They wait for the device or move bytes: their length is not theirs.
      {"cudaStreamSynchronize", kOther},
      {"cudaDeviceSynchronize", kOther},
      {"cudaEventSynchronize", kOther},
      {"cudaMemcpy", kOther},
      {"cudaMemcpyAsync", kOther},
      {"cudaMemsetAsync", kOther},
      {"hipMemcpyAsync", kOther},
      {"hipStreamSynchronize", kOther},
      {"cudaGraphLaunch", kOther},
      // Exact names only: a prefix, a suffix or another letter case is not one.
      {"cudaLaunch", kOther},
      {"cudaMallocManagedX", kOther},
      {"cudamalloc", kOther},
      {"aten::cudaMalloc", kOther},
      {"", kOther},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(ClassifyRuntimeCall(c.name), c.expected) << c.name;
    EXPECT_EQ(IsKernelLaunchCall(c.name), c.expected == kLaunch) << c.name;
  }
}

TEST(RuntimeCallsTest, ClassNames) {
  EXPECT_EQ(RuntimeCallClassName(kOther), "other");
  EXPECT_EQ(RuntimeCallClassName(kLaunch), "launch");
  EXPECT_EQ(RuntimeCallClassName(kMemory), "memory");
  EXPECT_EQ(RuntimeCallClassName(kSetup), "setup");
}

}  // namespace
}  // namespace perfdx::analysis
