#include "perfdx/base/decimal_time.h"

#include <limits>

namespace perfdx {
namespace {

__extension__ using Uint128 = unsigned __int128;

constexpr int kMaxExactDigits = 38;  // 10^38 < 2^128
constexpr int kMaxExponentMagnitude = 400;

bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}
bool IsDigit(char c) {
  return c >= '0' && c <= '9';
}

Uint128 Pow10(int n) {
  Uint128 r = 1;
  for (int i = 0; i < n; ++i) r *= 10;
  return r;
}

}  // namespace

namespace {

// `saturate`: a number beyond int64 is INT64_MIN / INT64_MAX instead of nullopt.
std::optional<int64_t> ParseDecimal(std::string_view text, int scale, bool saturate) {
  size_t i = 0;
  size_t n = text.size();
  while (i < n && IsSpace(text[i])) ++i;
  while (n > i && IsSpace(text[n - 1])) --n;
  if (i == n) return std::nullopt;

  bool negative = false;
  if (text[i] == '-' || text[i] == '+') {
    negative = text[i] == '-';
    ++i;
  }

  // value = mantissa * 10^exponent. Digits beyond kMaxExactDigits are dropped:
  // they lie far below a nanosecond and, with half-away-from-zero rounding,
  // cannot change the result.
  Uint128 mantissa = 0;
  int kept_digits = 0;
  int64_t exponent = 0;
  bool any_digit = false;

  auto take_digit = [&](char c, bool fractional) {
    any_digit = true;
    const int d = c - '0';
    if (kept_digits == 0 && d == 0) {
      if (fractional) --exponent;  // leading zeros after the point
      return;
    }
    if (kept_digits < kMaxExactDigits) {
      mantissa = mantissa * 10 + static_cast<unsigned>(d);
      ++kept_digits;
      if (fractional) --exponent;
    } else if (!fractional) {
      ++exponent;
    }
  };

  while (i < n && IsDigit(text[i])) take_digit(text[i++], false);
  if (i < n && text[i] == '.') {
    ++i;
    while (i < n && IsDigit(text[i])) take_digit(text[i++], true);
  }
  if (!any_digit) return std::nullopt;

  if (i < n && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    bool exp_negative = false;
    if (i < n && (text[i] == '-' || text[i] == '+')) {
      exp_negative = text[i] == '-';
      ++i;
    }
    if (i == n || !IsDigit(text[i])) return std::nullopt;
    int64_t e = 0;
    while (i < n && IsDigit(text[i])) {
      if (e < 100000) e = e * 10 + (text[i] - '0');
      ++i;
    }
    exponent += exp_negative ? -e : e;
  }
  if (i != n) return std::nullopt;  // trailing garbage, "NaN", "Infinity", ...

  exponent += scale;
  auto too_large = [&]() -> std::optional<int64_t> {
    if (!saturate) return std::nullopt;
    return negative ? std::numeric_limits<int64_t>::min() : std::numeric_limits<int64_t>::max();
  };
  if (mantissa == 0) return 0;

  Uint128 magnitude = 0;
  if (exponent >= 0) {
    if (exponent > kMaxExactDigits) return too_large();
    const Uint128 limit = static_cast<Uint128>(std::numeric_limits<int64_t>::max()) + 1;
    magnitude = mantissa;
    for (int64_t k = 0; k < exponent; ++k) {
      if (magnitude > limit / 10) return too_large();
      magnitude *= 10;
    }
  } else {
    if (-exponent > kMaxExponentMagnitude) return 0;
    if (-exponent > kMaxExactDigits) {
      magnitude = 0;  // far below one unit after scaling
    } else {
      const Uint128 divisor = Pow10(static_cast<int>(-exponent));
      magnitude = mantissa / divisor;
      const Uint128 remainder = mantissa % divisor;
      if (remainder * 2 >= divisor) ++magnitude;  // half away from zero
    }
  }

  const Uint128 max_positive = static_cast<Uint128>(std::numeric_limits<int64_t>::max());
  if (negative) {
    if (magnitude > max_positive + 1) return too_large();
    if (magnitude == max_positive + 1) return std::numeric_limits<int64_t>::min();
    return -static_cast<int64_t>(magnitude);
  }
  if (magnitude > max_positive) return too_large();
  return static_cast<int64_t>(magnitude);
}

}  // namespace

std::optional<int64_t> ParseDecimalScaled(std::string_view text, int scale) {
  return ParseDecimal(text, scale, /*saturate=*/false);
}

std::optional<int64_t> ParseDecimalScaledSaturating(std::string_view text, int scale) {
  return ParseDecimal(text, scale, /*saturate=*/true);
}

}  // namespace perfdx
