#include "perfdx/formats/chrome/arg_key_memo.h"

#include <set>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

namespace perfdx::formats {
namespace {

using model::ArgKey;

// A key as the document holds it: its text after the opening quote, then the
// closing quote and a value, with the 32 bytes of padding Match may read.
std::string Doc(const std::string& key) {
  return key + "\": 1, " + std::string(32, ' ');
}

ArgKeyMemo::Identified Known(std::string_view spelling, ArgKey key) {
  return {spelling, true, key};
}

TEST(ArgKeyMemoTest, ARememberedSpellingIsFoundByItsBytesAndQuote) {
  ArgKeyMemo memo;
  ArgKeyMemo::Identified id;
  EXPECT_FALSE(memo.Match(3, 0, Doc("stream").c_str(), &id));  // nothing remembered yet
  memo.Remember(3, 0, Known("stream", ArgKey::kStream));
  const std::string doc = Doc("stream");
  ASSERT_TRUE(memo.Match(3, 0, doc.c_str(), &id));
  EXPECT_EQ(id.spelling, "stream");
  EXPECT_EQ(id.spelling.data(), doc.data());  // a view of the document's key
  EXPECT_TRUE(id.known);
  EXPECT_EQ(id.key, ArgKey::kStream);
  // Same bytes, other key: a longer key, a shorter one, one byte changed.
  EXPECT_FALSE(memo.Match(3, 0, Doc("stream id").c_str(), &id));
  EXPECT_FALSE(memo.Match(3, 0, Doc("strea").c_str(), &id));
  EXPECT_FALSE(memo.Match(3, 0, Doc("Stream").c_str(), &id));
  // Another position or row holds nothing.
  EXPECT_FALSE(memo.Match(3, 1, doc.c_str(), &id));
  EXPECT_FALSE(memo.Match(4, 0, doc.c_str(), &id));
}

TEST(ArgKeyMemoTest, AnUnknownKeyIsRememberedAsUnknown) {
  ArgKeyMemo memo;
  memo.Remember(0, 2, {"Call stack", false, ArgKey::kCount});
  ArgKeyMemo::Identified id;
  const std::string doc = Doc("Call stack");
  ASSERT_TRUE(memo.Match(0, 2, doc.c_str(), &id));
  EXPECT_FALSE(id.known);
  EXPECT_EQ(id.spelling, "Call stack");
}

// Spellings of 16 bytes and more are compared in every byte: the middle,
// and the quote at 16 and 31.
TEST(ArgKeyMemoTest, LongSpellingsCompareEveryByte) {
  ArgKeyMemo memo;
  const std::string long_key = "Process Group Name";  // 18 bytes
  memo.Remember(1, 0, Known(long_key, ArgKey::kProcessGroupName));
  ArgKeyMemo::Identified id;
  ASSERT_TRUE(memo.Match(1, 0, Doc(long_key).c_str(), &id));
  for (size_t i = 0; i < long_key.size(); ++i) {
    std::string changed = long_key;
    changed[i] ^= 0x20;
    EXPECT_FALSE(memo.Match(1, 0, Doc(changed).c_str(), &id)) << changed;
  }
  EXPECT_FALSE(memo.Match(1, 0, Doc(long_key + "s").c_str(), &id));
  const std::string fifteen(15, 'a');  // its quote is byte 16: two words
  const std::string thirty_one(31, 'b');
  memo.Remember(1, 1, {fifteen, false, ArgKey::kCount});
  memo.Remember(1, 2, {thirty_one, false, ArgKey::kCount});
  EXPECT_TRUE(memo.Match(1, 1, Doc(fifteen).c_str(), &id));
  EXPECT_FALSE(memo.Match(1, 1, Doc(fifteen + "a").c_str(), &id));
  EXPECT_TRUE(memo.Match(1, 2, Doc(thirty_one).c_str(), &id));
  EXPECT_FALSE(memo.Match(1, 2, Doc(thirty_one + "b").c_str(), &id));
}

TEST(ArgKeyMemoTest, WhatItDoesNotKeepIsNeverFound) {
  ArgKeyMemo memo;
  const std::string too_long(ArgKeyMemo::kMaxSpelling + 1, 'x');
  memo.Remember(0, 0, {too_long, false, ArgKey::kCount});
  memo.Remember(0, ArgKeyMemo::kPositions, Known("stream", ArgKey::kStream));
  memo.Remember(0, 1, {"", false, ArgKey::kCount});
  ArgKeyMemo::Identified id;
  EXPECT_FALSE(memo.Match(0, 0, Doc(too_long).c_str(), &id));
  EXPECT_FALSE(memo.Match(0, ArgKeyMemo::kPositions, Doc("stream").c_str(), &id));
  EXPECT_FALSE(memo.Match(0, 1, Doc("").c_str(), &id));
}

// The rows spread the kinds of events one Kineto version writes: no two
// share a row, so that each keeps its own order of keys.
TEST(ArgKeyMemoTest, TheKindsOfOneKinetoVersionHaveRowsOfTheirOwn) {
  using Kinds = std::vector<std::pair<std::string_view, std::string_view>>;
  const Kinds torch_2 = {{"X", "cpu_op"},
                         {"X", "cuda_runtime"},
                         {"X", "kernel"},
                         {"X", "gpu_memcpy"},
                         {"X", "gpu_memset"},
                         {"X", "python_function"},
                         {"i", ""},
                         {"X", "user_annotation"},
                         {"X", "gpu_user_annotation"},
                         {"X", "cuda_driver"},
                         {"C", ""},
                         {"M", ""}};
  const Kinds torch_1_8 = {{"X", "Operator"},        {"X", "Runtime"},
                           {"X", "Kernel"},          {"X", "Memset"},
                           {"X", "Memcpy"},          {"i", ""},
                           {"X", "user_annotation"}, {"X", "gpu_user_annotation"},
                           {"X", "python_function"}, {"M", ""}};
  for (const Kinds& kinds : {torch_2, torch_1_8}) {
    std::set<size_t> rows;
    for (const auto& [phase, category] : kinds) {
      const size_t row = ArgKeyMemo::RowOf(phase, category);
      EXPECT_LT(row, ArgKeyMemo::kRows);
      EXPECT_TRUE(rows.insert(row).second) << phase << " " << category << " shares row " << row;
    }
  }
}

}  // namespace
}  // namespace perfdx::formats
