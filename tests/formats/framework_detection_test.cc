// Framework, platform and features read from what a trace holds
// (formats/framework_detection.cc), on traces written by hand.
#include "perfdx/formats/framework_detection.h"

#include <string>

#include <gtest/gtest.h>

#include "test_support.h"

namespace perfdx::formats {
namespace {

using model::Framework;
using model::Platform;

// A Kineto trace: one operator, its runtime call (category `runtime_cat`,
// name `runtime`) and one kernel named `kernel`, plus `extra` events.
std::string Kineto(const std::string& runtime_cat, const std::string& runtime,
                   const std::string& kernel, const std::string& extra = "") {
  return R"({"schemaVersion": 1, "traceEvents": [
    {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 0, "dur": 10},
    {"ph": "X", "cat": ")" +
         runtime_cat + R"(", "name": ")" + runtime +
         R"(", "pid": 1, "tid": 1, "ts": 1, "dur": 2, "args": {"correlation": 5}},
    {"ph": "X", "cat": "kernel", "name": ")" +
         kernel +
         R"(", "pid": 0, "tid": 7, "ts": 4, "dur": 5, "args": {"device": 0, "stream": 7, "correlation": 5}})" +
         extra + "]}";
}

model::FrameworkInfo Detect(const std::string& json) {
  auto trace = testing::ImportString(json);
  EXPECT_TRUE(trace.ok()) << trace.status().message();
  return trace.ok() ? trace->info.runtime : model::FrameworkInfo{};
}

TEST(FrameworkDetection, CudaKinetoIsPytorchOnCuda) {
  const auto r = Detect(Kineto("cuda_runtime", "cudaLaunchKernel", "volta_sgemm_128x64_nn"));
  EXPECT_EQ(r.framework, Framework::kPytorch);
  EXPECT_EQ(r.platform, Platform::kCuda);
  EXPECT_FALSE(r.features.compiled);
  EXPECT_FALSE(r.features.cuda_graphs);
  EXPECT_FALSE(r.features.triton);
}

TEST(FrameworkDetection, HipRuntimeIsRocm) {
  EXPECT_EQ(Detect(Kineto("cuda_runtime", "hipLaunchKernel", "Cijk_Alik_Bljk_SB")).platform,
            Platform::kRocm);
}

// Other accelerators are named as what they are, never as CUDA.
TEST(FrameworkDetection, XpuAndMtiaRuntimesAreNotCuda) {
  auto xpu = testing::ImportString(Kineto("xpu_runtime", "urEnqueueKernelLaunch", "gemm_kernel"));
  ASSERT_TRUE(xpu.ok()) << xpu.status().message();
  EXPECT_NE(xpu->info.device_type, model::DeviceType::kCuda);
  EXPECT_EQ(xpu->info.device_name.find("NVIDIA"), std::string::npos) << xpu->info.device_name;
  EXPECT_EQ(Detect(Kineto("xpu_runtime", "urEnqueueKernelLaunch", "gemm_kernel")).platform,
            Platform::kXpu);
  EXPECT_EQ(Detect(Kineto("mtia_runtime", "mtiaLaunchKernel", "gemm_kernel")).platform,
            Platform::kMtia);
  EXPECT_EQ(Detect(Kineto("privateuse1_runtime", "launch", "gemm_kernel")).platform,
            Platform::kOther);
}

TEST(FrameworkDetection, CpuOnlyKinetoIsPytorchOnCpu) {
  const auto r = Detect(R"({"schemaVersion": 1, "traceEvents": [
    {"ph": "X", "cat": "cpu_op", "name": "aten::addmm", "pid": 1, "tid": 1, "ts": 0, "dur": 10}]})");
  EXPECT_EQ(r.framework, Framework::kPytorch);
  EXPECT_EQ(r.platform, Platform::kCpu);
}

TEST(FrameworkDetection, InductorKernelsMeanCompiledAndTriton) {
  const auto r = Detect(Kineto("cuda_driver", "cuLaunchKernel", "triton_poi_fused_add_cos_sin_0"));
  EXPECT_TRUE(r.features.compiled);
  EXPECT_TRUE(r.features.triton);
}

// A hand-written Triton kernel is Triton but not torch.compile.
TEST(FrameworkDetection, PlainTritonKernelIsNotCompiled) {
  const auto r = Detect(Kineto("cuda_driver", "cuLaunchKernel", "triton_matmul_kernel"));
  EXPECT_TRUE(r.features.triton);
  EXPECT_FALSE(r.features.compiled);
}

TEST(FrameworkDetection, CompiledRegionAnnotation) {
  const auto r =
      Detect(Kineto("cuda_runtime", "cudaLaunchKernel", "sm90_xmma_gemm",
                    R"(, {"ph": "X", "cat": "cpu_op", "name": "Torch-Compiled Region: 0/0",
                                     "pid": 1, "tid": 1, "ts": 0, "dur": 20})"));
  EXPECT_TRUE(r.features.compiled);
}

TEST(FrameworkDetection, GraphLaunchMeansCudaGraphs) {
  EXPECT_TRUE(
      Detect(Kineto("cuda_runtime", "cudaGraphLaunch", "sm80_xmma_gemm")).features.cuda_graphs);
}

TEST(FrameworkDetection, DdpAndFsdpFromTheirAnnotations) {
  const auto ddp = Detect(
      Kineto("cuda_runtime", "cudaLaunchKernel", "k",
             R"(, {"ph": "X", "cat": "user_annotation", "name": "DistributedDataParallel.forward",
                                       "pid": 1, "tid": 1, "ts": 0, "dur": 20})"));
  EXPECT_TRUE(ddp.features.ddp);
  EXPECT_FALSE(ddp.features.fsdp);
  const auto fsdp = Detect(
      Kineto("cuda_runtime", "cudaLaunchKernel", "k",
             R"(, {"ph": "X", "cat": "user_annotation", "name": "FullyShardedDataParallel.forward",
                                        "pid": 1, "tid": 1, "ts": 0, "dur": 20})"));
  EXPECT_TRUE(fsdp.features.fsdp);
  EXPECT_FALSE(fsdp.features.ddp);
}

