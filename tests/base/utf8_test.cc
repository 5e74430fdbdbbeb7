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

TEST(Utf8Test, ControlCharsOnlyInsideStrings) {
  std::string s = "{\n\"name\": \"a\tb\nc\", \"x\": \"\\\"\x01\"\n}";
  const size_t n = ReplaceControlCharsInStrings(s.data(), s.size());
  EXPECT_EQ(n, 3u);
  EXPECT_EQ(s, "{\n\"name\": \"a b c\", \"x\": \"\\\" \"\n}");
}

}  // namespace
}  // namespace perfdx
