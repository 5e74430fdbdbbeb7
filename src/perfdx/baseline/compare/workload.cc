#include "perfdx/baseline/compare/workload.h"

#include <algorithm>
#include <map>
#include <string_view>

#include <fmt/format.h>

namespace perfdx::baseline {
namespace {

// Each operator (or kernel) name's share of the time of all of them.
std::map<std::string_view, double> TimeShares(const RunRecord& r, std::string_view kind) {
  std::map<std::string_view, double> out;
  double total = 0;
  for (const RunItem& i : r.items) {
    if (i.kind != kind || i.total_ns <= 0) continue;
    out[i.name] += static_cast<double>(i.total_ns);
    total += static_cast<double>(i.total_ns);
  }
  for (auto& [name, share] : out) share /= total;
  return out;
}

// The time both runs spend in the same names: the sum over shared names of
// the smaller share (1: the same mix, 0: nothing in common); nullopt when
// either side has no names of this kind.
std::optional<double> SharedTime(const RunRecord& a, const RunRecord& b, std::string_view kind) {
  const auto x = TimeShares(a, kind);
  const auto y = TimeShares(b, kind);
  if (x.empty() || y.empty()) return std::nullopt;
  double shared = 0;
  for (const auto& [name, share] : x) {
    if (auto it = y.find(name); it != y.end()) shared += std::min(share, it->second);
  }
  return shared;
}

}  // namespace

std::optional<std::string> WhyNotSameWorkload(const RunRecord& a, const RunRecord& b) {
  const std::optional<double> ops = SharedTime(a, b, "operator");
  const std::optional<double> kernels = SharedTime(a, b, "kernel");
  if (!ops && !kernels) return std::nullopt;
  const double best = std::max(ops.value_or(0), kernels.value_or(0));
  if (best >= kSameWorkloadMinSharedTime) return std::nullopt;
  return fmt::format(
      "the two runs do not look like the same workload: only {:.0f}% of their operator time and "
      "{:.0f}% of their kernel time is in names they share",
      ops.value_or(0) * 100, kernels.value_or(0) * 100);
}

}  // namespace perfdx::baseline
