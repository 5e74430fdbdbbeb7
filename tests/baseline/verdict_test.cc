// The bootstrap verdict on synthetic step-time distributions whose answers
// follow by hand from the definitions in base/statistics.h and verdict.h.
#include "perfdx/baseline/verdict.h"

#include <vector>

#include <gtest/gtest.h>

namespace perfdx::baseline {
namespace {

using perfdx::BootstrapMedianRatio;
using perfdx::BootstrapOptions;
using perfdx::ChooseResamples;
using perfdx::RatioInterval;
using perfdx::SortedQuantile;
using perfdx::SplitMix64;

std::vector<double> Repeat(const std::vector<double>& pattern, int times) {
  std::vector<double> out;
  for (int t = 0; t < times; ++t) out.insert(out.end(), pattern.begin(), pattern.end());
  return out;
}

TEST(SplitMix64, MatchesTheReferenceSequence) {
  // The published test vector of SplitMix64 (Vigna's splitmix64.c) for seed 0.
  SplitMix64 rng(0);
  EXPECT_EQ(rng.Next(), 0xe220a8397b1dcdafULL);
}

TEST(SplitMix64, BelowStaysInRangeAndCoversIt) {
  SplitMix64 rng(42);
  std::vector<int> seen(7, 0);
  for (int i = 0; i < 7000; ++i) {
    const uint64_t v = rng.Below(7);
    ASSERT_LT(v, 7u);
    ++seen[v];
  }
  // Each of 7 values: 1000 expected; 5 sigma is about 150.
  for (int n : seen) EXPECT_NEAR(n, 1000, 150);
}

TEST(SortedQuantile, LinearBetweenRanksAsNumpy) {
  // numpy.quantile([1, 2, 3, 4], [0, .25, .5, 1]) = [1, 1.75, 2.5, 4]
  const std::vector<double> v = {1, 2, 3, 4};
  EXPECT_DOUBLE_EQ(SortedQuantile(v, 0), 1);
  EXPECT_DOUBLE_EQ(SortedQuantile(v, 0.25), 1.75);
  EXPECT_DOUBLE_EQ(SortedQuantile(v, 0.5), 2.5);
  EXPECT_DOUBLE_EQ(SortedQuantile(v, 1), 4);
}

TEST(ChooseResamples, TenThousandUnlessTheRunsAreLong) {
  EXPECT_EQ(ChooseResamples(6, 6, 0), 10000);
  EXPECT_EQ(ChooseResamples(2000, 2000, 0), 5000);  // 2e7 / 4000
  EXPECT_EQ(ChooseResamples(1000000, 1000000, 0), 1000);
  EXPECT_EQ(ChooseResamples(6, 6, 300), 300);
}

TEST(Bootstrap, IdenticalRunsAreUnchanged) {
  const std::vector<double> run = {100, 102, 98, 101, 99, 103, 97, 100, 101, 99};
  const RatioInterval r = BootstrapMedianRatio(run, run);
  ASSERT_TRUE(r.valid);
  EXPECT_DOUBLE_EQ(r.ratio, 1.0);
  EXPECT_LT(r.low, 1.0);
  EXPECT_GT(r.high, 1.0);
  EXPECT_FALSE(BeyondNoise(r));
  EXPECT_EQ(Classify(r, {}), Verdict::kUnchanged);
}

TEST(Bootstrap, ConstantRunsGiveADegenerateInterval) {
  // Every resample of {100,...} has median 100 and of {120,...} median 120,
  // so every resampled ratio is 1.2.
  const RatioInterval r =
      BootstrapMedianRatio(std::vector<double>(10, 100), std::vector<double>(10, 120));
  ASSERT_TRUE(r.valid);
  EXPECT_DOUBLE_EQ(r.ratio, 1.2);
  EXPECT_DOUBLE_EQ(r.low, 1.2);
  EXPECT_DOUBLE_EQ(r.high, 1.2);
  EXPECT_EQ(Classify(r, {}), Verdict::kRegressed);
}

TEST(Bootstrap, TwentyPercentSlowerWithSmallNoiseIsRegressed) {
  // base 100.0 .. 100.8, new the same +20: medians 100.4 and 120.4.
  const std::vector<double> base = Repeat({100.0, 100.2, 100.4, 100.6, 100.8}, 4);
  const std::vector<double> slower = Repeat({120.0, 120.2, 120.4, 120.6, 120.8}, 4);
  const RatioInterval r = BootstrapMedianRatio(base, slower);
  ASSERT_TRUE(r.valid);
  EXPECT_DOUBLE_EQ(r.ratio, 120.4 / 100.4);
  // A resampled median lies within its sample's range, so every resampled
  // ratio lies in [120.0 / 100.8, 120.8 / 100.0].
  EXPECT_GE(r.low, 120.0 / 100.8);
  EXPECT_LE(r.high, 120.8 / 100.0);
  EXPECT_TRUE(BeyondNoise(r));
  EXPECT_EQ(Classify(r, {0.05, 0.10}), Verdict::kRegressed);
}

TEST(Bootstrap, TwentyPercentFasterIsImproved) {
  const std::vector<double> base = Repeat({100.0, 100.2, 100.4, 100.6, 100.8}, 4);
  const std::vector<double> faster = Repeat({80.0, 80.2, 80.4, 80.6, 80.8}, 4);
  const RatioInterval r = BootstrapMedianRatio(base, faster);
  EXPECT_DOUBLE_EQ(r.ratio, 80.4 / 100.4);
  EXPECT_LE(r.high, 80.8 / 100.0);
  EXPECT_EQ(Classify(r, {0.05, 0.10}), Verdict::kImproved);
}

TEST(Bootstrap, NoisyOverlapIsUnchanged) {
  // Steps spread +-20% around the median; the new run is 2% slower. The
  // spread dwarfs the shift: a resample's median easily moves by a whole
  // 10-unit gap, so the interval reaches well below and above 1.
  const std::vector<double> base = Repeat({80, 90, 100, 110, 120}, 2);
  const std::vector<double> shifted = Repeat({82, 92, 102, 112, 122}, 2);
  const RatioInterval r = BootstrapMedianRatio(base, shifted);
  EXPECT_DOUBLE_EQ(r.ratio, 1.02);
  EXPECT_LT(r.low, 1.0);
  EXPECT_GT(r.high, 1.0);
  EXPECT_EQ(Classify(r, {0.05, 0.10}), Verdict::kUnchanged);
}

TEST(Bootstrap, SameSeedSameIntervalOnEveryRun) {
  const std::vector<double> base = {10, 12, 11, 13, 9, 10, 11};
  const std::vector<double> current = {11, 13, 12, 14, 10, 11, 12};
  const RatioInterval a = BootstrapMedianRatio(base, current);
  const RatioInterval b = BootstrapMedianRatio(base, current);
  EXPECT_EQ(a.low, b.low);
  EXPECT_EQ(a.high, b.high);
  BootstrapOptions other;
  other.seed = 7;
  const RatioInterval c = BootstrapMedianRatio(base, current, other);
  EXPECT_EQ(c.ratio, a.ratio);  // the point estimate never depends on the seed
}

TEST(Bootstrap, EmptyOrZeroBaseIsInvalid) {
  EXPECT_FALSE(BootstrapMedianRatio({}, {1, 2, 3}).valid);
  EXPECT_FALSE(BootstrapMedianRatio({1, 2, 3}, {}).valid);
  EXPECT_FALSE(BootstrapMedianRatio({0, 0, 0}, {1, 2, 3}).valid);
  EXPECT_EQ(Classify(RatioInterval{}, {}), Verdict::kUnchanged);
}

TEST(Classify, NeedsBothThresholdAndNoise) {
  const VerdictThresholds t{0.05, 0.10};
  // Past the threshold, but the interval includes 1: noise.
  EXPECT_EQ(Classify({true, 1.20, 0.95, 1.40}, t), Verdict::kUnchanged);
  EXPECT_EQ(Classify({true, 0.80, 0.60, 1.05}, t), Verdict::kUnchanged);
  // Beyond noise, but below the threshold.
  EXPECT_EQ(Classify({true, 1.03, 1.01, 1.05}, t), Verdict::kUnchanged);
  EXPECT_EQ(Classify({true, 0.95, 0.93, 0.97}, t), Verdict::kUnchanged);
  // Both.
  EXPECT_EQ(Classify({true, 1.06, 1.01, 1.10}, t), Verdict::kRegressed);
  EXPECT_EQ(Classify({true, 0.89, 0.85, 0.99}, t), Verdict::kImproved);
  // The thresholds are configurable.
  EXPECT_EQ(Classify({true, 0.95, 0.93, 0.97}, {0.05, 0.03}), Verdict::kImproved);
}

}  // namespace
}  // namespace perfdx::baseline
