#include <gtest/gtest.h>

#include "perfdx/analysis/kernel_stats.h"
#include "perfdx/analysis/op_attribution.h"
#include "perfdx/analysis/op_stats.h"
#include "test_support.h"

namespace perfdx::analysis {
namespace {

using perfdx::testing::ImportString;

TEST(KernelNameTest, Classification) {
  // The taxonomy itself is tested in kernel_taxonomy_test.cc; these are the
  // names the kernel summary below relies on.
  const KernelClass sgemm = ClassifyKernel("volta_sgemm_128x64_nn");
  EXPECT_TRUE(sgemm.matrix());
  EXPECT_EQ(sgemm.precision, Precision::kFp32);
  EXPECT_EQ(sgemm.tensor_core, TensorCoreUse::kNo);
  EXPECT_TRUE(ClassifyKernel("volta_scudnn_128x64_relu_interior_nn_v1").matrix());
  EXPECT_EQ(ClassifyKernel("volta_h884gemm_64x128_ldg8_nn").tensor_core, TensorCoreUse::kYes);
  EXPECT_EQ(
      ClassifyKernel("void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_64x64_16x6_nn_align4>")
          .tensor_core,
      TensorCoreUse::kYes);
  EXPECT_EQ(
      ClassifyKernel("sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64").tensor_core,
      TensorCoreUse::kYes);
  EXPECT_EQ(ClassifyKernel("void cudnn::bn_fw_tr_1C11_kernel_NCHW<float, float, int, 512, true, 1>")
                .category,
            KernelCategory::kNormalization);
  EXPECT_EQ(ClassifyKernel("void at::native::vectorized_elementwise_kernel<4, ...>").category,
            KernelCategory::kElementwise);
  EXPECT_TRUE(ClassifyKernel("void nchwToNhwcKernel<float, float, float, false, true>")
                  .layout_conversion());
  EXPECT_TRUE(ClassifyKernel("aclnnMm_TransData_TransData").layout_conversion());
  EXPECT_TRUE(ClassifyKernel("at::native::transpose_kernel").layout_conversion());
  EXPECT_FALSE(ClassifyKernel("volta_sgemm_128x64_nn").layout_conversion());
}

// Two ops launch kernels: aten::linear > aten::addmm launches a sgemm (300 us,
// float inputs) and an unnamed-precision gemm (100 us); aten::relu launches an
// elementwise kernel (50 us) three times; a transpose kernel (50 us) has no
// launcher.
model::Trace OpsTrace() {
  auto t = ImportString(R"json({"schemaVersion": 1, "traceEvents": [
    {"ph": "X", "cat": "cpu_op", "name": "aten::linear", "pid": 1, "tid": 1, "ts": 0, "dur": 100},
    {"ph": "X", "cat": "cpu_op", "name": "aten::addmm", "pid": 1, "tid": 1, "ts": 10, "dur": 80, "args": {"Input type": ["float", "float", "float"]}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 20, "dur": 5, "args": {"correlation": 1}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 30, "dur": 5, "args": {"correlation": 2}},
    {"ph": "X", "cat": "cpu_op", "name": "aten::relu", "pid": 1, "tid": 1, "ts": 100, "dur": 30},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 110, "dur": 5, "args": {"correlation": 3}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 115, "dur": 5, "args": {"correlation": 4}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 120, "dur": 5, "args": {"correlation": 5}},
    {"ph": "X", "cat": "kernel", "name": "volta_sgemm_128x64_nn", "pid": 0, "tid": 7, "ts": 200, "dur": 300, "args": {"correlation": 1}},
    {"ph": "X", "cat": "kernel", "name": "gemm_kernel", "pid": 0, "tid": 7, "ts": 500, "dur": 100, "args": {"correlation": 2}},
    {"ph": "X", "cat": "kernel", "name": "elementwise_relu", "pid": 0, "tid": 7, "ts": 600, "dur": 10, "args": {"correlation": 3}},
    {"ph": "X", "cat": "kernel", "name": "elementwise_relu", "pid": 0, "tid": 7, "ts": 610, "dur": 20, "args": {"correlation": 4}},
    {"ph": "X", "cat": "kernel", "name": "elementwise_relu", "pid": 0, "tid": 7, "ts": 630, "dur": 20, "args": {"correlation": 5}},
    {"ph": "X", "cat": "kernel", "name": "transpose_kernel", "pid": 0, "tid": 7, "ts": 650, "dur": 50}
  ]})json");
  EXPECT_TRUE(t.ok()) << t.status().message();
  return std::move(*t);
}

