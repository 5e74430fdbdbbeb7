// Which analysed step holds a time: a binary search over the steps (sorted,
// non-overlapping, as BuildSteps makes them).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "perfdx/analysis/steps.h"

namespace perfdx::analysis {

class StepIndex {
 public:
  explicit StepIndex(const std::vector<StepWindow>& steps) : steps_(steps) {}

  // The index of the step with start <= t < end, or -1.
  int64_t StepOf(int64_t t_ns) const {
    auto it = std::upper_bound(steps_.begin(), steps_.end(), t_ns,
                               [](int64_t t, const StepWindow& s) { return t < s.start_ns; });
    if (it == steps_.begin()) return -1;
    --it;
    return t_ns < it->end_ns ? it - steps_.begin() : -1;
  }

 private:
  const std::vector<StepWindow>& steps_;
};

}  // namespace perfdx::analysis
