// Small helpers shared by the rules.
#pragma once

#include <cstddef>
#include <string>
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

// Keeps the `max` contributors with the most time (ties: larger share, then
// name, so the order never depends on the input's), largest first.
void KeepLargest(std::vector<Contributor>* contributors, size_t max);

}  // namespace perfdx::advisor
