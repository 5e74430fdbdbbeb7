#include "perfdx/host/cpu_list.h"

#include <gtest/gtest.h>

namespace perfdx::host {
namespace {

TEST(HostCpuList, ParsesTheKernelSyntax) {
  auto ids = ParseCpuList("0-3,8,10-11\n");
  ASSERT_TRUE(ids.ok());
  EXPECT_EQ(*ids, (std::vector<int>{0, 1, 2, 3, 8, 10, 11}));
  EXPECT_TRUE(ParseCpuList("").ok());
  EXPECT_TRUE(ParseCpuList("\n")->empty());  // isolated, when nothing is isolated
  EXPECT_EQ(*ParseCpuList("5"), std::vector<int>{5});
}

TEST(HostCpuList, RefusesWhatIsNotACpuList) {
  for (const char* bad : {"a", "3-1", "1,,2", "-1", "1-", "0-99999999", "(null)"}) {
    EXPECT_FALSE(ParseCpuList(bad).ok()) << bad;
  }
}

TEST(HostCpuList, FormatsShortestRanges) {
  EXPECT_EQ(FormatCpuList({0, 1, 2, 3, 48, 49, 50, 71}), "0-3,48-50,71");
  EXPECT_EQ(FormatCpuList({}), "");
  EXPECT_EQ(FormatCpuList({7}), "7");
  // Round trip of a two-socket SMT node's list.
  EXPECT_EQ(FormatCpuList(*ParseCpuList("0-23,48-71")), "0-23,48-71");
}

TEST(HostCpuList, SetOperations) {
  const std::vector<int> a{0, 1, 2, 3};
  const std::vector<int> b{2, 3, 4};
  EXPECT_EQ(Intersect(a, b), (std::vector<int>{2, 3}));
  EXPECT_EQ(Subtract(a, b), (std::vector<int>{0, 1}));
  EXPECT_TRUE(IsSubset({1, 2}, a));
  EXPECT_FALSE(IsSubset({1, 4}, a));
  EXPECT_TRUE(IsContiguous(a));
  EXPECT_FALSE(IsContiguous({0, 2}));
  EXPECT_FALSE(IsContiguous({}));
}

}  // namespace
}  // namespace perfdx::host
