#include "perfdx/advisor/rules/rule_util.h"

#include <fmt/format.h>

namespace perfdx::advisor {

std::string Pct(double share) { return fmt::format("{:.1f}%", share * 100); }

std::string Ms(int64_t ns) {
  const double ms = static_cast<double>(ns) / 1e6;
  if (ms >= 10'000) return fmt::format("{:.1f} s", ms / 1000);
  return ms >= 100 ? fmt::format("{:.0f} ms", ms) : ms >= 1 ? fmt::format("{:.1f} ms", ms)
                                                            : fmt::format("{:.2f} ms", ms);
}

}  // namespace perfdx::advisor
