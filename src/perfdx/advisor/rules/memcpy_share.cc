// Memory copies take a large share of the step (guide 004 §2.2: copy time /
// step < 15% healthy, > 30% abnormal; the "copy-bound small model"). The
// pageable host->device part is reported here as a detail, not again by
// pageable_h2d. Gain: the copy time per step that no compute kernel hides —
// what the step would lose if the copies ran fully under compute.
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "perfdx/advisor/advisor.h"
#include "perfdx/advisor/knobs.h"
#include "perfdx/advisor/rules/rule_util.h"
#include "perfdx/advisor/rules/rules.h"
#include "perfdx/analysis/copy_names.h"

namespace perfdx::advisor {
namespace {

constexpr size_t kMaxContributors = 5;
constexpr size_t kMaxRanges = 5;
constexpr double kFixWorthShare = 0.25;

class MemcpyShareRule final : public Rule {
 public:
  std::string_view id() const override { return "memcpy_share"; }

  void Evaluate(const RuleContext& c, std::vector<Finding>* out) const override {
    const analysis::HealthMetrics& h = c.analysis.summary;
    const Band& band = c.thresholds.memcpy_share;
    if (advisor::Evaluate(band, h.memcpy_share) == HealthStatus::kHealthy) return;

    const analysis::Activity& act = c.analysis.activity;
    const analysis::IntervalSet& window = c.analysis.window_intervals;
    const analysis::IntervalSet copies = Intersect(act.device_memcpy, window);
    const analysis::IntervalSet d2d = Intersect(act.device_memcpy_d2d, window);
    const analysis::IntervalSet exposed = Subtract(copies, act.device_compute);
    const int64_t copy_ns = copies.TotalLength();
    // Device-to-device copies move nothing between host and device, so
    // pinned memory does not touch them. What they are for is the op that
    // launched them (a clone, a cat, a compiled graph's input copies): a
    // same-layout cudaMemcpy is no layout conversion (those are kernels,
    // layout_conversion's), so no fix is guessed for them.
    const double d2d_share_of_copies =
        copy_ns > 0 ? static_cast<double>(d2d.TotalLength()) / static_cast<double>(copy_ns) : 0;

    Finding f;
    f.rule = std::string(id());
    f.category = Category::kMemory;
    f.gain.ns_per_step = PerStep(c, exposed.TotalLength());
    f.gain.share = ShareOfStep(c, f.gain.ns_per_step);
    f.severity = SeverityFor(band, h.memcpy_share, f.gain.share);
    f.title =
        fmt::format("Memory copies take {} of the step; {} per step is not overlapped with compute",
                    Pct(h.memcpy_share), Ms(f.gain.ns_per_step));
    f.evidence.metric = "memcpy_share";
    f.evidence.value = h.memcpy_share;
    f.evidence.threshold = band.healthy;
    f.evidence.unit = "share";
    f.evidence.details = {{"h2d_pageable_share", h.h2d_pageable_share},
                          {"h2d_pinned_share", h.h2d_pinned_share},
                          {"d2d_share_of_copies", d2d_share_of_copies},
                          {"copy_ns_per_step", static_cast<double>(PerStep(c, copy_ns))}};
    for (const analysis::Interval& iv : exposed.intervals()) {
      if (f.evidence.ranges.size() == kMaxRanges) break;
      f.evidence.ranges.push_back({iv.start, iv.end});
    }
    const double window_ns = static_cast<double>(c.analysis.window_ns);
    for (const analysis::KernelStat& k : c.analysis.kernels.kernels) {
      if (!model::IsMemcpy(k.kind)) continue;
      f.evidence.contributors.push_back(
          {k.name, k.total_ns, window_ns > 0 ? k.total_ns / window_ns : 0});
      if (f.evidence.contributors.size() == kMaxContributors) break;
    }
    // Each kind of copy that makes up at least a quarter of the copy time
    // gets its fix: pinned buffers for host transfers, layout for D2D.
    if (d2d_share_of_copies <= 1 - kFixWorthShare) {
      // Pinning helps only copies from pageable memory, which CUPTI names
      // "Memcpy HtoD (Pageable -> Device)".
      for (const analysis::KernelStat& k : c.analysis.kernels.kernels) {
        const auto ends = analysis::ParseCopyName(k.name);
        if (model::IsMemcpy(k.kind) && ends && ends->source == analysis::CopyMemory::kPageable &&
            ends->destination == analysis::CopyMemory::kDevice) {
          AddTag(&f, "pageable_copy");
        }
      }
      AppendFixes(&f.recommendations, {"pinned_memory"});
    }
    if (d2d_share_of_copies >= kFixWorthShare) {
      // What was measured: the ops that launched them.
      std::vector<std::string> launchers;
      for (const analysis::KernelStat& k : c.analysis.kernels.kernels) {
        const auto ends = analysis::ParseCopyName(k.name);
        if (!model::IsMemcpy(k.kind) || !ends || ends->source != analysis::CopyMemory::kDevice ||
            ends->destination != analysis::CopyMemory::kDevice)
          continue;
        for (const auto& [op, ns] : k.launched_by) {
          launchers.push_back(fmt::format("{} {}", ShortName(op), Ms(PerStep(c, ns))));
        }
      }
      f.title += fmt::format("; {} of the copy time is device-to-device", Pct(d2d_share_of_copies));
      if (!launchers.empty()) {
        f.title += fmt::format(", launched by {} per step", fmt::join(launchers, ", "));
      }
    }
    out->push_back(std::move(f));
  }
};

}  // namespace

const Rule& MemcpyShare() {
  static const MemcpyShareRule rule;
  return rule;
}

}  // namespace perfdx::advisor
