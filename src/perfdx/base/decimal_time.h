// Exact conversion of profiler time text to integer nanoseconds.
//
// Profilers write microseconds as decimal text ("1736408883704643.212", 145.57,
// 1.6921085481321545e+15). A double holds ~15.9 significant digits, so epoch
// microseconds with three decimals (19 digits) cannot round-trip through one;
// this parser works on the digits themselves and never touches floating point.
//
//   ParseDecimalScaled("1704161511420306.491", 3) == 1704161511420306491
//   ParseDecimalScaled("53.7410625", 3)           == 53741   (half away from zero)
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace perfdx {

// Parses a JSON-style decimal number (optional sign, digits, optional fraction,
// optional exponent) and returns value * 10^scale rounded half away from zero.
// Leading/trailing ASCII whitespace is ignored (Ascend CSVs end times with a
// tab). Returns nullopt for anything that is not a finite number or does not
// fit in int64.
std::optional<int64_t> ParseDecimalScaled(std::string_view text, int scale);

// The same, but a number too large for int64 is INT64_MAX (or INT64_MIN):
// nullopt only for text that is not a number, so that a caller can tell
// "not a number" from "out of range" (1e400 µs is a time, just not one a
// trace may hold).
std::optional<int64_t> ParseDecimalScaledSaturating(std::string_view text, int scale);

// Microseconds (the Chrome trace unit) to nanoseconds.
inline std::optional<int64_t> ParseMicrosToNanos(std::string_view text) {
  return ParseDecimalScaled(text, 3);
}

}  // namespace perfdx
