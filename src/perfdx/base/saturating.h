// Sums of times and byte counts taken from the input. Each time a trace may
// hold is bounded (model::kMaxDurationNs, 2^60 ns) so that no end or span
// overflows, but eight such durations already sum past int64, and a byte
// count is whatever the profiler wrote: a sum of input values saturates at
// int64's limits instead of overflowing (undefined behaviour), far beyond any
// real trace's.
#pragma once

#include <cstdint>
#include <limits>

namespace perfdx::base {

constexpr int64_t SaturatingAdd(int64_t a, int64_t b) {
  int64_t sum = 0;
  if (!__builtin_add_overflow(a, b, &sum)) return sum;
  return b > 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
}

// total += v, saturating.
constexpr void AddSaturating(int64_t& total, int64_t v) {
  total = SaturatingAdd(total, v);
}

// a * b, saturating: a count times a size (a collective's elements times its
// dtype's bytes), a per-step time times the steps.
constexpr int64_t SaturatingMul(int64_t a, int64_t b) {
  int64_t product = 0;
  if (!__builtin_mul_overflow(a, b, &product)) return product;
  return (a < 0) == (b < 0) ? std::numeric_limits<int64_t>::max()
                            : std::numeric_limits<int64_t>::min();
}

// floor(total * num / den) for 0 <= total, 0 <= num <= den and den > 0,
// exactly: total * num passes int64 for a span of 2^61 ns split into a few
// parts, so it is formed in 128 bits. The result is at most total.
constexpr int64_t ScaledPart(int64_t total, int64_t num, int64_t den) {
  __extension__ using Int128 = __int128;
  return static_cast<int64_t>(static_cast<Int128>(total) * num / den);
}

}  // namespace perfdx::base
