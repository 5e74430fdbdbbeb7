#include "perfdx/base/utf8.h"

#include <string>

#include <gtest/gtest.h>

namespace perfdx {
namespace {

TEST(Utf8Test, ValidTextIsUntouched) {
  std::string s = "aten::mm \xE6\x98\x87\xE8\x85\xBE \xF0\x9F\x9A\x80";  // 昇腾 🚀
  const std::string before = s;
  EXPECT_EQ(ReplaceInvalidUtf8(s.data(), s.size(), '?'), 0u);
  EXPECT_EQ(s, before);
}

TEST(Utf8Test, InvalidBytesAreReplacedInPlace) {
  std::string s =
      "a\xFF"
      "b\xC3"
      "c\xE0\x80\x80"
      "d\xED\xA0\x80";  // stray, truncated, overlong, surrogate
  const size_t n = ReplaceInvalidUtf8(s.data(), s.size(), '?');
  EXPECT_EQ(s, "a?b?c???d???");
  EXPECT_EQ(n, 8u);
}

TEST(Utf8Test, PrefixNeverEndsInsideASequence) {
  const std::string s = "ab\xE6\x98\x87\xF0\x9F\x9A\x80";  // ab 昇 🚀
  EXPECT_EQ(Utf8Prefix(s, 100), s);
  EXPECT_EQ(Utf8Prefix(s, 2), "ab");
  // Inside 昇 (bytes 2..4): back to before it.
  EXPECT_EQ(Utf8Prefix(s, 3), "ab");
  EXPECT_EQ(Utf8Prefix(s, 4), "ab");
  EXPECT_EQ(Utf8Prefix(s, 5), "ab\xE6\x98\x87");
  // Inside the four-byte 🚀 at every cut.
  for (size_t n = 5; n < 9; ++n) EXPECT_EQ(Utf8Prefix(s, n), "ab\xE6\x98\x87") << n;
  EXPECT_EQ(Utf8Prefix(s, 0), "");
  // Not UTF-8: a run of continuation bytes costs at most three bytes.
  const std::string bad = "abcd\x80\x80\x80\x80\x80";
  EXPECT_EQ(Utf8Prefix(bad, 6), "abc");
}

TEST(Utf8Test, ControlCharsOnlyInsideStrings) {
  std::string s = "{\n\"name\": \"a\tb\nc\", \"x\": \"\\\"\x01\"\n}";
  const size_t n = ReplaceControlCharsInStrings(s.data(), s.size());
  EXPECT_EQ(n, 3u);
  EXPECT_EQ(s, "{\n\"name\": \"a b c\", \"x\": \"\\\" \"\n}");
}

}  // namespace
}  // namespace perfdx
