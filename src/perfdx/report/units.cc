#include "perfdx/report/units.h"

#include <cmath>
#include <cstdlib>
#include <string_view>

#include <fmt/format.h>

#include "perfdx/report/text_layout.h"

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

std::string FormatEvidenceValue(double v, std::string_view unit) {
  if (unit == "share") return FormatShare(v);
  if (unit == "ns") return FormatDuration(std::llround(v));
  if (unit == "bytes") return FormatBytes(v);
  if (unit == "count") return fmt::format("{:.0f}", v);
  if (unit.empty() || unit == "ratio") return fmt::format("{:.4g}", v);
  return fmt::format("{:.4g} {}", v, unit);
}

std::string FormatEvidenceDetail(std::string_view key, double v) {
  if (key.ends_with("_ns") || key.find("_ns_") != std::string_view::npos) {
    return FormatDuration(std::llround(v));
  }
  if (key.ends_with("_bytes")) return FormatBytes(v);
  if (key.ends_with("share") || key.ends_with("_overlap")) return FormatShare(v);
  if (key.ends_with("_gbps")) return fmt::format("{:.4g} GB/s", v);
  return fmt::format("{:.4g}", v);
}

namespace {
// Why a replayed gain can exceed the finding's own time.
constexpr std::string_view kBeyondBoundWhy =
    "the replayed fix also removes time the finding does not count (host time while the device "
    "was busy, or longer gaps), and the host runs ahead into the next step's work";
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
  const std::string beyond =
      p.beyond_upper_bound ? fmt::format("; more than the finding's own time: {}", kBeyondBoundWhy)
                           : "";
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

std::string PredictionBasis(const analysis::Prediction& p) {
  if (!p.available) return "";
  std::string out = fmt::format("replayed with the fix ({}), replay error {}", p.what_if,
                                FormatShare(p.replay_error));
  if (p.has_range && p.low_gain_ns_per_step != p.gain_ns_per_step) {
    out += fmt::format("; the low end with {}", p.low_what_if);
  }
  // The headline beside it has said "more than the ... it measures".
  if (p.beyond_upper_bound && !p.within_model_error && p.gain_ns_per_step > 0) {
    out += fmt::format("; {}", kBeyondBoundWhy);
  }
  if (p.has_beyond_host) {
    out +=
        "; once the host no longer holds the step: the fix with remove launch-overhead and "
        "data-loading, against those two alone";
  }
  return out;
}

namespace {

// The gain of the fix alone, with the measured bound where it reads
// differently.
std::string AloneHeadline(const advisor::Finding& f) {
  const analysis::Prediction& p = f.prediction;
  const int64_t bound_ns = f.gain.ns_per_step;
  const auto measured = [&](int64_t predicted_ns) -> std::string {
    if (bound_ns <= 0 || FormatDuration(predicted_ns) == FormatDuration(bound_ns)) return "";
    return fmt::format(", {} the {} it measures", predicted_ns > bound_ns ? "more than" : "of",
                       FormatDuration(bound_ns));
  };
  const std::string bound =
      bound_ns > 0 ? fmt::format(" ({} per step measured)", FormatDuration(bound_ns)) : "";
  if (p.gain_ns_per_step <= 0) return "the step does not shorten by replay" + bound;
  if (p.within_model_error) {
    return fmt::format("no gain beyond the replay's error ({}){}", FormatShare(p.replay_error),
                       bound);
  }
  if (p.has_range && p.low_gain_ns_per_step != p.gain_ns_per_step) {
    return fmt::format("saves {} to {} per step ({} to {}) by replay{}",
                       FormatDuration(p.low_gain_ns_per_step), FormatDuration(p.gain_ns_per_step),
                       FormatShare(p.low_gain_share), FormatShare(p.gain_share),
                       measured(p.gain_ns_per_step));
  }
  return fmt::format("saves {} per step ({}) by replay{}", FormatDuration(p.gain_ns_per_step),
                     FormatShare(p.gain_share), measured(p.gain_ns_per_step));
}

// Where the host holds the step: what the fix adds once it no longer does.
std::string BeyondHost(const analysis::Prediction& p) {
  if (!p.has_beyond_host) return "";
  return fmt::format(
      "; {} per step ({}) once the host's dispatch and data loading take no time as well (the "
      "host holds the step now; those two alone save {}, {})",
      FormatDuration(p.beyond_host_gain_ns_per_step), FormatShare(p.beyond_host_gain_share),
      FormatDuration(p.host_alone_gain_ns_per_step), FormatShare(p.host_alone_gain_share));
}

}  // namespace

std::string GainHeadline(const advisor::Finding& f) {
  const analysis::Prediction& p = f.prediction;
  const int64_t bound_ns = f.gain.ns_per_step;
  if (!p.available) {
    if (bound_ns <= 0) return "";
    return fmt::format("saves up to {} per step ({})", FormatDuration(bound_ns),
                       FormatShare(f.gain.share));
  }
  if (p.one_remedy) {
    // The bound is the finding's gain; the replayed fix is one way to it.
    std::string out = bound_ns > 0
                          ? fmt::format("saves up to {} per step ({}); ", FormatDuration(bound_ns),
                                        FormatShare(f.gain.share))
                          : std::string();
    if (p.gain_ns_per_step <= 0 || p.within_model_error) {
      return out + fmt::format("by replay, {} alone does not shorten the step", p.what_if);
    }
    return out + fmt::format("by replay, {} alone saves {} ({})", p.what_if,
                             FormatDuration(p.gain_ns_per_step), FormatShare(p.gain_share));
  }
  return AloneHeadline(f) + BeyondHost(p);
}

std::string OverlapSentence(const advisor::FindingOverlap& o, std::string_view which) {
  // A rule can report several findings: its title's start tells them apart.
  constexpr size_t kTitleColumns = 48;
  std::string named(which);
  if (named.empty()) {
    named = o.rule;
    if (!o.title.empty()) {
      const std::string title = Printable(o.title);
      const std::string_view start = TakeColumns(title, kTitleColumns);
      named += fmt::format(" (\"{}{}\")", start, start.size() < title.size() ? kEllipsis : "");
    }
  }
  return fmt::format("overlaps {}: both fixes together save {} per step, not {}", named,
                     FormatDuration(o.combined_gain_ns_per_step),
                     FormatDuration(o.sum_gain_ns_per_step));
}

std::string ReplaySentence(const analysis::ReplayCheck& c) {
  if (!c.available) return fmt::format("replay: none ({})", c.why_not);
  const size_t steps = c.run.steps.size();
  return fmt::format("replay: the step model reproduces the {} step{} within {} (median; max {}){}",
                     steps, steps == 1 ? "" : "s", FormatShare(c.median_abs_error),
                     FormatShare(c.max_abs_error),
                     c.reliable() ? "" : " — too far off: predicted gains are unreliable");
}

}  // namespace perfdx::report
