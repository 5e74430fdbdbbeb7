// The kernel taxonomy against every distinct device-kernel name in the
// shared and example traces. The expected class of each name family was
// written by hand, from the name (tests/analysis/list_kernel_names.py lists
// the names, stdlib only), not from the classifier's output.
#include "perfdx/analysis/kernel_taxonomy.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <simdjson.h>

#include "perfdx/analysis/kernel_stats.h"
#include "perfdx/analysis/rank_analysis.h"
#include "perfdx/analysis/slice_sets.h"
#include "perfdx/formats/trace_loader.h"
#include "test_support.h"

namespace perfdx::analysis {
namespace {

using perfdx::testing::HaveShared;
using perfdx::testing::SharedPath;

constexpr KernelCategory M = KernelCategory::kMatrix;
constexpr KernelCategory L = KernelCategory::kLayoutConversion;
constexpr KernelCategory C = KernelCategory::kCommunication;
constexpr KernelCategory E = KernelCategory::kElementwise;
constexpr KernelCategory R = KernelCategory::kReduction;
constexpr KernelCategory N = KernelCategory::kNormalization;
constexpr KernelCategory S = KernelCategory::kSoftmax;
constexpr KernelCategory B = KernelCategory::kEmbedding;
constexpr KernelCategory CP = KernelCategory::kMemcpy;
constexpr KernelCategory MS = KernelCategory::kMemset;
constexpr KernelCategory SY = KernelCategory::kSync;
constexpr KernelCategory O = KernelCategory::kOther;

constexpr Precision U = Precision::kUnknown;
constexpr Precision F32 = Precision::kFp32;
constexpr Precision TF32 = Precision::kTf32;
constexpr Precision BF16 = Precision::kBf16;

constexpr TensorCoreUse Q = TensorCoreUse::kUnknown;
constexpr TensorCoreUse Y = TensorCoreUse::kYes;
constexpr TensorCoreUse NO = TensorCoreUse::kNo;

// One family of names: a glob ('*' any text, '#' a run of digits, possibly
// empty) and what every name it matches is. First matching row wins.
struct Expect {
  const char* glob;
  KernelCategory category;
  Precision precision = U;
  TensorCoreUse tensor_core = Q;
};

// clang-format off
const Expect kHandTable[] = {
    // ---- Ascend op types (kernel_details.csv Type, DB opType, trace_view names).
    {"AdaptiveAvgPool3d", R}, {"AdaptiveAvgPool3dGrad", R},
    {"Add#", E}, {"ApplyAdamW#", E}, {"ArgMaxWithValue#", R}, {"AsStrided#", L},
    {"BatchMatMul#", M}, {"BroadcastTo#", E}, {"Cast#", E},
    {"Conv2D#", M}, {"Conv2DBackpropFilter#_MemSet", MS}, {"Conv2DBackpropFilter#", M},
    {"Conv2DBackpropInput#", M},
    {"DSAGenBitMask", O}, {"DSAStatelessGenBitMask", O}, {"DropOutDoMask#", E},
    {"EVENT_RECORD", SY}, {"EVENT_WAIT", SY},
    {"Equal", E}, {"Exp#", E}, {"FastGelu#", E}, {"Fill#", E},
    {"FlashAttentionScore", M}, {"FlashAttentionScoreGrad", M},
    {"ForeachAddList", E}, {"ForeachMulScalar", E}, {"GatherV2#", E},
    {"Greater#", E}, {"GreaterEqual#", E}, {"Index#", E},
    {"LayerNorm#", N}, {"LayerNormV3", N},
    {"Less#", E}, {"Log#", E}, {"LogSoftmaxGrad", S}, {"LogSoftmaxV2", S},
    {"LogicalNot#", E}, {"LogicalOr#", E},
    {"LpNormReduceV2#", R}, {"LpNormUpdateV2#", E},
    {"MEMCPY_ASYNC", CP},
    {"MatMul#", M}, {"MatMulV2", M}, {"MatMulV3", M},
    {"MaxPoolGradWithArgmaxV1#", R}, {"MaxPoolWithArgmaxV1#", R},
    {"MemSet", MS}, {"Mul#", E},
    {"NLLLoss", R}, {"NLLLossGrad", E},
    {"NonZero#_MemSet", MS}, {"NonZero#", O},
    {"Notify Wait", SY}, {"OnesLike#", E},
    {"PROFILING_DISABLE", SY}, {"PROFILING_ENABLE", SY},
    {"RealDiv#", E}, {"Reciprocal#", E},
    {"ReduceSum#_MemSet", MS}, {"ReduceSum#", R}, {"ReduceSumD", R},
    {"Relu", E}, {"ReluGrad", E}, {"SDMA", C},
    {"ScaledMaskedSoftmax#", S}, {"Slice#", E}, {"Square#", E},
    {"StatelessDropOutGenMask#/DSASTATELESSGENBITMASK", O},
    {"StridedSlice#", E}, {"StridedSliceD", E}, {"Sub#", E}, {"TensorMove", E}, {"TopKV2", O},
    {"TransData", L}, {"Transpose#", L}, {"Tril#", E}, {"Write Value", SY}, {"ZerosLike#", E},
    {"trans_Cast_#", E}, {"trans_TransData_#_MemSet", MS}, {"trans_TransData_#", L},
    {"atomic_memset-*", MS},
    {"hcom_*", C},
    // aclnn<Api>_<Kernel>_<OpType> task names.
    {"aclnnAdaptiveAvgPool2dBackward_AdaptiveAvgPool3dGradAiCore_AdaptiveAvgPool3dGrad", R},
    {"aclnnAdaptiveAvgPool2d_AdaptiveAvgPool3dAiCore_AdaptiveAvgPool3d", R},
    {"aclnnAdaptiveAvgPool2d*_TransposeAiCore_Transpose", L},
    {"aclnnAdd_AddAiCore_Add", E}, {"aclnnAdd_AxpyAiCore_Axpy", E},
    {"aclnnAddcdiv_AddcdivAiCore_Addcdiv", E}, {"aclnnAddcmul_AddcmulAiCore_Addcmul", E},
    {"aclnnAddmm_AddAiCore_Add", E}, {"aclnnAddmm_CastAiCore_Cast", E},
    {"aclnnAddmm_MatMulCommon_MatMulV2", M}, {"aclnnAddmm_MatMulCommon_MemSet", MS},
    {"aclnnAddmm_Muls_Muls", E}, {"aclnnAddmm_TransData_TransData", L},
    {"aclnnAdds_AddAiCore_Add", E},
    {"aclnnArgMax_ArgMaxV2AiCore_ArgMaxV2", R}, {"aclnnArgMax_CastAiCore_Cast", E},
    {"aclnnCast_CastAiCore_Cast", E}, {"aclnnCast_CastAiCpu_Cast", E},
    {"aclnnDivs_RealDivAiCore_RealDiv", E},
    {"aclnnDropoutDoMask_DropoutDoMaskAiCore_DropOutDoMask", E},
    {"aclnnDropoutGenMaskV2_DSAGenBitMask_DSAGenBitMask", O},
    {"aclnnEqTensor_BroadcastToAiCore_BroadcastTo", E}, {"aclnnEqTensor_EqualAiCore_Equal", E},
    {"aclnnEqTensor_TransposeAiCore_Transpose", L},
    {"aclnnFlashAttentionScore*", M},
    {"aclnnForeach*", E},
    {"aclnnInplaceCopy_TensorMoveAiCore_TensorMove", E}, {"aclnnInplaceFillScalar_FillAiCore_Fill", E},
    {"aclnnInplaceMuls_MulAiCore_Mul", E}, {"aclnnInplaceOne_OnesLikeAiCore_OnesLike", E},
    {"aclnnInplaceRelu_Relu_Relu", E}, {"aclnnInplaceZero_ZerosLikeAiCore_ZerosLike", E},
    {"aclnnLogSoftmax*", S},
    {"aclnnMatmul_*", M},
    {"aclnnMaxPool2dWithMask*_TransDataSpecial_TransData", L},
    {"aclnnMaxPool2dWithMaskBackward_MaxPoolGradWithArgmaxV1AiCore_MaxPoolGradWithArgmaxV1", R},
    {"aclnnMaxPool2dWithMask_MaxPoolWithArgmaxV1AiCore_MaxPoolWithArgmaxV1", R},
    {"aclnnMm_CastAiCore_Cast", E}, {"aclnnMm_MatMulCommon_MatMulV2", M}, {"aclnnMm_MatMulCommon_MemSet", MS},
    {"aclnnMm_MatMulV3Common_MatMulV3", M}, {"aclnnMm_TransData_TransData", L},
    {"aclnnMuls_MulAiCore_Mul", E},
    {"aclnnNLLLossBackward_CastAiCore_Cast", E}, {"aclnnNLLLossBackward_NLLLossGradAiCore_NLLLossGrad", E},
    {"aclnnNLLLoss_CastAiCore_Cast", E}, {"aclnnNLLLoss_DivAiCore_Div", E},
    {"aclnnNLLLoss_NLLLossAiCore_MemSet", MS}, {"aclnnNLLLoss_NLLLossAiCore_NLLLoss", R},
    {"aclnnReduceSum_CastAiC*_Cast", E}, {"aclnnReduceSum_ReduceSumOpAiCore_MemSet", MS},
    {"aclnnReduceSum_ReduceSumOpAiCore_ReduceSum", R},
    {"aclnnRelu_Relu_Relu", E}, {"aclnnSqrt_SqrtAiCore_Sqrt", E},
    {"aclnnThresholdBackward_ReluGrad_ReluGrad", E},
    {"aclnnTopk_CastAiCore_Cast", E}, {"aclnnTopk_TopkV2_TopKV2", O},

    // ---- Kineto copies and fills; NCCL.
    {"Memcpy *", CP}, {"Memset (Device)", MS},
    {"Context Sync", SY}, {"Stream Sync", SY}, {"Stream Wait Event", SY},
    {"ncclKernel_*", C},

    // ---- Matrix work: cuBLAS / cuBLASLt.
    {"ampere_gcgemm_64x64_nt", M, F32, NO},   // complex SGEMM (FFT convolution), CUDA cores
    {"ampere_sgemm_*", M, F32, NO},
    {"volta_sgemm_*", M, F32, NO},
    {"sm80_xmma_gemm_f32f32_f32f32_f32_*_ffma_*", M, F32, NO},  // the FP32 FFMA xmma GEMMs (issue 10)
    {"sm90_xmma_gemm_f32f32_tf32f32_f32_*", M, TF32, Y},
    {"nvjet_sm90_tss_*", M, BF16, Y},  // resnet50 bf16: t = bf16 operands
    {"nvjet_sm90_tst_*", M, BF16, Y},
    {"void cutlass::Kernel#<cutlass_80_simt_sgemm_*", M, F32, NO},
    {"void cutlass::Kernel#<cutlass_80_tensorop_bf16_s16816gemm_bf16_*", M, BF16, Y},
    {"void cutlass::Kernel#<cutlass_80_tensorop_s1688gemm_*", M, TF32, Y},
    {"void gemmk1_kernel<float, *", M, F32, NO},
    {"void gemv2N_kernel<int, int, float, *", M, F32, NO},
    {"void gemv2T_kernel_val<int, int, float, *", M, F32, NO},
    {"void gemvNSP_kernel<float, *", M, F32, NO},
    {"std::enable_if<!(false), void>::type internal::gemvx::kernel<int, int, float, *", M, F32, NO},
    {"void magma_sgemmEx_kernel<float, *", M, F32, NO},
    {"void sgemm_largek_lds64<*", M, F32, NO},
    {"void cublasLt::splitKreduce_kernel<*", R}, {"void splitKreduce_kernel<*", R},
    {"void cublasLt::epilogue::impl::globalKernel<*", E}, {"void epilogue::impl::globalKernel<*", E},
    {"void scal_kernel<*", E},
    // ROCm Tensile: SB = single precision, MI16x16x1 = an MFMA (matrix-core) instruction.
    {"Cijk_A*_B*_SB_*_MI16x16x1_*", M, F32, Y},

    // ---- Matrix work: cuDNN convolutions.
    {"sm80_xmma_*_implicit_gemm_*tf32f32_tf32f32_f32_*", M, TF32, Y},
    {"sm90_xmma_*_bf16bf16_bf16f32_f32_*", M, BF16, Y},
    {"sm90_xmma_*_f32f32_tf32f32_f32_*", M, TF32, Y},
    {"cudnn_*scudnn_*", M, F32, NO}, {"volta_scudnn_*", M, F32, NO},
    {"void implicit_convolve_sgemm<*", M, F32, NO}, {"void explicit_convolve_sgemm<*", M, F32, NO},
    {"void wgrad_alg0_engine<float, *", M, F32, NO}, {"void cudnn::cnn::wgrad_alg0_engine<float, *", M, F32, NO},
    {"void cudnn::detail::dgrad_engine<float, *", M, F32, NO},
    {"void cutlass__5x_cudnn::Kernel<cutlass_tensorop_bf16_s16816fprop_optimized_bf16_*", M, BF16, Y},
    {"void cutlass_cudnn_infer::Kernel<cutlass_tensorop_s1688*_optimized_tf32_*", M, TF32, Y},
    {"void cutlass_cudnn_train::Kernel<cutlass_tensorop_s1688wgrad_optimized_tf32_*", M, TF32, Y},
    {"_ZN17cutlass__5x_cudnn6KernelINS_4conv6kernel23ImplicitGemmConvolution*10tfloat32_t*", M, TF32, Y},
    {"_ZN17cutlass__5x_cudnn6KernelINS_4conv6kernel23ImplicitGemmConvolution*10bfloat16_t*", M, BF16, Y},
    {"_ZN19cutlass_cudnn_train6KernelINS_4conv6kernel23ImplicitGemmConvolution*10tfloat32_t*", M, TF32, Y},
    {"void cutlass__5x_cudnn::Kernel<cutlass__5x_cudnn::reduction::kernel::ReduceSplitK<*", R},
    {"void cutlass_cudnn_train::Kernel<cutlass_cudnn_train::reduction::kernel::ReduceSplitK<*", R},
    {"void cudnn::cnn::reduce_wgrad_nchw_helper<*", R},
    // cuDNN pieces that are not the GEMM: index precompute, workspace init,
    // Winograd / FFT transforms, im2col.
    {"cask_cudnn*", O}, {"void cask_*", O},
    {"void cudnn::winograd*", O}, {"void fft2d_*", O}, {"void cudnn::cnn::im2col4d_kernel<*", O},
    {"void cudnn::ops::scalePackedTensor_kernel<*", E},

    // ---- Attention: PyTorch memory-efficient attention, FP32 on sm80 Tensor Cores (3xTF32).
    {"fmha_cutlass*_f32_aligned_64x64_*_sm80(*", M, F32, Y},

    // ---- Layout conversions.
    {"void cudnn::*::nchwToNhwcKernel<*", L}, {"void cudnn::*::nhwcToNchwKernel<*", L},
    {"void nchwToNhwcKernel<*", L}, {"void nhwcToNchwKernel<*", L},

    // ---- Embeddings (FBGEMM / TorchRec).
    {"void fbgemm_gpu::(anonymous namespace)::_*FP8*", E},  // FP8 row-wise (de)quantisation
    {"void fbgemm_gpu::_offsets_range_cuda_kernel<*", B},
    {"void fbgemm_gpu::permute_*", B},
    {"void permute_pooled_embs_kernel<*", B}, {"void recat_copy_async_kernel<*", B},
    {"void split_embedding_*", B}, {"split_embedding_backward_codegen_*_find_long_segments(*", B},
    {"void bounds_check_indices_kernel<*", B}, {"void linearize_index_kernel<*", B},

    // ---- Triton (Inductor): the kind prefix, not the fused op words.
    {"triton_poi_fused_*", E}, {"triton_red_fused_*", R}, {"triton_per_fused_*", R},

    // ---- ATen.
    {"void at::native::vectorized_elementwise_kernel<*", E},
    {"void at::native::unrolled_elementwise_kernel<*", E},
    {"void at::native::elementwise_kernel<*", E},
    {"void at::native::index_elementwise_kernel<*", E},
    {"void at::native::_scatter_gather_elementwise_kernel<*", E},
    {"void at::native::indexFuncLargeIndex<*", E},
    {"void at::native::(anonymous namespace)::indexSelectLargeIndex<*", E},
    {"void at::native::(anonymous namespace)::CatArrayBatchedCopy*", E},
    {"void at::native::(anonymous namespace)::distribution_elementwise_grid_stride_kernel<*", E},
    {"void at::native::(anonymous namespace)::fused_dropout_kernel_vec<*", E},
    {"void at::native::(anonymous namespace)::multi_tensor_apply_kernel<*", E},
    {"void multi_tensor_apply_kernel<TensorListMetadata<4>, AdamFunctor<float>*", E},
    {"void at::native::(anonymous namespace)::unrolled_elementwise_kernel_for_multi_outputs<*", E},
    {"void (anonymous namespace)::elementwise_kernel_with_index<*", E},
    {"void at::native::reduce_kernel<*", R},
    {"void at::native::(anonymous namespace)::max_pool_*", R},
    {"void at::native::(anonymous namespace)::adaptive_average_pool<*", R},
    {"void at::native::(anonymous namespace)::nll_loss_forward_reduce_cuda_kernel_2d<*", R},
    {"void at::native::(anonymous namespace)::nll_loss_backward_reduce_cuda_kernel_2d<*", E},
    {"void cunn_ClassNLLCriterion_updateOutput_kernel<*", R},
    {"void cunn_ClassNLLCriterion_updateGradInput_kernel<*", E},
    {"void at::native::batch_norm_*", N}, {"void cudnn::bn_*", N},
    {"void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<*", N},
    {"void at::native::(anonymous namespace)::layer_norm_grad_input_kernel*", N},
    {"void at::native::(anonymous namespace)::LayerNormForwardCUDAKernel<*", N},
    {"void at::native::(anonymous namespace)::GammaBetaBackwardCUDAKernel*", N},
    {"void at::native::(anonymous namespace)::RowwiseMomentsCUDAKernel<*", N},
    {"void (anonymous namespace)::softmax_warp_*", S},
    // Sorting, scans, compaction, searchsorted, repeat_interleave: other compute.
    {"void cub::DeviceReduceByKeyKernel<*", R},
    {"void cub::DeviceRadixSort*", O}, {"void cub::DeviceScan*", O}, {"void cub::DeviceCompactInitKernel<*", O},
    {"void at_cuda_detail::cub::DeviceScan*", O},
    {"void at::native::(anonymous namespace)::searchsorted_cuda_kernel<*", O},
    {"void compute_cuda_kernel<*", O}, {"void at::to_dense_representation_kernel<*", O},
};
// clang-format on

// '*' = any text, '#' = a run of digits (possibly empty).
bool GlobMatch(std::string_view glob, std::string_view s) {
  if (glob.empty()) return s.empty();
  if (glob.front() == '*') {
    for (size_t i = 0; i <= s.size(); ++i) {
      if (GlobMatch(glob.substr(1), s.substr(i))) return true;
    }
    return false;
  }
  if (glob.front() == '#') {
    size_t i = 0;
    while (true) {
      if (GlobMatch(glob.substr(1), s.substr(i))) return true;
      if (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
        ++i;
      } else {
        return false;
      }
    }
  }
  return !s.empty() && s.front() == glob.front() && GlobMatch(glob.substr(1), s.substr(1));
}

std::string Describe(const KernelClass& k) {
  return std::string(KernelCategoryName(k.category)) + "/" +
         std::string(PrecisionName(k.precision)) + "/" +
         (k.tensor_core == TensorCoreUse::kYes  ? "tc"
          : k.tensor_core == TensorCoreUse::kNo ? "no-tc"
                                                : "tc?");
}

// Every trace under ../shared/traces and examples/, as perfdx loads them.
std::vector<std::string> TraceInputs() {
  namespace fs = std::filesystem;
  std::vector<std::string> inputs;
  for (const std::string& root : {SharedPath("traces/kineto"), std::string("examples")}) {
    for (const auto& e : fs::recursive_directory_iterator(root)) {
      const std::string p = e.path().string();
      if (e.is_regular_file() && p.size() > 8 && p.substr(p.size() - 8) == ".json.gz")
        inputs.push_back(p);
    }
  }
  for (const char* ascend :
       {"torch_npu_2rank_text_level0", "torch_npu_2rank_text_level1", "torch_npu_2rank_db_level0",
        "torch_npu_2rank_db_level1", "mstt_samples/single_step_trace_view.json",
        "mstt_samples/kernel_details_arith_util.csv",
        "mstt_samples/kernel_details_pipe_util.csv"}) {
    inputs.push_back(SharedPath(std::string("traces/ascend/") + ascend));
  }
  std::sort(inputs.begin(), inputs.end());
  return inputs;
}

// The distinct names of device work (streams and collective ops, not the
// HCCL plane sub-tasks or annotations projected onto the device) and of the
// Ascend kernel tables' Name / Type columns.
std::set<std::string> DeviceKernelNames() {
  std::set<std::string> names;
  for (const std::string& path : TraceInputs()) {
    auto loaded = formats::LoadTraces({path}, {});
    EXPECT_TRUE(loaded.ok()) << path << ": " << loaded.status().message();
    if (!loaded.ok()) continue;
    for (const model::Trace& t : loaded->traces) {
      for (model::SliceId i = 0; i < t.slices.size(); ++i) {
        const model::TrackKind track = t.tracks[t.slices.track[i]].kind;
        if (track != model::TrackKind::kDeviceStream && track != model::TrackKind::kCommOps)
          continue;
        if (t.slices.kind[i] == model::EventKind::kDeviceAnnotation) continue;
        names.emplace(t.slice_name(i));
      }
      if (!t.ascend) continue;
      for (const model::AscendKernel& k : t.ascend->kernels.rows) {
        for (model::StringId id : {k.name, k.op_type}) {
          const std::string_view v = t.str(id);
          if (!v.empty() && v != "N/A") names.emplace(v);
        }
      }
    }
  }
  return names;
}

TEST(KernelTaxonomyTraceTest, EveryKernelNameInTheTracesHasItsHandWrittenClass) {
  ASSERT_TRUE(HaveShared())
      << "../shared is part of every checkout; the names come from its traces";
  const std::set<std::string> names = DeviceKernelNames();
  // tests/analysis/list_kernel_names.py lists 1077 distinct names from the
  // same files; perfdx loses none of them.
  EXPECT_GE(names.size(), 1077u);
  std::vector<size_t> used(std::size(kHandTable), 0);
  size_t checked = 0;
  for (const std::string& name : names) {
    const Expect* want = nullptr;
    for (size_t r = 0; r < std::size(kHandTable); ++r) {
      if (GlobMatch(kHandTable[r].glob, name)) {
        want = &kHandTable[r];
        ++used[r];
        break;
      }
    }
    if (want == nullptr) {
      ADD_FAILURE()
          << "a kernel name with no row in the hand table (add one, decided from the name): "
          << name;
      continue;
    }
    const KernelClass got = ClassifyKernel(name);
    const KernelClass expected{want->category, want->precision, want->tensor_core};
    EXPECT_EQ(Describe(got), Describe(expected)) << name << "\n  (hand row " << want->glob << ")";
    ++checked;
  }
  EXPECT_EQ(checked, names.size());
  for (size_t r = 0; r < std::size(kHandTable); ++r) {
    EXPECT_GT(used[r], 0u) << "hand row matches no name in the traces: " << kHandTable[r].glob;
  }
}

// The TensorBoard plugin's own "Tensor Cores Used" column for its top
// kernels of the two ResNet-50 V100 traces (golden/tbp): perfdx agrees on
// each (all FP32 there: none on Tensor Cores).
TEST(KernelTaxonomyTraceTest, TensorCoreUseAgreesWithThePluginsKernelTable) {
  ASSERT_TRUE(HaveShared());
  for (const char* file : {"resnet50_num_workers_0.json", "resnet50_num_workers_4.json"}) {
    SCOPED_TRACE(file);
    simdjson::dom::parser parser;
    simdjson::dom::element doc;
    ASSERT_EQ(parser.load(SharedPath(std::string("golden/tbp/") + file)).get(doc),
              simdjson::SUCCESS);
    size_t n = 0;
    for (simdjson::dom::element row : doc["kernel_table"]["top15"].get_array()) {
      const std::string name(row["Name"].get_string().value());
      const std::string used(row["Tensor Cores Used"].get_string().value());
      const KernelClass k = ClassifyKernel(name);
      EXPECT_EQ(k.tensor_core == TensorCoreUse::kYes, used == "Yes") << name;
      ++n;
    }
    EXPECT_EQ(n, 15u);
  }
}

// ---- Regressions: issue 10's three misclassifications.

TEST(KernelTaxonomyTest, XmmaFfmaGemmIsFp32OnCudaCores) {
  // The old allow-list counted every "xmma" as Tensor Core work.
  const KernelClass k = ClassifyKernel(
      "sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize128x128x8_stage3_warpsize2x2x1_ffma_aligna4_"
      "alignc4_execute_"
      "kernel__5x_cublas");
  EXPECT_EQ(k.category, KernelCategory::kMatrix);
  EXPECT_EQ(k.precision, Precision::kFp32);
  EXPECT_EQ(k.tensor_core, TensorCoreUse::kNo);
  // Its TF32 sibling is Tensor Core work.
  const KernelClass tf32 = ClassifyKernel(
      "sm90_xmma_gemm_f32f32_tf32f32_f32_nn_n_tilesize128x128x32_warpgroupsize1x1x1_execute_"
      "segment_k_off_kernel__"
      "5x_cublas");
  EXPECT_EQ(tf32.precision, Precision::kTf32);
  EXPECT_EQ(tf32.tensor_core, TensorCoreUse::kYes);
}

TEST(KernelTaxonomyTest, FbgemmIsNotMatrixWork) {
  // "gemm" inside "fbgemm" matched the old substring list.
  for (const char* name :
       {"void fbgemm_gpu::permute_2D_lengths_kernel<int>(int, int, int const*, int const*, int*)",
        "void fbgemm_gpu::_offsets_range_cuda_kernel<long>(long, long, long const*, long*)",
        "void split_embedding_codegen_forward_unweighted_kernel<float, float, float, long, "
        "2ul>(at::"
        "GenericPackedTensorAccessor<float, 1ul, at::RestrictPtrTraits, long>)"}) {
    const KernelClass k = ClassifyKernel(name);
    EXPECT_FALSE(k.matrix()) << name;
    EXPECT_EQ(k.category, KernelCategory::kEmbedding) << name;
  }
}

TEST(KernelTaxonomyTest, PermuteOrTransposeInsideAnotherNameIsNotALayoutConversion) {
  EXPECT_EQ(
      ClassifyKernel(
          "void permute_pooled_embs_kernel<float>(float const*, long const*, long const*, long "
          "const*, float*, long, long, long)")
          .category,
      KernelCategory::kEmbedding);
  EXPECT_EQ(ClassifyKernel("triton_poi_fused_transpose_add_0").category,
            KernelCategory::kElementwise);
  EXPECT_EQ(ClassifyKernel("triton_poi_fused_clone_transpose_0").category,
            KernelCategory::kElementwise);
  EXPECT_EQ(
      ClassifyKernel("triton_red_fused_add_native_layer_norm_backward_transpose_view_14").category,
      KernelCategory::kReduction);
  // A transpose in a template argument is not the kernel: cuBLAS scal_kernel
  // takes cublasTransposeParams.
  EXPECT_EQ(ClassifyKernel(
                "void scal_kernel<float, float, 1, true, 6, 5, 5, 3>(cublasTransposeParams<float>, "
                "float const*, float*, float const*)")
                .category,
            KernelCategory::kElementwise);
  // What is a layout conversion stays one.
  EXPECT_TRUE(
      ClassifyKernel(
          "void nchwToNhwcKernel<float, float, float, true, false, (cudnnKernelDataType_t)0>(int, "
          "int, int, int, float const*, float*, float, float)")
          .layout_conversion());
  EXPECT_TRUE(ClassifyKernel("trans_TransData_12").layout_conversion());
  EXPECT_TRUE(ClassifyKernel("at::native::transpose_kernel").layout_conversion());
}

TEST(KernelTaxonomyTest, NameGrammar) {
  // Turing/Volta mma shapes: h = FP16 operands.
  const KernelClass h884 = ClassifyKernel("volta_h884gemm_64x128_ldg8_nn");
  EXPECT_EQ(h884.precision, Precision::kFp16);
  EXPECT_EQ(h884.tensor_core, TensorCoreUse::kYes);
  const KernelClass amp = ClassifyKernel("ampere_fp16_s16816gemm_fp16_128x128_ldg8_f2f_nn");
  EXPECT_EQ(amp.precision, Precision::kFp16);
  EXPECT_EQ(amp.tensor_core, TensorCoreUse::kYes);
  // Triton templates: matrix only when the template is a matrix product.
  EXPECT_TRUE(ClassifyKernel("triton_tem_fused_addmm_relu_0").matrix());
  EXPECT_TRUE(ClassifyKernel("triton_tem_fused_mm_3").matrix());
  EXPECT_EQ(ClassifyKernel("triton_tem_fused_flex_attention_backward_2").category,
            KernelCategory::kOther);
  // Hopper wgmma CUTLASS kernels.
  const KernelClass wgmma = ClassifyKernel(
      "void "
      "cutlass::device_kernel<cutlass3x_sm90_tensorop_s64x128x16gemm_bf16_bf16_f32_bf16_bf16_"
      "128x128x64_1x1x1_0_"
      "tnn_align8_warpspecialized_cooperative_epi_tma>(cutlass3x_sm90_tensorop_s64x128x16gemm_bf16:"
      ":Params)");
  EXPECT_EQ(wgmma.category, KernelCategory::kMatrix);
  EXPECT_EQ(wgmma.precision, Precision::kBf16);
  EXPECT_EQ(wgmma.tensor_core, TensorCoreUse::kYes);
  // An unknown name is other compute, not a guess.
  EXPECT_EQ(ClassifyKernel("my_custom_kernel_v2").category, KernelCategory::kOther);
  EXPECT_EQ(ClassifyKernel("").category, KernelCategory::kOther);
  EXPECT_EQ(KernelCategoryName(KernelCategory::kLayoutConversion), "layout_conversion");
  EXPECT_EQ(PrecisionName(Precision::kBf16), "bf16");
}

TEST(KernelTaxonomyTest, AscendPrecisionFromInputDtypes) {
  EXPECT_EQ(PrecisionFromAscendDtypes("FLOAT;FLOAT"), Precision::kFp32);
  EXPECT_EQ(PrecisionFromAscendDtypes("DT_BF16;DT_BF16;BOOL;FLOAT;INT64"), Precision::kBf16);
  EXPECT_EQ(PrecisionFromAscendDtypes("FLOAT16;FLOAT16"), Precision::kFp16);
  EXPECT_EQ(PrecisionFromAscendDtypes("INT32;FLOAT;FLOAT"), Precision::kFp32);
  EXPECT_EQ(PrecisionFromAscendDtypes("INT64;BOOL"), Precision::kUnknown);
  EXPECT_EQ(PrecisionFromAscendDtypes(""), Precision::kUnknown);
}

// The Ascend cube ops' precision comes from the task's input dtypes (the
// names carry none). From the CSVs, read by hand: every MatMul / BatchMatMul
// / FlashAttentionScore row of kernel_details_pipe_util.csv has DT_BF16
// inputs, kernel_details_arith_util.csv's MatMul / BatchMatMul FLOAT16, the
// ResNet-like text profile's Conv2D* / MatMulV* FLOAT (and INT32 shapes).
TEST(KernelTaxonomyTraceTest, AscendMatrixPrecisionFromTheKernelTable) {
  ASSERT_TRUE(HaveShared());
  struct Case {
    const char* path;
    Precision precision;
    bool tensor_core;
  };
  for (const Case& c :
       {Case{"traces/ascend/mstt_samples/kernel_details_pipe_util.csv", Precision::kBf16, true},
        Case{"traces/ascend/mstt_samples/kernel_details_arith_util.csv", Precision::kFp16, true},
        Case{"traces/ascend/torch_npu_2rank_text_level1", Precision::kFp32, false}}) {
    SCOPED_TRACE(c.path);
    auto loaded = formats::LoadTraces({SharedPath(c.path)}, {});
    ASSERT_TRUE(loaded.ok()) << loaded.status().message();
    ASSERT_FALSE(loaded->traces.empty());
    const RankAnalysis a = AnalyzeRank(loaded->traces[0], {});
    size_t matrix = 0;
    for (const KernelStat& k : a.kernels.kernels) {
      if (!k.matrix) continue;
      ++matrix;
      EXPECT_EQ(k.precision, c.precision) << k.name;
      EXPECT_EQ(k.tensor_core, c.tensor_core) << k.name;
      EXPECT_EQ(k.fp32_matrix, !c.tensor_core) << k.name;
    }
    EXPECT_GT(matrix, 0u);
  }
}

// ---- transformer_eager's FP32-on-CUDA-cores share, against the count
// examples/gpu_training/fp32_share.py made from the trace's kernel names and
// durations (recorded in traces/fp32_share.json).
TEST(KernelTaxonomyTraceTest, TransformerEagerFp32ShareMatchesPythonCount) {
  const std::string dir = "examples/gpu_training/traces/";
  std::ifstream in(dir + "fp32_share.json");
  ASSERT_TRUE(in) << "run from the repository root";
  std::stringstream text;
  text << in.rdbuf();
  simdjson::dom::parser parser;
  simdjson::dom::element golden;
  ASSERT_EQ(parser.parse(text.str()).get(golden), simdjson::SUCCESS);
  const double want_share = golden["fp32_matrix_share"].get_double().value();
  const int64_t want_fp32 = golden["fp32_matrix_ns"].get_int64().value();
  const int64_t want_work = golden["device_work_ns"].get_int64().value();

  auto loaded = formats::LoadTraces({dir + "transformer_eager.json.gz"}, {});
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  ASSERT_EQ(loaded->traces.size(), 1u);
  const RankAnalysis a = AnalyzeRank(loaded->traces[0], {});
  const KernelSummary& k = a.kernels;
  EXPECT_EQ(k.device_work_ns, want_work);
  EXPECT_EQ(k.fp32_matrix_ns, want_fp32);
  ASSERT_GT(k.device_work_ns, 0);
  EXPECT_NEAR(static_cast<double>(k.fp32_matrix_ns) / static_cast<double>(k.device_work_ns),
              want_share, 1e-6);
  // About two thirds: the old substring list (xmma = Tensor Core) saw about half of it.
  EXPECT_GT(want_share, 0.6);
}

}  // namespace
}  // namespace perfdx::analysis
