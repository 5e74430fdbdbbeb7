// Small helpers shared by the rules.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "perfdx/advisor/rule.h"

namespace perfdx::advisor {

// share * the analysed window, spread over the steps: the per-step time a
// window-level share stands for.
inline int64_t PerStepNs(const RuleContext& c, double share) {
  return static_cast<int64_t>(share * static_cast<double>(c.analysis.window_ns) /
                              static_cast<double>(c.step_count()));
}

inline double ShareOfStep(const RuleContext& c, int64_t ns_per_step) {
  return c.step_ns() > 0 ? static_cast<double>(ns_per_step) / static_cast<double>(c.step_ns()) : 0;
}

// "12.3%" / "15.0 ms" (seconds from 10 s), for titles.
std::string Pct(double share);
std::string Ms(int64_t ns);

// Records evidence the rule established (knobs.toml [tags]).
inline void AddTag(Finding* f, std::string_view tag) {
  for (const std::string& t : f->evidence_tags) {
    if (t == tag) return;
  }
  f->evidence_tags.emplace_back(tag);
}

// Is the collectives' device time at least half all-reduce (gradient
// synchronization), rather than all-to-all, all-gather, ...?
bool AllReduceDominates(const analysis::CollectiveSummary& collectives);

// Keeps the `max` contributors with the most time (ties: larger share, then
// name, so the order never depends on the input's), largest first.
void KeepLargest(std::vector<Contributor>* contributors, size_t max);

}  // namespace perfdx::advisor
