// Device memory at the limit of its capacity (TensorBoard plugin rule R7:
// peak allocated > 90% of the device's memory). perfdx also reads the
// reserved peak: memory the caching allocator holds is just as unavailable.
// A capacity risk, not lost time: near the limit the allocator frees its
// cache and retries, the run is one larger batch away from out-of-memory,
// and the memory a larger batch or less recomputation would need is not
// there. The gain is therefore 0, and the severity is a fixed warning —
// SeverityFor would keep a 0-gain finding at info, which would hide an
// out-of-memory risk among the cosmetic findings.
#include <algorithm>

#include <fmt/format.h>

#include "perfdx/advisor/advisor.h"
#include "perfdx/advisor/knobs.h"
#include "perfdx/advisor/rules/rule_util.h"
#include "perfdx/advisor/rules/rules.h"

namespace perfdx::advisor {
namespace {

class MemoryNearCapacityRule final : public Rule {
 public:
  std::string_view id() const override { return "memory_near_capacity"; }

  void Evaluate(const RuleContext& c, std::vector<Finding>* out) const override {
    const analysis::DeviceMemory* worst = nullptr;
    double worst_share = 0;
    for (const analysis::DeviceMemory& d : c.analysis.memory.devices) {
      if (d.device_id < 0 || !d.capacity_bytes || *d.capacity_bytes <= 0) continue;
      // Rebuilt (relative) totals miss what was allocated before profiling
      // began: a lower bound, still valid for "above the limit".
      const int64_t used = std::max(d.peak_allocated_bytes, d.peak_reserved_bytes);
      const double share = static_cast<double>(used) / static_cast<double>(*d.capacity_bytes);
      if (worst == nullptr || share > worst_share) {
        worst = &d;
        worst_share = share;
      }
    }
    if (worst == nullptr || worst_share <= c.thresholds.memory_near_capacity) return;

    const bool reserved_higher = worst->peak_reserved_bytes > worst->peak_allocated_bytes;
    Finding f;
    f.rule = std::string(id());
    f.category = Category::kMemory;
    f.gain = {0, 0};
    f.severity = Severity::kWarning;
    f.title = fmt::format(
        "Device {} memory peaks at {} of its {:.1f} GB capacity ({} {:.1f} GB)", worst->device_id,
        Pct(worst_share), static_cast<double>(*worst->capacity_bytes) / 1e9,
        reserved_higher ? "reserved" : "allocated",
        static_cast<double>(std::max(worst->peak_allocated_bytes, worst->peak_reserved_bytes)) /
            1e9);
    f.evidence.metric = "peak_memory_share_of_capacity";
    f.evidence.value = worst_share;
    f.evidence.threshold = c.thresholds.memory_near_capacity;
    f.evidence.unit = "share";
    f.evidence.details = {
        {"device_id", static_cast<double>(worst->device_id)},
        {"peak_allocated_bytes", static_cast<double>(worst->peak_allocated_bytes)},
        {"peak_reserved_bytes", static_cast<double>(worst->peak_reserved_bytes)},
        {"capacity_bytes", static_cast<double>(*worst->capacity_bytes)},
        {"relative_totals", worst->relative ? 1.0 : 0.0}};
    AddTag(&f, "memory_peak");
    AppendFixes(&f.recommendations,
                {"activation_recompute", "reduce_memory_peak", "mixed_precision"});
    out->push_back(std::move(f));
  }
};

}  // namespace

const Rule& MemoryNearCapacity() {
  static const MemoryNearCapacityRule rule;
  return rule;
}

}  // namespace perfdx::advisor
