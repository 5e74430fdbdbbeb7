// Framework operators aggregated by name, with host time and the device time
// they launched (through op_attribution):
//   host_total  sum of the op's durations
//   host_self   host_total minus the time of its direct children
//   device_self device time launched by the op itself (it is the innermost op
//               around the launch)
//   device_total device time launched by the op or anything nested in it
// Sums, not unions, as the TensorBoard plugin's operator view does.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "perfdx/analysis/interval_set.h"
#include "perfdx/analysis/op_attribution.h"
#include "perfdx/model/trace.h"

namespace perfdx::analysis {

struct OpStat {
  std::string name;
  uint64_t calls = 0;
  int64_t host_total_ns = 0;
  int64_t host_self_ns = 0;
  int64_t device_total_ns = 0;
  int64_t device_self_ns = 0;
};

struct OpSummary {
  std::vector<OpStat> ops;       // by device_self (or host_self if no device work), descending
  bool ranked_by_device = true;  // false for CPU-only traces
  // The share of the ranking time (device self, or host self for CPU-only
  // traces) taken by the top 1 and top 3 op names.
  double top1_share = 0;
  double top3_share = 0;
};

// Ops whose start lies inside `window`.
// The top-1 and top-3 operator names' shares of the total of `times` (one
// time per operator name, any order): the one definition of
// top1/top3_op_share, for a window and for each step. {0, 0} when the
// total is 0.
std::pair<double, double> TopOpShares(std::vector<int64_t> times);

OpSummary SummarizeOps(const model::Trace& trace, const OpAttribution& attribution,
                       const IntervalSet& window);

}  // namespace perfdx::analysis
