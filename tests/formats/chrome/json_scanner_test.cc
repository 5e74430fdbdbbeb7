#include "perfdx/formats/chrome/json_scanner.h"

#include <string>

#include <gtest/gtest.h>

namespace perfdx::formats {
namespace {

// Scans `text` fed `step` bytes at a time; returns (outcome, end offset).
std::pair<JsonScanner::Outcome, size_t> ScanInSteps(const std::string& text, size_t step) {
  JsonScanner scanner;
  size_t consumed = 0;
  for (size_t have = std::min(step, text.size());; have = std::min(have + step, text.size())) {
    auto outcome = scanner.Scan(text.data(), have, &consumed);
    if (outcome != JsonScanner::Outcome::kNeedMore || have == text.size())
      return {outcome, consumed};
  }
}

TEST(JsonScannerTest, FindsTheEndOfEachKindOfValue) {
  struct Case {
    std::string text;
    size_t end;
  };
  const Case cases[] = {
      {R"({"a": {"b": [1, 2, {"c": "}]"}]}}, rest)", 33},
      {R"("a \"quoted\" \\ string", 1)", 24},
      {R"([[], {}, "]"] tail)", 13},
      {"123.5e-3,", 8},
      {"true]", 4},
      {R"({"k": "\u00e9\\"})", 17},
  };
  for (const Case& c : cases) {
    for (size_t step : {size_t{1}, size_t{3}, c.text.size()}) {
      auto [outcome, end] = ScanInSteps(c.text, step);
      EXPECT_EQ(outcome, JsonScanner::Outcome::kComplete) << c.text << " step " << step;
      EXPECT_EQ(end, c.end) << c.text << " step " << step;
    }
  }
}

TEST(JsonScannerTest, IncompleteValuesNeedMore) {
  for (const std::string& text :
       {std::string(R"({"a": [1, 2)"), std::string(R"("abc)"), std::string(R"({"a": "\)")}) {
    JsonScanner scanner;
    size_t consumed = 0;
    EXPECT_EQ(scanner.Scan(text.data(), text.size(), &consumed), JsonScanner::Outcome::kNeedMore)
        << text;
    EXPECT_EQ(consumed, text.size());
  }
}

TEST(JsonScannerTest, ErrorsPointAtTheOffendingByte) {
  {
    auto [outcome, at] = ScanInSteps(R"({"a": [}, {"b": 1}])", 4);
    EXPECT_EQ(outcome, JsonScanner::Outcome::kError);
    EXPECT_EQ(at, 7u);  // the '}' closing a '['
  }
  {
    auto [outcome, at] = ScanInSteps("\x01garbage", 10);
    EXPECT_EQ(outcome, JsonScanner::Outcome::kError);
    EXPECT_EQ(at, 0u);
  }
}

TEST(JsonScannerTest, DeepNestingEndsWhereTheValueEnds) {
  // Bracket pairs are checked only 8 levels deep here; deeper levels are
  // counted, so the boundary is still exact.
  const std::string deep = std::string(100000, '[') + std::string(100000, ']') + ", 1";
  JsonScanner scanner(8);
  size_t consumed = 0;
  EXPECT_EQ(scanner.Scan(deep.data(), deep.size(), &consumed), JsonScanner::Outcome::kComplete);
  EXPECT_EQ(consumed, 200000u);
  // A mismatch within the checked levels is still caught.
  const std::string bad = "[[{]]]";
  scanner.Reset();
  consumed = 0;
  EXPECT_EQ(scanner.Scan(bad.data(), bad.size(), &consumed), JsonScanner::Outcome::kError);
  EXPECT_EQ(consumed, 3u);
}

}  // namespace
}  // namespace perfdx::formats
