#include "perfdx/analysis/interval_set.h"

#include <random>

#include <gtest/gtest.h>

namespace perfdx::analysis {
namespace {

using V = std::vector<Interval>;

TEST(IntervalSetTest, MergesOverlappingAndTouching) {
  const IntervalSet s =
      IntervalSet::FromUnsorted({{30, 40}, {0, 10}, {5, 20}, {20, 25}, {50, 50}, {60, 55}});
  EXPECT_EQ(s.intervals(), (V{{0, 25}, {30, 40}}));
  EXPECT_EQ(s.TotalLength(), 35);
}

TEST(IntervalSetTest, FromSortedAndUnionAllAgreeWithFromUnsorted) {
  const V a = {{0, 5}, {3, 8}, {8, 9}, {20, 30}};
  EXPECT_EQ(IntervalSet::FromSorted(a).intervals(), (V{{0, 9}, {20, 30}}));
  const IntervalSet all = IntervalSet::UnionAll(
      {IntervalSet::FromSorted(a), IntervalSet::Single(9, 21), IntervalSet::Single(40, 41)});
  EXPECT_EQ(all.intervals(), (V{{0, 30}, {40, 41}}));
  EXPECT_TRUE(IntervalSet::UnionAll({}).empty());
}

TEST(IntervalSetTest, SetOperations) {
  const IntervalSet a = IntervalSet::FromUnsorted({{0, 10}, {20, 30}});
  const IntervalSet b = IntervalSet::FromUnsorted({{5, 25}});
  EXPECT_EQ(Union(a, b).intervals(), (V{{0, 30}}));
  EXPECT_EQ(Intersect(a, b).intervals(), (V{{5, 10}, {20, 25}}));
  EXPECT_EQ(Subtract(a, b).intervals(), (V{{0, 5}, {25, 30}}));
  EXPECT_EQ(Subtract(b, a).intervals(), (V{{10, 20}}));
  EXPECT_EQ(a.GapsIn(-5, 35).intervals(), (V{{-5, 0}, {10, 20}, {30, 35}}));
  EXPECT_EQ(a.Clip(5, 25).intervals(), (V{{5, 10}, {20, 25}}));
  EXPECT_TRUE(a.Contains(0));
  EXPECT_FALSE(a.Contains(10));  // half-open
  EXPECT_TRUE(Intersect(a, IntervalSet()).empty());
}

TEST(IntervalSetTest, LengthInMatchesClip) {
  const IntervalSet a = IntervalSet::FromUnsorted({{0, 10}, {20, 30}, {40, 45}});
  EXPECT_EQ(a.LengthIn(5, 42), 5 + 10 + 2);
  EXPECT_EQ(a.LengthIn(10, 20), 0);
  EXPECT_EQ(a.LengthIn(-100, 100), 25);
  EXPECT_EQ(a.LengthIn(30, 30), 0);
}

// Against a brute-force bitmap over a small universe.
TEST(IntervalSetTest, RandomisedAgainstBitmap) {
  std::mt19937 rng(7);
  constexpr int kUniverse = 200;
  auto random_set = [&](std::vector<bool>* bits) {
    V v;
    bits->assign(kUniverse, false);
    const int n = static_cast<int>(rng() % 12);
    for (int k = 0; k < n; ++k) {
      const int s = static_cast<int>(rng() % kUniverse);
      const int e = std::min(kUniverse, s + static_cast<int>(rng() % 40));
      v.push_back({s, e});
      for (int t = s; t < e; ++t) (*bits)[t] = true;
    }
    return IntervalSet::FromUnsorted(v);
  };
  auto length = [](const std::vector<bool>& bits) {
    int64_t n = 0;
    for (bool b : bits) n += b;
    return n;
  };
  for (int round = 0; round < 500; ++round) {
    std::vector<bool> ba, bb;
    const IntervalSet a = random_set(&ba);
    const IntervalSet b = random_set(&bb);
    std::vector<bool> bu(kUniverse), bi(kUniverse), bs(kUniverse);
    for (int t = 0; t < kUniverse; ++t) {
      bu[t] = ba[t] || bb[t];
      bi[t] = ba[t] && bb[t];
      bs[t] = ba[t] && !bb[t];
    }
    ASSERT_EQ(Union(a, b).TotalLength(), length(bu));
    ASSERT_EQ(Intersect(a, b).TotalLength(), length(bi));
    ASSERT_EQ(Subtract(a, b).TotalLength(), length(bs));
    const int64_t w0 = rng() % kUniverse;
    const int64_t w1 = w0 + rng() % (kUniverse - w0 + 1);
    int64_t in = 0;
    for (int64_t t = w0; t < w1; ++t) in += ba[t];
    ASSERT_EQ(a.LengthIn(w0, w1), in);
    ASSERT_EQ(a.Clip(w0, w1).TotalLength(), in);
  }
}

}  // namespace
}  // namespace perfdx::analysis
