#include "perfdx/base/sort.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

namespace perfdx::base {
namespace {

// A key and where the element started: equal keys must keep that order.
using Item = std::pair<int64_t, int>;

std::vector<Item> Numbered(const std::vector<int64_t>& keys) {
  std::vector<Item> v;
  for (size_t i = 0; i < keys.size(); ++i) v.emplace_back(keys[i], static_cast<int>(i));
  return v;
}

std::vector<Item> StdStable(std::vector<Item> v) {
  std::stable_sort(v.begin(), v.end(),
                   [](const Item& a, const Item& b) { return a.first < b.first; });
  return v;
}

auto KeyOf = [](const Item& x) { return x.first; };

TEST(SortTest, SortedInputIsLeftAloneAndReportedSo) {
  std::vector<Item> v = Numbered({1, 2, 2, 5, 9});
  const std::vector<Item> before = v;
  EXPECT_FALSE(StableSortByKey(v, KeyOf));
  EXPECT_EQ(v, before);
  EXPECT_FALSE(SortByRuns(v, std::less<>()));
  EXPECT_EQ(v, before);
}

// Few runs: merged. Many runs over a narrow range: the radix sort. Many runs
// over the whole int64 range: the radix sort's every pass. Each must equal
// std::stable_sort, duplicates in their first order.
TEST(SortTest, StableSortByKeyEqualsStdStableSortOnEveryPath) {
  std::mt19937_64 rng(42);
  std::vector<std::vector<int64_t>> inputs;
  {
    std::vector<int64_t> runs;  // 3 ascending runs with ties
    for (int r = 0; r < 3; ++r) {
      for (int i = 0; i < 500; ++i) runs.push_back(i / 3 + r * 7);
    }
    inputs.push_back(runs);
  }
  {
    std::vector<int64_t> narrow;  // random in [0, 50): many runs, 1 radix pass
    for (int i = 0; i < 5000; ++i) narrow.push_back(static_cast<int64_t>(rng() % 50));
    inputs.push_back(narrow);
  }
  {
    std::vector<int64_t> wide;  // the whole range, negatives and both ends
    for (int i = 0; i < 5000; ++i) wide.push_back(static_cast<int64_t>(rng()));
    wide.push_back(std::numeric_limits<int64_t>::min());
    wide.push_back(std::numeric_limits<int64_t>::max());
    wide.push_back(std::numeric_limits<int64_t>::min());
    inputs.push_back(wide);
  }
  {
    std::vector<int64_t> blocks;  // 1,800 runs over 36 bits, as Kineto's flow ids
    for (int r = 0; r < 1800; ++r) {
      const int64_t base = static_cast<int64_t>(rng() % (int64_t{1} << 36));
      for (int i = 0; i < 4; ++i) blocks.push_back(base + i);
    }
    inputs.push_back(blocks);
  }
  for (size_t k = 0; k < inputs.size(); ++k) {
    std::vector<Item> v = Numbered(inputs[k]);
    const std::vector<Item> expected = StdStable(v);
    EXPECT_TRUE(StableSortByKey(v, KeyOf)) << k;
    EXPECT_EQ(v, expected) << k;
  }
}

TEST(SortTest, SortByRunsMergesRunsStablyAndHandsManyRunsToSortAll) {
  std::vector<int64_t> keys;  // three ascending runs of 40, ties across them
  for (int r = 0; r < 3; ++r) {
    for (int i = 0; i < 40; ++i) keys.push_back(i / 2 + r);
  }
  std::vector<Item> few = Numbered(keys);
  const std::vector<Item> expected = StdStable(few);
  bool sorted_all = false;
  auto by_key = [](const Item& a, const Item& b) { return a.first < b.first; };
  EXPECT_TRUE(SortByRuns(few, by_key, [&](std::vector<Item>&) { sorted_all = true; }));
  EXPECT_FALSE(sorted_all);
  EXPECT_EQ(few, expected);

  // Every element a run of its own: more runs than an eighth of them.
  std::vector<Item> descending = Numbered({9, 8, 7, 6, 5, 4, 3, 2, 1, 0});
  EXPECT_TRUE(SortByRuns(descending, by_key, [&](std::vector<Item>& all) {
    sorted_all = true;
    std::stable_sort(all.begin(), all.end(), by_key);
  }));
  EXPECT_TRUE(sorted_all);
  EXPECT_TRUE(std::is_sorted(descending.begin(), descending.end(), by_key));
}

}  // namespace
}  // namespace perfdx::base
