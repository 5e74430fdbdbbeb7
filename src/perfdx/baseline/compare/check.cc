#include "perfdx/baseline/compare/check.h"

#include <fmt/format.h>

#include "perfdx/baseline/compare/workload.h"

namespace perfdx::baseline {
namespace {

std::optional<double> Metric(const RunRecord& r, const std::string& key) {
  auto it = r.metrics.find(key);
  if (it == r.metrics.end()) return std::nullopt;
  return it->second;
}

}  // namespace

Result<CheckResult> CheckRun(const RunRecord& base, const RunRecord& current,
                             const CheckOptions& options) {
  CheckResult out;
  out.base_label = base.Label();
  out.new_label = current.Label();
  out.base_steps = base.steps.size();
  out.new_steps = current.steps.size();
  for (const auto& [label, n] :
       {std::pair{out.base_label, out.base_steps}, std::pair{out.new_label, out.new_steps}}) {
    if (n < options.min_steps) {
      return InvalidInput(
          fmt::format("{}: {} step(s); check needs at least {} per run to tell a change "
                      "from noise",
                      label, n, options.min_steps));
    }
  }
  out.base_step_ns = StepTimesNs(base);
  out.new_step_ns = StepTimesNs(current);
  out.base_median_ns = Median(out.base_step_ns);
  out.new_median_ns = Median(out.new_step_ns);
  out.interval = BootstrapMedianRatio(out.base_step_ns, out.new_step_ns, options.bootstrap);
  if (!out.interval.valid) {
    return InvalidInput(
        fmt::format("{}: the median step time is 0; nothing to compare against", out.base_label));
  }
  out.method = std::string(kBootstrapMethod);
  out.thresholds = options.thresholds;
  out.verdict = Classify(out.interval, options.thresholds);
  out.beyond_noise = BeyondNoise(out.interval);
  out.past_threshold = out.interval.ratio >= 1 + options.thresholds.max_regression ||
                       out.interval.ratio <= 1 - options.thresholds.min_improvement;
  out.base_throughput = Metric(base, "throughput_median");
  out.new_throughput = Metric(current, "throughput_median");
  if (!out.base_throughput || !out.new_throughput) {
    out.base_throughput.reset();
    out.new_throughput.reset();
  }

  if (!base.fingerprint.empty() && base.fingerprint == current.fingerprint) {
    out.notes.push_back("both runs come from the same input file");
  }
  constexpr size_t kFewSteps = 10;
  if (out.base_steps < kFewSteps || out.new_steps < kFewSteps) {
    out.notes.push_back(
        fmt::format("few steps ({} and {}): the interval is wide; profile or log more "
                    "steps for a sharper verdict",
                    out.base_steps, out.new_steps));
  }
  if (!base.device.empty() && !current.device.empty() && base.device != current.device) {
    out.notes.push_back(fmt::format("different devices: {} vs {}", base.device, current.device));
  }
  if (auto why = WhyNotSameWorkload(base, current)) out.notes.push_back(std::move(*why));
  return out;
}

}  // namespace perfdx::baseline
