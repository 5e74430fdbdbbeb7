#include "perfdx/advisor/device_throughput.h"

#include <array>

namespace perfdx::advisor {
namespace {

struct Row {
  int major, minor;
  ThroughputRatio ratio;
};

// Dense peaks (no sparsity), TFLOP/s, from the datasheets cited in
// docs/metrics.md: FP32 | TF32 | FP16/BF16 Tensor Core.
constexpr std::array<Row, 6> kRows = {{
    {7, 0, {"V100", 125.0 / 15.7, 1, false}},           // 15.7 | - | 125 (FP16 only)
    {7, 5, {"T4", 65.0 / 8.1, 1, false}},               // 8.1 | - | 65 (FP16 only)
    {8, 0, {"A100", 312.0 / 19.5, 156.0 / 19.5}},       // 19.5 | 156 | 312
    {8, 6, {"A10", 125.0 / 31.2, 62.5 / 31.2}},         // 31.2 | 62.5 | 125
    {8, 9, {"L4", 121.0 / 30.3, 60.0 / 30.3}},          // 30.3 | 60 | 121
    {9, 0, {"H100/H200", 989.5 / 67.0, 494.7 / 67.0}},  // 67 | 494.7 | 989.5 (SXM)
}};

}  // namespace

std::optional<ThroughputRatio> CudaThroughputRatio(int major, int minor) {
  for (const Row& r : kRows) {
    if (r.major == major && r.minor == minor) return r.ratio;
  }
  return std::nullopt;
}

std::optional<ThroughputRatio> RankThroughputRatio(const model::RankInfo& info) {
  if (info.device_type != model::DeviceType::kCuda) return std::nullopt;
  for (const model::DeviceProperties& d : info.devices) {
    if (d.compute_major < 0) continue;
    return CudaThroughputRatio(d.compute_major, d.compute_minor);
  }
  return std::nullopt;
}

}  // namespace perfdx::advisor