// A name is tested for what each kind of slice can say (the tests are kept
// by name and kind), whichever kind it is seen as first: a name used both
// by a kernel and by a host annotation says what each says.
TEST(FrameworkDetection, ANameIsReadForEveryKindOfSliceItNames) {
  const auto r = Detect(
      Kineto("cuda_runtime", "cudaLaunchKernel", "DistributedDataParallel.forward",
             R"(, {"ph": "X", "cat": "user_annotation", "name": "DistributedDataParallel.forward",
                                     "pid": 1, "tid": 1, "ts": 0, "dur": 20})"));
  EXPECT_TRUE(r.features.ddp);
  // And the other way: a kernel name first seen on the host.
  const auto t =
      Detect(Kineto("cuda_driver", "cuLaunchKernel", "triton_poi_fused_add_0",
                    R"(, {"ph": "X", "cat": "user_annotation", "name": "triton_poi_fused_add_0",
                                     "pid": 1, "tid": 1, "ts": 0, "dur": 20})"));
  EXPECT_TRUE(t.features.triton);
  EXPECT_TRUE(t.features.compiled);
}

// Kineto's first category names (PyTorch before 1.13) bound the release;
// "Kernel", whose case went back and forth, does not.
TEST(FrameworkDetection, KinetosFirstCategoryNamesMeanPytorchBefore113) {
  const std::string op_first = R"({"traceEvents": [
    {"ph": "X", "cat": "Operator", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 0, "dur": 10},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 1,
     "dur": 2, "args": {"correlation": 5}}]})";
  EXPECT_TRUE(Detect(op_first).features.pytorch_before_1_13);
  EXPECT_TRUE(Detect(Kineto("Runtime", "cudaLaunchKernel", "volta_sgemm_128x64_nn"))
                  .features.pytorch_before_1_13);
  EXPECT_FALSE(Detect(Kineto("cuda_runtime", "cudaLaunchKernel", "volta_sgemm_128x64_nn"))
                   .features.pytorch_before_1_13);
  const std::string kernel_capitalised = R"({"traceEvents": [
    {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 0, "dur": 10},
    {"ph": "X", "cat": "Kernel", "name": "volta_sgemm_128x64_nn", "pid": 0, "tid": 7, "ts": 4,
     "dur": 5, "args": {"device": 0, "stream": 7}}]})";
  EXPECT_FALSE(Detect(kernel_capitalised).features.pytorch_before_1_13);
}

// The shared traces: the TensorBoard plugin's ResNet-50 samples (June 2021)
// write "Operator" and "Runtime"; HTA's 2.x traces "cpu_op", "cuda_runtime".
TEST(FrameworkDetection, TheReleaseBoundOnTheSharedTraces) {
  PERFDX_REQUIRE_SHARED();
  const auto released_before = [](const std::string& relative) {
    auto loaded = LoadTraces({testing::SharedPath(relative)}, LoadOptions{});
    EXPECT_TRUE(loaded.ok()) << relative;
    if (!loaded.ok() || loaded->traces.size() != 1u) return false;
    return loaded->traces[0].info.runtime.features.pytorch_before_1_13;
  };
  EXPECT_TRUE(released_before(
      "traces/kineto/tbp/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz"));
  EXPECT_FALSE(released_before("traces/kineto/hta/trace_diff/control/control.json.gz"));
  EXPECT_FALSE(
      released_before("traces/kineto/hta/amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz"));
}

// A Chrome trace that names no framework stays unknown: no fixes are guessed.
TEST(FrameworkDetection, PlainChromeTraceIsUnknown) {
  const auto r = Detect(R"({"traceEvents": [
    {"ph": "X", "name": "work", "pid": 1, "tid": 1, "ts": 0, "dur": 10}]})");
  EXPECT_EQ(r.framework, Framework::kUnknown);
}

TEST(FrameworkDetection, NamesRoundTrip) {
  for (Framework f :
       {Framework::kUnknown, Framework::kPytorch, Framework::kTorchNpu, Framework::kMindSpore}) {
    EXPECT_EQ(model::ParseFramework(model::FrameworkName(f)), f);
  }
  for (Platform p : {Platform::kUnknown, Platform::kCpu, Platform::kCuda, Platform::kRocm,
                     Platform::kAscend, Platform::kXpu, Platform::kMtia, Platform::kOther}) {
    EXPECT_EQ(model::ParsePlatform(model::PlatformName(p)), p);
  }
  EXPECT_FALSE(model::ParseFramework("tensorflow"));
}

// --framework replaces what was detected, for every rank of the load.
TEST(FrameworkDetection, OverrideFromLoadOptions) {
  testing::TempDir dir;
  const std::string path =
      dir.Write("rank0.json", Kineto("cuda_runtime", "cudaLaunchKernel", "volta_sgemm_128x64_nn"));
  LoadOptions options;
  options.framework = Framework::kTorchNpu;
  auto loaded = LoadTraces({path}, options);
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  ASSERT_EQ(loaded->traces.size(), 1u);
  EXPECT_EQ(loaded->traces[0].info.runtime.framework, Framework::kTorchNpu);
  EXPECT_EQ(loaded->traces[0].info.runtime.detected_from, "--framework");
}

}  // namespace
}  // namespace perfdx::formats
