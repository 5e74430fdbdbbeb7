// Frequent allocation and freeing on a device in every step (the guide's
// memory bottleneck: "H2D/D2H time rising together with frequent
// alloc/free"). Requests the caching allocator serves from its pool cost
// little; the time goes where it has to ask the driver (cudaMalloc/cudaFree,
// aclrtMalloc/aclrtFree — msprof-analyze's memory rule watches the same
// calls), often after torch.cuda.empty_cache() or when fragmentation leaves
// no block that fits. Gain: the host time per step in those driver calls, an
// upper bound (0 when the trace shows none, and the finding stays info).
#include <algorithm>

#include <fmt/format.h>

#include "perfdx/advisor/advisor.h"
#include "perfdx/advisor/knobs.h"
#include "perfdx/advisor/rules/rule_util.h"
#include "perfdx/advisor/rules/rules.h"

namespace perfdx::advisor {
namespace {

constexpr size_t kMaxContributors = 5;

class AllocationChurnRule final : public Rule {
 public:
  std::string_view id() const override { return "allocation_churn"; }

  void Evaluate(const RuleContext& c, std::vector<Finding>* out) const override {
    const analysis::DeviceMemory* worst = nullptr;
    for (const analysis::DeviceMemory& d : c.analysis.memory.devices) {
      if (d.device_id < 0) continue;  // host memory: malloc, not a device allocator
      if (worst == nullptr || d.allocations_per_step > worst->allocations_per_step) worst = &d;
    }
    if (worst == nullptr) return;
    const Band& band = c.thresholds.allocations_per_step;
    if (advisor::Evaluate(band, worst->allocations_per_step) == HealthStatus::kHealthy) return;

    // Host time in driver-level alloc/free calls inside the window, by name
    // (analysis/memory_stats.h).
    const analysis::DriverAllocSummary& driver = c.analysis.driver_allocs;
    const int64_t driver_ns = driver.total_ns;

    Finding f;
    f.rule = std::string(id());
    f.category = Category::kMemory;
    f.gain.ns_per_step = PerStep(c, driver_ns);
    f.gain.share = ShareOfStep(c, f.gain.ns_per_step);
    f.severity = SeverityFor(band, worst->allocations_per_step, f.gain.share);
    f.title = fmt::format(
        "{:.0f} allocations per step on device {}; {} per step is spent in driver-level "
        "malloc/free",
        worst->allocations_per_step, worst->device_id, Ms(f.gain.ns_per_step));
    f.evidence.metric = "allocations_per_step";
    f.evidence.value = worst->allocations_per_step;
    f.evidence.threshold = band.healthy;
    f.evidence.unit = "count";
    f.evidence.details = {{"device_id", static_cast<double>(worst->device_id)},
                          {"frees_per_step", worst->frees_per_step},
                          {"driver_alloc_ns_per_step", static_cast<double>(f.gain.ns_per_step)}};
    for (const analysis::DriverAllocCall& x : driver.calls) {
      if (f.evidence.contributors.size() == kMaxContributors) break;
      f.evidence.contributors.push_back(
          {x.name, x.total_ns,
           driver_ns > 0 ? static_cast<double>(x.total_ns) / static_cast<double>(driver_ns) : 0});
    }
    // Driver allocations in the steady state: the cache does not hold the
    // step's blocks; frees inside the step release the cache.
    AddTag(&f, "fragmentation");
    if (worst->frees_per_step > 0) AddTag(&f, "cache_release");
    AppendFixes(&f.recommendations, {"memory_fragmentation", "avoid_empty_cache"});
    out->push_back(std::move(f));
  }
};

}  // namespace

const Rule& AllocationChurn() {
  static const AllocationChurnRule rule;
  return rule;
}

}  // namespace perfdx::advisor
