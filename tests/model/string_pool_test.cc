#include "perfdx/model/string_pool.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace perfdx::model {
namespace {

TEST(StringPoolTest, InternsOnceAndKeepsViewsStable) {
  StringPool pool;
  EXPECT_EQ(pool.Intern(""), kEmptyString);
  const StringId a = pool.Intern("aten::mm");
  const std::string_view view = pool.Get(a);
  for (int i = 0; i < 100000; ++i) pool.Intern("kernel_" + std::to_string(i));  // forces growth
  EXPECT_EQ(pool.Intern("aten::mm"), a);
  EXPECT_EQ(pool.Get(a), "aten::mm");
  EXPECT_EQ(view.data(), pool.Get(a).data());  // storage never moves
  EXPECT_EQ(pool.Find("kernel_99999"), pool.Intern("kernel_99999"));
  EXPECT_EQ(pool.Find("missing"), StringPool::kNotInterned);
  EXPECT_EQ(pool.size(), 100002u);
}

TEST(StringPoolTest, LargeStringsAndEmbeddedNul) {
  StringPool pool;
  const std::string big(1 << 20, 'x');
  const StringId id = pool.Intern(big);
  const StringId small = pool.Intern("after");
  EXPECT_EQ(pool.Get(id), big);
  EXPECT_EQ(pool.Get(small), "after");
  const std::string with_nul("a\0b", 3);
  EXPECT_NE(pool.Intern(with_nul), pool.Intern("a"));
  EXPECT_EQ(pool.Get(pool.Intern(with_nul)).size(), 3u);
}

// A decoding thread hashes ahead (StringPool::Hash) and the builder interns
// by that hash: the same ids as by the text alone, in any mix.
TEST(StringPoolTest, InterningByAHashComputedAheadIsInterningByTheText) {
  StringPool pool;
  const std::string names[] = {"", "aten::mm", "ampere_sgemm_128x64_nn", std::string(40, 'k'),
                               std::string("a\0b", 3)};
  std::vector<StringId> by_text;
  for (const std::string& s : names) by_text.push_back(pool.Intern(s));
  for (size_t i = 0; i < std::size(names); ++i) {
    const std::string copy = names[i];  // another buffer, the same text
    EXPECT_EQ(pool.Intern(copy, StringPool::Hash(copy)), by_text[i]) << names[i];
  }
  const StringId ahead = pool.Intern("cudaLaunchKernel", StringPool::Hash("cudaLaunchKernel"));
  EXPECT_EQ(pool.Find("cudaLaunchKernel"), ahead);
  EXPECT_EQ(pool.Intern("cudaLaunchKernel"), ahead);
  EXPECT_EQ(pool.size(), std::size(names) + 1);  // "" was there already, as id 0
}

}  // namespace
}  // namespace perfdx::model
