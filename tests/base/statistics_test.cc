// Medians and percentiles (base/statistics.h), worked by hand.
#include "perfdx/base/statistics.h"

#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

namespace perfdx {
namespace {

TEST(Median, OddEvenAndEmpty) {
  EXPECT_EQ(Median<double>({3, 1, 2}), 2);
  EXPECT_EQ(Median<double>({4, 1, 3, 2}), 2.5);
  EXPECT_EQ(Median<double>({7}), 7);
  EXPECT_EQ(Median<double>({}), 0);
}

TEST(Median, IntegersTakeTheTruncatedMeanOfTheMiddlePair) {
  // (2 + 3) / 2 in integer arithmetic: step durations stay whole nanoseconds.
  EXPECT_EQ(Median<int64_t>({4, 1, 3, 2}), 2);
  EXPECT_EQ(Median<int64_t>({10, 20}), 15);
  EXPECT_EQ(Median<int64_t>({5, 9, 1}), 5);
}

TEST(NearestRankPercentile, SmallestValueWithPPercentAtOrBelow) {
  const std::vector<int64_t> v = {15, 20, 35, 40, 50};
  // Wikipedia's worked example of the nearest-rank method.
  EXPECT_EQ(NearestRankPercentile(v, 5), 15);
  EXPECT_EQ(NearestRankPercentile(v, 30), 20);
  EXPECT_EQ(NearestRankPercentile(v, 40), 20);
  EXPECT_EQ(NearestRankPercentile(v, 50), 35);
  EXPECT_EQ(NearestRankPercentile(v, 100), 50);
  EXPECT_EQ(NearestRankPercentile(std::vector<int64_t>{}, 90), 0);
}

}  // namespace
}  // namespace perfdx
