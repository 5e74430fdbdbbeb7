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

}  // namespace perfdx::base
