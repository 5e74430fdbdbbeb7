#include "perfdx/model/string_pool.h"

#include <map>
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

// Strings of up to 16 bytes are found again by their words in a small table
// in front of the hash table. Every string of every length 0..17 that differs
// from a base text in one byte (any position, a byte in no other string, NUL
// included) is a string of its own: a word built from the wrong bytes, or a
// slot kept by another string of the same words, would merge two of them.
// Each is interned twice, far apart, so that its slot has been taken by
// others in between; the ids are checked against a std::map of the texts.
TEST(StringPoolTest, ShortStringsDifferingInAnyOneByteStayApart) {
  StringPool pool;
  std::map<std::string, StringId> expected;
  std::vector<std::string> texts;
  const std::string base = "abcdefghijklmnopq";
  for (size_t n = 0; n <= base.size(); ++n) {
    texts.push_back(base.substr(0, n));
    for (size_t i = 0; i < n; ++i) {
      for (char c : {'\0', '#', 'Z'}) {
        std::string t = base.substr(0, n);
        t[i] = c;
        texts.push_back(t);
      }
    }
  }
  for (int round = 0; round < 2; ++round) {
    for (const std::string& t : texts) {
      const StringId id = round == 0 ? pool.Intern(t) : pool.Intern(t, StringPool::Hash(t));
      auto [it, inserted] = expected.try_emplace(t, id);
      EXPECT_EQ(it->second, id) << "round " << round << ": " << t;
      EXPECT_EQ(pool.Get(id), t);
    }
  }
  EXPECT_EQ(pool.size(), expected.size() + (expected.count("") ? 0 : 1));
  EXPECT_GT(expected.size(), 400u);  // more than fit the table's 512 slots at once
}

}  // namespace
}  // namespace perfdx::model
