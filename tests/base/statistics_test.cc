// Medians and percentiles (base/statistics.h), worked by hand.
#include "perfdx/base/statistics.h"

#include <cmath>
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

TEST(Summarize, StepTimesByHand) {
  // 100, 100, 110, 90, 150: mean 110, median 100, p90 = ceil(4.5) = 5th = 150.
  // Deviations from 110: -10, -10, 0, -20, 40; population variance
  // (100 + 100 + 0 + 400 + 1600) / 5 = 440.
  const DistributionSummary d = Summarize({100, 100, 110, 90, 150});
  EXPECT_EQ(d.count, 5u);
  EXPECT_DOUBLE_EQ(d.mean, 110);
  EXPECT_DOUBLE_EQ(d.median, 100);
  EXPECT_DOUBLE_EQ(d.p90, 150);
  EXPECT_DOUBLE_EQ(d.min, 90);
  EXPECT_DOUBLE_EQ(d.max, 150);
  EXPECT_DOUBLE_EQ(d.cv, std::sqrt(440.0) / 110);
  EXPECT_EQ(Summarize({}).count, 0u);
  EXPECT_EQ(Summarize({}).cv, 0);
}

TEST(ShareOf, ZeroWholeIsZero) {
  EXPECT_DOUBLE_EQ(ShareOf(1, 4), 0.25);
  EXPECT_EQ(ShareOf(5, 0), 0);
  EXPECT_EQ(ShareOf(5, -3), 0);
}

}  // namespace
}  // namespace perfdx
