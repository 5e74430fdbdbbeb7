// Which runtime calls are driver-level allocations (analysis/memory_stats.h):
// by exact name from a table, never by a substring of the name. Each real
// name below is written out from the API references (CUDA runtime and driver
// API, HIP, AscendCL), not from the table.
#include "perfdx/analysis/memory_stats.h"

#include <string_view>

#include <gtest/gtest.h>

namespace perfdx::analysis {
namespace {

TEST(DriverAllocCallsTest, EveryRealAllocationCallIsOne) {
  for (std::string_view name :
       {// CUDA runtime
        "cudaMalloc", "cudaFree", "cudaMallocHost", "cudaFreeHost", "cudaHostAlloc",
        "cudaMallocManaged", "cudaMallocPitch", "cudaMalloc3D", "cudaMallocArray",
        "cudaMalloc3DArray", "cudaFreeArray", "cudaMallocMipmappedArray", "cudaFreeMipmappedArray",
        "cudaMallocAsync", "cudaFreeAsync", "cudaMallocFromPoolAsync",
        // CUDA driver
        "cuMemAlloc", "cuMemAlloc_v2", "cuMemFree", "cuMemFree_v2", "cuMemAllocHost",
        "cuMemAllocHost_v2", "cuMemFreeHost", "cuMemHostAlloc", "cuMemAllocManaged",
        "cuMemAllocPitch", "cuMemAllocPitch_v2", "cuMemAllocAsync", "cuMemFreeAsync", "cuMemCreate",
        "cuMemRelease",
        // HIP
        "hipMalloc", "hipFree", "hipHostMalloc", "hipHostFree", "hipMallocManaged",
        "hipExtMallocWithFlags", "hipMallocPitch", "hipMalloc3D", "hipMallocArray", "hipFreeArray",
        "hipMallocAsync", "hipFreeAsync", "hipMallocFromPoolAsync",
        // AscendCL, bare and as CANN spans name them
        "aclrtMalloc", "aclrtFree", "aclrtMallocHost", "aclrtFreeHost", "aclrtMallocCached",
        "aclrtMallocAlign32", "aclrtMallocPhysical", "aclrtFreePhysical", "AscendCL@aclrtMalloc",
        "AscendCL@aclrtFree", "AscendCL@aclrtMallocHost", "AscendCL@aclrtFreeHost",
        "AscendCL@aclrtMallocCached", "AscendCL@aclrtMallocAlign32", "AscendCL@aclrtMallocPhysical",
        "AscendCL@aclrtFreePhysical", "AscendCL@aclMallocMemInner"}) {
    EXPECT_TRUE(IsDriverAllocCall(name)) << name;
  }
}

// Names the old substring test ("cuda"/"hip"/"aclrt"/"AscendCL@acl" and
// "Malloc" or "Free") took for allocations, and calls that only look alike.
TEST(DriverAllocCallsTest, NamesThatOnlyLookAlikeAreNot) {
  for (std::string_view name : {"cudaMemcpyAsync",
                                "cudaLaunchKernel",
                                "cudaStreamSynchronize",
                                "cudaMemsetAsync",
                                "cudaHostRegister",
                                "cudaMemPoolTrimTo",
                                "cudaDeviceGetDefaultMemPool",
                                "cudaGraphAddMemAllocNode",
                                "cudaMallocTotallyMadeUp",
                                "cudaFreeX",
                                "hipFreeSomething",
                                "aclrtMemcpy",
                                "aclrtSynchronizeStream",
                                "AscendCL@aclrtMemcpyAsync",
                                "AscendCL@aclopCompileAndExecute",
                                "AscendCL@aclMallocMemInnerX",
                                "aten::empty",
                                "aten::resize_",
                                "[memory]",
                                "Malloc",
                                "cudafree",
                                "",
                                "cudaMalloc "}) {
    EXPECT_FALSE(IsDriverAllocCall(name)) << name;
  }
}

}  // namespace
}  // namespace perfdx::analysis
