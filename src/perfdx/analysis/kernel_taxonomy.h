// What a device kernel is, from its name: one compiled-in table
// (kernel_taxonomy.cc) of CUDA/ROCm kernel families and Ascend op types.
// Names are split into tokens (C++ scopes, template arguments, '_' parts,
// Itanium-mangled identifiers) and rows match whole tokens, never a
// substring inside another word: "fbgemm" is not "gemm". For matrix work the
// precision and the Tensor-Core use come from the name's own grammar
// (docs/metrics.md, "Kernel classes"). A name no row matches is kOther
// ("other compute"): never a guess.
#pragma once

#include <cstdint>
#include <string_view>

namespace perfdx::analysis {

enum class KernelCategory : uint8_t {
  kMatrix = 0,        // GEMM, GEMV, convolution, attention
  kLayoutConversion,  // NCHW<->NHWC, TransData, explicit transpose / contiguous copies
  kCommunication,     // NCCL / RCCL kernels, HCCL collectives and transfers
  kElementwise,       // pointwise math, casts, copies, fills, gathers, optimizer steps
  kReduction,         // sums, means, norms, arg-max, pooling, split-K reductions
  kNormalization,     // batch / layer / group norm
  kSoftmax,           // softmax, log-softmax
  kEmbedding,         // embedding lookups and their sparse-feature plumbing (FBGEMM)
  kMemcpy,
  kMemset,
  kSync,   // event record / wait, notify wait, profiler markers
  kOther,  // other compute: no row matched
};
inline constexpr int kKernelCategoryCount = static_cast<int>(KernelCategory::kOther) + 1;

enum class Precision : uint8_t { kUnknown = 0, kFp64, kFp32, kTf32, kFp16, kBf16, kFp8, kInt8 };

// Does matrix work run on Tensor Cores (AMD matrix cores, the Ascend cube)?
// kUnknown where the name does not say.
enum class TensorCoreUse : uint8_t { kUnknown = 0, kYes, kNo };

struct KernelClass {
  KernelCategory category = KernelCategory::kOther;
  Precision precision = Precision::kUnknown;            // matrix work only
  TensorCoreUse tensor_core = TensorCoreUse::kUnknown;  // matrix work only
  bool matrix() const { return category == KernelCategory::kMatrix; }
  bool layout_conversion() const { return category == KernelCategory::kLayoutConversion; }
};

KernelClass ClassifyKernel(std::string_view name);

// The math precision of an Ascend task from its input dtypes as the kernel
// table writes them ("FLOAT;FLOAT", "DT_BF16;DT_BF16;FLOAT", "FLOAT16;INT32"):
// the narrowest floating-point (or int8) input; kUnknown when none is one.
Precision PrecisionFromAscendDtypes(std::string_view dtypes);

// The JSON spellings: "matrix", "layout_conversion", ..., "other".
std::string_view KernelCategoryName(KernelCategory c);
// "unknown", "fp64", "fp32", "tf32", "fp16", "bf16", "fp8", "int8".
std::string_view PrecisionName(Precision p);

}  // namespace perfdx::analysis
