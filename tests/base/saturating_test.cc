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

TEST(SaturatingTest, ProductsBeyondInt64StopAtTheLimitOfTheirSign) {
  EXPECT_EQ(SaturatingMul(6, 7), 42);
  EXPECT_EQ(SaturatingMul(-6, 7), -42);
  EXPECT_EQ(SaturatingMul(kMax, 1), kMax);
  // 2^62 elements of 4 bytes; a per-step time of 2^62 ns over three steps.
  EXPECT_EQ(SaturatingMul(int64_t{1} << 62, 4), kMax);
  EXPECT_EQ(SaturatingMul(int64_t{1} << 62, 3), kMax);
  EXPECT_EQ(SaturatingMul(-(int64_t{1} << 62), 3), kMin);
  EXPECT_EQ(SaturatingMul(kMin, -1), kMax);
}

TEST(SaturatingTest, ScaledPartsAreExactWherePlainProductsWouldOverflow) {
  EXPECT_EQ(ScaledPart(10, 2, 3), 6);  // floor(20 / 3)
  EXPECT_EQ(ScaledPart(10, 3, 3), 10);
  EXPECT_EQ(ScaledPart(10, 0, 3), 0);
  // 2^62 ns split three ways: 2^62 * 2 passes int64.
  constexpr int64_t kSpan = int64_t{1} << 62;
  EXPECT_EQ(ScaledPart(kSpan, 2, 3), 3074457345618258602);  // floor(2^63 / 3)
  EXPECT_EQ(ScaledPart(kMax, 4, 5), 7378697629483820645);   // floor((2^63 - 1) * 4 / 5)
  // The parts of a split add up to the whole.
  int64_t sum = 0;
  for (int64_t k = 0; k < 7; ++k) sum += ScaledPart(kMax, k + 1, 7) - ScaledPart(kMax, k, 7);
  EXPECT_EQ(sum, kMax);
}

static_assert(SaturatingAdd(kMax, kMax) == kMax);
static_assert(SaturatingMul(kMax, kMax) == kMax);
static_assert(SaturatingAdd(kMin, kMin) == kMin);

}  // namespace
}  // namespace perfdx::base
