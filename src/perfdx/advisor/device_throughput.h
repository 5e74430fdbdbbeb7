// Peak dense matrix throughput of a GPU generation in reduced precision
// against plain FP32 (CUDA cores), from the vendors' datasheets: what moving
// FP32 matrix work to Tensor Cores can gain at most. The table and its
// sources are in docs/metrics.md ("Mixed-precision gain").
#pragma once

#include <optional>
#include <string_view>

#include "perfdx/model/trace.h"

namespace perfdx::advisor {

struct ThroughputRatio {
  std::string_view generation;  // "V100", "A100", ...
  double fp16_over_fp32 = 1;    // dense FP16/BF16 Tensor Core peak / FP32 peak
  double tf32_over_fp32 = 1;    // dense TF32 peak / FP32 peak (1: no TF32)
  bool bf16 = true;             // BF16 Tensor Cores (Ampere on); Volta/Turing have FP16 only
};

// The ratio for a CUDA device of compute capability major.minor, or none
// when the table does not hold it.
std::optional<ThroughputRatio> CudaThroughputRatio(int major, int minor);

// The ratio for the rank's first CUDA device, or none.
std::optional<ThroughputRatio> RankThroughputRatio(const model::RankInfo& info);

}  // namespace perfdx::advisor
