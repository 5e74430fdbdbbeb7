// Matrix work (GEMM, convolution) in FP32 with no tensor-core / cube path:
// the TensorBoard plugin's "Kernels with N% time are launched by Tensor
// Cores eligible operators ... enable Automatic Mixed Precision" (rule R6).
// Gain: an estimate, not a measurement — the FP32 matrix time per step times
// (1 - 1/speedup), the speedup being the device generation's peak ratio of
// FP16/BF16 Tensor Core to FP32 throughput (device_throughput.h, from the
// datasheets); for a device the table does not hold, the assumed speedup of
// Thresholds::fp32_matrix_speedup. The title says which. The replayed
// prediction is a range: from the memory-bound factor (2x, half the bytes)
// to that peak ratio.
#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "perfdx/advisor/advisor.h"
#include "perfdx/advisor/device_throughput.h"
#include "perfdx/advisor/knobs.h"
#include "perfdx/advisor/rules/rule_util.h"
#include "perfdx/advisor/rules/rules.h"

namespace perfdx::advisor {
namespace {

constexpr size_t kMaxContributors = 5;
// A memory-bound FP32 matrix kernel in FP16/BF16 moves half the bytes.
constexpr double kMemoryBoundSpeedup = 2.0;

// TF32 exists from Ampere (compute capability 8.0) on; older GPUs need
// FP16/BF16 autocast to reach their tensor cores.
// Read from the rank's device properties (RankInfo), not the trace's events.
bool HasTf32(const model::RankInfo& info) {
  if (info.device_type != model::DeviceType::kCuda) return false;
  return std::any_of(info.devices.begin(), info.devices.end(),
                     [](const model::DeviceProperties& d) { return d.compute_major >= 8; });
}

class Fp32MatrixRule final : public Rule {
 public:
  std::string_view id() const override { return "fp32_matrix"; }

  void Evaluate(const RuleContext& c, std::vector<Finding>* out) const override {
    const analysis::KernelSummary& k = c.analysis.kernels;
    if (c.analysis.cpu_only || k.fp32_matrix_ns <= 0 || k.device_work_ns <= 0) return;
    const double share = k.fp32_matrix_share;
    const Band& band = c.thresholds.fp32_matrix_share;
    if (advisor::Evaluate(band, share) == HealthStatus::kHealthy) return;
    const std::optional<ThroughputRatio> ratio = RankThroughputRatio(c.info());
    const double speedup =
        std::max(1.0, ratio ? ratio->fp16_over_fp32 : c.thresholds.fp32_matrix_speedup);

    Finding f;
    f.rule = std::string(id());
    f.category = Category::kMemory;
    const int64_t fp32_per_step = PerStep(c, k.fp32_matrix_ns);
    f.gain.ns_per_step =
        static_cast<int64_t>(static_cast<double>(fp32_per_step) * (1.0 - 1.0 / speedup));
    f.gain.share = ShareOfStep(c, f.gain.ns_per_step);
    f.severity = SeverityFor(band, share, f.gain.share);
    // What the reduced-precision path is called on this device.
    const model::DeviceType device = c.info().device_type;
    const std::string_view fast_path = device == model::DeviceType::kNpu    ? "the FP16 cube path"
                                       : device == model::DeviceType::kRocm ? "matrix cores"
                                                                            : "Tensor Cores";
    f.title = fmt::format(
        "FP32 matrix work without {} takes {} of device time ({} per step); mixed precision would "
        "save at most {} per step at {}",
        fast_path, Pct(share), Ms(fp32_per_step), Ms(f.gain.ns_per_step),
        ratio ? fmt::format("the {} peak {}/FP32 ratio of {:.1f}x", ratio->generation,
                            ratio->bf16 ? "BF16" : "FP16", speedup)
              : fmt::format("an assumed {:.1f}x speedup", speedup));
    f.evidence.metric = "fp32_matrix_share";
    f.evidence.value = share;
    f.evidence.threshold = band.healthy;
    f.evidence.unit = "share";
    f.evidence.details = {
        {"fp32_matrix_ns_per_step", static_cast<double>(fp32_per_step)},
        {"matrix_share", k.matrix_share},
        {"tensor_core_share", k.tensor_core_share},
        {ratio ? "peak_throughput_ratio" : "assumed_speedup", speedup},
    };
    for (const analysis::KernelStat& ks : k.kernels) {
      if (!ks.fp32_matrix) continue;
      f.evidence.contributors.push_back({ks.name, ks.total_ns, ks.share});
      if (f.evidence.contributors.size() == kMaxContributors) break;
    }
    AddTag(&f, "fp32_matrix");
    // Volta and Turing have no BF16 Tensor Cores: their fix is FP16 with a
    // loss scaler.
    if (ratio && !ratio->bf16) AddTag(&f, "fp16_tensor_cores_only");
    for (const analysis::KernelStat& ks : k.kernels) {
      if (ks.fp32_matrix) f.rests_on.push_back("kernel:" + ks.name);
    }
    AppendFixes(&f.recommendations,
                {"mixed_precision", "mixed_precision_fp16", "mixed_precision_cuda_amp"});
    if (HasTf32(c.info())) {
      AppendFixes(&f.recommendations, {"tf32"});
    }
    // The factor lies between the roofline's two regimes: a compute-bound
    // kernel runs at the peak ratio, a memory-bound one at the ratio of the
    // bytes it moves (16-bit operands: half of FP32's). The range says so.
    analysis::WhatIf fix;
    fix.fp32_matrix_speedup = speedup;
    f.what_if = fix;
    if (speedup > kMemoryBoundSpeedup) {
      fix.fp32_matrix_speedup = kMemoryBoundSpeedup;
      f.what_if_low = fix;
    }
    out->push_back(std::move(f));
  }
};

}  // namespace

const Rule& Fp32Matrix() {
  static const Fp32MatrixRule rule;
  return rule;
}

}  // namespace perfdx::advisor