TEST(KernelStatsTest, AggregatesAndFlags) {
  const model::Trace t = OpsTrace();
  const OpAttribution attribution = AttributeDeviceWork(t);
  const KernelSummary k = SummarizeKernels(t, attribution, IntervalSet::Single(0, 1'000'000));
  // Device work: 300 + 100 + 10 + 20 + 20 + 50 = 500 us.
  EXPECT_EQ(k.device_work_ns, 500'000);
  ASSERT_EQ(k.kernels.size(), 4u);
  EXPECT_EQ(k.kernels[0].name, "volta_sgemm_128x64_nn");
  EXPECT_DOUBLE_EQ(k.kernels[0].share, 0.6);
  EXPECT_TRUE(k.kernels[0].fp32_matrix);  // "sgemm"
  EXPECT_EQ(k.kernels[1].name, "gemm_kernel");
  EXPECT_TRUE(k.kernels[1].fp32_matrix);  // launched by an op with float inputs
  EXPECT_EQ(k.matrix_ns, 400'000);
  EXPECT_EQ(k.fp32_matrix_ns, 400'000);
  EXPECT_EQ(k.layout_conversion_ns, 50'000);
  EXPECT_DOUBLE_EQ(k.layout_conversion_share, 0.1);  // 50 of 500 us of device work
  const KernelStat& relu = k.kernels[2];
  EXPECT_EQ(relu.name, "elementwise_relu");
  EXPECT_EQ(relu.count, 3u);
  EXPECT_EQ(relu.mean_ns(), 16'666);
  EXPECT_EQ(relu.min_ns, 10'000);
  EXPECT_EQ(relu.max_ns, 20'000);
  // Short kernels in a row: gemm(100 us) is long; relu,relu,relu,transpose
  // give two 3-windows: (relu,relu,relu) and (relu,relu,transpose).
  ASSERT_EQ(k.repeated_sequences.size(), 0u) << "each window occurs once: not repeated";
}

TEST(OpStatsTest, DeviceTimeThroughFlowsAndTopShares) {
  const model::Trace t = OpsTrace();
  const OpAttribution attribution = AttributeDeviceWork(t);
  const OpSummary ops = SummarizeOps(t, attribution, IntervalSet::Single(0, 1'000'000));
  ASSERT_TRUE(ops.ranked_by_device);
  ASSERT_EQ(ops.ops.size(), 3u);
  // addmm launched 300 + 100 = 400 us; relu 50 us; linear launched nothing
  // itself but 400 us under it.
  EXPECT_EQ(ops.ops[0].name, "aten::addmm");
  EXPECT_EQ(ops.ops[0].device_self_ns, 400'000);
  EXPECT_EQ(ops.ops[0].host_self_ns, 70'000);  // 80 - two 5 us launches
  EXPECT_EQ(ops.ops[1].name, "aten::relu");
  EXPECT_EQ(ops.ops[1].device_self_ns, 50'000);
  EXPECT_EQ(ops.ops[2].name, "aten::linear");
  EXPECT_EQ(ops.ops[2].device_self_ns, 0);
  EXPECT_EQ(ops.ops[2].device_total_ns, 400'000);
  EXPECT_EQ(ops.ops[2].host_self_ns, 20'000);  // 100 - addmm's 80
  // Attributed device time 450 us (the transpose has no launcher).
  EXPECT_DOUBLE_EQ(ops.top1_share, 400.0 / 450.0);
  EXPECT_DOUBLE_EQ(ops.top3_share, 1.0);
}

}  // namespace
}  // namespace perfdx::analysis
