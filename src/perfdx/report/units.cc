#include "perfdx/report/units.h"

#include <cmath>
#include <cstdlib>
#include <string_view>

#include <fmt/format.h>

namespace perfdx::report {

std::string FormatDuration(int64_t ns) {
  const double v = static_cast<double>(ns);
  const double a = std::fabs(v);
  if (a < 1e3) return fmt::format("{} ns", ns);
  if (a < 1e6) return fmt::format("{:.3g} µs", v / 1e3);
  if (a < 1e9) return fmt::format("{:.3g} ms", v / 1e6);
  return fmt::format("{:.3g} s", v / 1e9);
}

std::string FormatBytes(double bytes) {
  static const char* const kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int unit = 0;
  while (std::fabs(bytes) >= 1024 && unit < 4) {
    bytes /= 1024;
    ++unit;
  }
  return unit == 0 ? fmt::format("{:.0f} B", bytes) : fmt::format("{:.1f} {}", bytes, kUnits[unit]);
}

std::string FormatShare(double share) {
  if (!std::isfinite(share)) return "n/a";
  return fmt::format("{:.1f}%", share * 100);
}

namespace {
constexpr std::string_view kBeyondBound =
    "; more than the finding's own time: the replayed fix also removes time the finding does not "
    "count (longer gaps, or the host running ahead into the next step)";
}  // namespace

std::string PredictionSentence(const analysis::Prediction& p) {
  if (!p.available) return "";
  // The transform named, so a gain beyond the finding's own bound (a
  // captured step's host running ahead) reads as what was replayed.
  const std::string fix = fmt::format("replayed with the fix ({})", p.what_if);
  if (p.gain_ns_per_step <= 0) {
    return fmt::format("{}: the step does not shorten (replay error {})", fix,
                       FormatShare(p.replay_error));
  }
  if (p.within_model_error) {
    return fmt::format("{}: within model error ({} of the step, error {})", fix,
                       FormatShare(p.gain_share), FormatShare(p.replay_error));
  }
  const std::string_view beyond = p.beyond_upper_bound ? kBeyondBound : "";
  if (p.has_range && p.low_gain_ns_per_step != p.gain_ns_per_step) {
    return fmt::format(
        "{}: saves {} to {} per step ({} to {}; the low end with {}), replay error {}{}", fix,
        FormatDuration(p.low_gain_ns_per_step), FormatDuration(p.gain_ns_per_step),
        FormatShare(p.low_gain_share), FormatShare(p.gain_share), p.low_what_if,
        FormatShare(p.replay_error), beyond);
  }
  return fmt::format("{}: saves {} per step ({}), replay error {}{}", fix,
                     FormatDuration(p.gain_ns_per_step), FormatShare(p.gain_share),
                     FormatShare(p.replay_error), beyond);
}

std::string OverlapSentence(const advisor::FindingOverlap& o) {
  return fmt::format("overlaps {}: both fixes together save {} per step, not {}", o.rule,
                     FormatDuration(o.combined_gain_ns_per_step),
                     FormatDuration(o.sum_gain_ns_per_step));
}

std::string ReplaySentence(const analysis::ReplayCheck& c) {
  if (!c.available) return fmt::format("replay: none ({})", c.why_not);
  return fmt::format("replay: the step model reproduces the {} steps within {} (median; max {}){}",
                     c.run.steps.size(), FormatShare(c.median_abs_error),
                     FormatShare(c.max_abs_error),
                     c.reliable() ? "" : " — too far off: predicted gains are unreliable");
}

}  // namespace perfdx::report
