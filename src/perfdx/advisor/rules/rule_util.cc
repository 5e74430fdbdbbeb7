#include "perfdx/advisor/rules/rule_util.h"

#include <algorithm>
#include <tuple>

#include <fmt/format.h>

namespace perfdx::advisor {

std::string Pct(double share) {
  return fmt::format("{:.1f}%", share * 100);
}

std::string Ms(int64_t ns) {
  const double ms = static_cast<double>(ns) / 1e6;
  if (ms >= 10'000) return fmt::format("{:.1f} s", ms / 1000);
  return ms >= 100 ? fmt::format("{:.0f} ms", ms)
         : ms >= 1 ? fmt::format("{:.1f} ms", ms)
                   : fmt::format("{:.2f} ms", ms);
}

bool AllReduceDominates(const analysis::CollectiveSummary& collectives) {
  int64_t all_reduce_ns = 0;
  int64_t total_ns = 0;
  for (const analysis::CollectiveStats& s : collectives.collectives) {
    total_ns += s.dur_ns;
    if (s.type == analysis::CollectiveType::kAllReduce) all_reduce_ns += s.dur_ns;
  }
  return total_ns > 0 && 2 * all_reduce_ns >= total_ns;
}

void KeepLargest(std::vector<Contributor>* contributors, size_t max) {
  std::sort(contributors->begin(), contributors->end(),
            [](const Contributor& a, const Contributor& b) {
              return std::tie(b.ns, b.share, a.name) < std::tie(a.ns, a.share, b.name);
            });
  if (contributors->size() > max) contributors->resize(max);
}

}  // namespace perfdx::advisor
