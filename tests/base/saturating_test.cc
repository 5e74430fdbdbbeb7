#include "perfdx/base/saturating.h"

#include <cstdint>
#include <limits>

#include <gtest/gtest.h>

namespace perfdx::base {
namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

TEST(SaturatingTest, SumsInRangeAreExact) {
  EXPECT_EQ(SaturatingAdd(2, 3), 5);
  EXPECT_EQ(SaturatingAdd(-7, 3), -4);
  EXPECT_EQ(SaturatingAdd(kMax - 1, 1), kMax);
  EXPECT_EQ(SaturatingAdd(kMin + 1, -1), kMin);
  EXPECT_EQ(SaturatingAdd(kMax, kMin), -1);
}

TEST(SaturatingTest, SumsBeyondInt64StopAtItsLimits) {
  EXPECT_EQ(SaturatingAdd(kMax, 1), kMax);
  EXPECT_EQ(SaturatingAdd(kMin, -1), kMin);
  // Eight durations of 2^60 ns (model::kMaxDurationNs) are 2^63.
  int64_t total = 0;
  for (int k = 0; k < 8; ++k) AddSaturating(total, int64_t{1} << 60);
  EXPECT_EQ(total, kMax);
  // Once there, a smaller value brings it back down: a saturated sum is a
  // bound, not a value that absorbs what follows.
  AddSaturating(total, -(int64_t{1} << 60));
  EXPECT_EQ(total, kMax - (int64_t{1} << 60));
}

static_assert(SaturatingAdd(kMax, kMax) == kMax);
static_assert(SaturatingAdd(kMin, kMin) == kMin);

}  // namespace
}  // namespace perfdx::base
