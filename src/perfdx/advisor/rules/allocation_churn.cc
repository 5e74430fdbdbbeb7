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
#include "perfdx/advisor/rules/trace_query.h"

namespace perfdx::advisor {
namespace {

constexpr size_t kMaxContributors = 5;

bool StartsWith(std::string_view s, std::string_view p) {
  return s.substr(0, p.size()) == p;
}

// Device-memory calls that reach the driver: cudaMalloc, cudaFree,
// cudaMallocAsync, hipMalloc, aclrtMalloc, aclrtFreePhysical,
// AscendCL@aclMallocMemInner, ...
bool IsDriverAllocCall(std::string_view name) {
  const bool runtime = StartsWith(name, "cuda") || StartsWith(name, "hip") ||
                       StartsWith(name, "aclrt") || StartsWith(name, "AscendCL@acl");
  return runtime && (name.find("Malloc") != std::string_view::npos ||
                     name.find("Free") != std::string_view::npos);
}

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

    // Host time in driver-level alloc/free calls inside the window, by name.
    const model::Trace& t = c.trace();
    const analysis::IntervalSet& window = c.analysis.window_intervals;
    std::vector<Contributor> calls;
    int64_t driver_ns = 0;
    for (model::SliceId i = 0; i < t.slices.size(); ++i) {
      if (t.slices.kind[i] != model::EventKind::kRuntimeCall || !window.Contains(t.slices.ts_ns[i]))
        continue;
      const std::string_view name = t.slice_name(i);
      if (!IsDriverAllocCall(name)) continue;
      driver_ns += t.slices.dur_ns[i];
      auto it = std::find_if(calls.begin(), calls.end(),
                             [&](const Contributor& x) { return x.name == name; });
      if (it == calls.end()) {
        calls.push_back({std::string(name), 0, 0});
        it = calls.end() - 1;
      }
      it->ns += t.slices.dur_ns[i];
    }
    std::sort(calls.begin(), calls.end(),
              [](const Contributor& a, const Contributor& b) { return a.ns > b.ns; });

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
    for (Contributor& x : calls) {
      if (f.evidence.contributors.size() == kMaxContributors) break;
      x.share = driver_ns > 0 ? static_cast<double>(x.ns) / static_cast<double>(driver_ns) : 0;
      f.evidence.contributors.push_back(std::move(x));
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
