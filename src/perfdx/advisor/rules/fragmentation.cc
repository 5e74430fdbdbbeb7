// The caching allocator holds memory it cannot use: at the moment allocated
// memory peaks, a large share of what is reserved is not allocated
// (fragmentation_at_peak = 1 - allocated/reserved). This costs capacity, not time, so the gain is
// 0; the finding is a warning past the abnormal limit — half the pool
// wasted is what pushes a run into out-of-memory retries (the allocator then
// frees its cache and calls the driver again) — and info below it.
#include <fmt/format.h>

#include "perfdx/advisor/advisor.h"
#include "perfdx/advisor/knobs.h"
#include "perfdx/advisor/rules/rule_util.h"
#include "perfdx/advisor/rules/rules.h"

namespace perfdx::advisor {
namespace {

std::string Gib(int64_t bytes) {
  return fmt::format("{:.2f} GiB", static_cast<double>(bytes) / (1 << 30));
}

class FragmentationRule final : public Rule {
 public:
  std::string_view id() const override { return "fragmentation"; }

  void Evaluate(const RuleContext& c, std::vector<Finding>* out) const override {
    const analysis::DeviceMemory* worst = nullptr;
    for (const analysis::DeviceMemory& d : c.analysis.memory.devices) {
      // Totals rebuilt from sizes are relative to the start of profiling
      // and cannot be set against the reserved total.
      if (d.device_id < 0 || d.relative || !d.fragmentation_at_peak || d.peak_reserved_bytes <= 0)
        continue;
      if (worst == nullptr || *d.fragmentation_at_peak > *worst->fragmentation_at_peak) worst = &d;
    }
    if (worst == nullptr) return;
    const double frag = *worst->fragmentation_at_peak;
    const Band& band = c.thresholds.fragmentation_at_peak;
    const HealthStatus status = advisor::Evaluate(band, frag);
    if (status == HealthStatus::kHealthy) return;

    const int64_t reserved = worst->reserved_at_allocated_peak_bytes;
    const int64_t unusable = reserved - worst->peak_allocated_bytes;
    Finding f;
    f.rule = std::string(id());
    f.category = Category::kMemory;
    f.gain = {0, 0};
    f.severity = status == HealthStatus::kAbnormal ? Severity::kWarning : Severity::kInfo;
    f.title = fmt::format(
        "{} of device {}'s reserved memory is unusable at the allocation peak ({} of {} "
        "reserved)",
        Pct(frag), worst->device_id, Gib(unusable), Gib(reserved));
    f.evidence.metric = "fragmentation_at_peak";
    f.evidence.value = frag;
    f.evidence.threshold = band.healthy;
    f.evidence.unit = "share";
    f.evidence.details = {
        {"device_id", static_cast<double>(worst->device_id)},
        {"peak_reserved_bytes", static_cast<double>(worst->peak_reserved_bytes)},
        {"reserved_at_allocated_peak_bytes", static_cast<double>(reserved)},
        {"peak_allocated_bytes", static_cast<double>(worst->peak_allocated_bytes)},
        {"unusable_bytes", static_cast<double>(unusable)}};
    AddTag(&f, "fragmentation");
    AppendFixes(&f.recommendations, {"memory_fragmentation"});
    out->push_back(std::move(f));
  }
};

}  // namespace

const Rule& Fragmentation() {
  static const FragmentationRule rule;
  return rule;
}

}  // namespace perfdx::advisor
