// Runtime calls that stalled while the device idled (gaps.h): a launch, an
// allocation or a setup call (runtime_calls.h) that took kStallFactor times
// its name's median and, with the other stalled calls, covered at least half
// of an idle gap. What the stall means depends on how often it came:
//   - kernel launches stalled in two steps or more: the host thread was held
//     up (preempted, contended), the binding and host fixes (host_contention);
//   - in one step only: a one-time cost (the context created by the first
//     call that needs it, a kernel's module loaded at its first launch, the
//     caching allocator's first cudaMalloc) cannot be told from the host held
//     up: profile several steps past warm-up (stall_once);
//   - allocations or setup calls stalling in several steps: no fix is tied
//     to them here; the advisor adds how to profile for the cause.
// Gaps of step_jitter's outlier steps are that finding's. Gain: the stalled
// gaps' idle time per step, replayed with the host's time in them removed.
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "perfdx/advisor/advisor.h"
#include "perfdx/advisor/knobs.h"
#include "perfdx/advisor/rules/rule_util.h"
#include "perfdx/advisor/rules/rules.h"
#include "perfdx/analysis/runtime_calls.h"
#include "perfdx/base/saturating.h"

namespace perfdx::advisor {
namespace {

struct CallStalls {
  int64_t longest_ns = 0;
  int64_t median_ns = 0;
  int64_t idle_ns = 0;  // of the gaps it is the longest stalled call of
};

class StalledCallRule final : public Rule {
 public:
  std::string_view id() const override { return "stalled_call"; }

  void Evaluate(const RuleContext& c, std::vector<Finding>* out) const override {
    if (c.analysis.cpu_only) return;
    const std::vector<int64_t>& outliers = c.analysis.step_time.outlier_steps;
    Finding f;
    analysis::WhatIf without_stalls;
    int64_t total_ns = 0;
    uint64_t count = 0;
    std::set<int64_t> steps, launch_steps;
    std::map<std::string, CallStalls> by_call;
    for (const analysis::Gap& g : c.analysis.gaps.gaps) {
      if (g.cause.kind != "stalled_call") continue;
      if (std::find(outliers.begin(), outliers.end(), g.step) != outliers.end()) continue;
      base::AddSaturating(total_ns, g.dur_ns);
      ++count;
      steps.insert(g.step);
      if (analysis::IsKernelLaunchCall(g.stalled_call)) launch_steps.insert(g.step);
      CallStalls& call = by_call[g.stalled_call];
      call.longest_ns = std::max(call.longest_ns, g.stalled_call_ns);
      call.median_ns = g.stalled_call_median_ns;
      base::AddSaturating(call.idle_ns, g.dur_ns);
      if (f.evidence.ranges.size() < 5)
        f.evidence.ranges.push_back({g.start_ns, g.start_ns + g.dur_ns});
      without_stalls.removed_host_ns.emplace_back(g.start_ns, g.start_ns + g.dur_ns);
    }
    if (count == 0) return;
    const int64_t per_step = total_ns / static_cast<int64_t>(c.step_count());
    const double share = ShareOfStep(c, per_step);
    const Band& band = c.thresholds.stalled_call_share;
    if (advisor::Evaluate(band, share) == HealthStatus::kHealthy) return;

    // The calls by their longest stall, the longest first.
    std::vector<std::pair<std::string, CallStalls>> calls(by_call.begin(), by_call.end());
    std::sort(calls.begin(), calls.end(), [](const auto& a, const auto& b) {
      return a.second.longest_ns > b.second.longest_ns;
    });
    // A median is microseconds: Ms would print it as 0.00 ms.
    auto median = [](int64_t ns) {
      return ns < 1'000'000 ? fmt::format("{:.0f} µs", static_cast<double>(ns) / 1e3) : Ms(ns);
    };
    std::string named;
    for (size_t k = 0; k < calls.size() && k < 3; ++k) {
      const auto& [name, call] = calls[k];
      const double factor = static_cast<double>(call.longest_ns) /
                            static_cast<double>(std::max<int64_t>(call.median_ns, 1));
      named += fmt::format(
          "{}{} took {} ({} its median of {})", k == 0 ? "" : "; ", name, Ms(call.longest_ns),
          factor >= 1000 ? "over 1000x" : fmt::format("{:.0f}x", factor), median(call.median_ns));
    }
    if (calls.size() > 3) named += fmt::format("; {} more calls", calls.size() - 3);

    f.rule = std::string(id());
    f.category = Category::kComputeUtilization;
    f.gain = {per_step, share};
    f.severity = SeverityFor(band, share, share);
    f.title = fmt::format(
        "Runtime calls stalled while the device idled {} per step ({} of step time), in {} of {} "
        "steps: {}",
        Ms(per_step), Pct(share), steps.size(), c.analysis.steps.size(), named);
    for (const auto& [name, call] : calls) {
      f.evidence.contributors.push_back(
          {name, call.idle_ns, static_cast<double>(call.idle_ns) / static_cast<double>(total_ns)});
    }
    KeepLargest(&f.evidence.contributors, 3);
    f.evidence.metric = "stalled_call_share";
    f.evidence.value = share;
    f.evidence.threshold = band.healthy;
    f.evidence.unit = "share";
    f.evidence.details = {
        {"gaps", static_cast<double>(count)},
        {"steps_with_stalls", static_cast<double>(steps.size())},
        {"steps_with_stalled_launches", static_cast<double>(launch_steps.size())}};
    f.steps.assign(steps.begin(), steps.end());
    f.host_cause = true;
    if (launch_steps.size() >= 2) {
      AddTag(&f, "host_contention");
      AppendFixes(&f.recommendations, {"cpu_binding", "host_tuning"});
    } else if (steps.size() == 1) {
      AddTag(&f, "stall_once");
      AppendFixes(&f.recommendations, {"profile_past_warmup"});
    }
    f.what_if = std::move(without_stalls);
    out->push_back(std::move(f));
  }
};

}  // namespace

const Rule& StalledCall() {
  static const StalledCallRule rule;
  return rule;
}

}  // namespace perfdx::advisor
