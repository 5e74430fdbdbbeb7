// Work bounded by input size in the Chrome parser (issue #17): inputs where
// the element-by-element fallback moved or re-indexed up to a chunk (8 MiB)
// per element and took from 17 s to over a minute. CTest runs these under a
// TIMEOUT (tests/CMakeLists.txt) as a hang guard only; the speed figures are
// in bench/micro_bench.cc and docs/RELIABILITY.md. Each test checks what was
// read against counts taken from the generator.
#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "perfdx/formats/chrome/chrome_json_parser.h"
#include "perfdx/io/byte_source.h"
#include "perfdx/model/load_stats.h"

namespace perfdx::formats {
namespace {

using model::LoadStat;

struct CountingSink final : ChromeEventSink {
  void OnEvent(model::RawEvent&) override { ++events; }
  void OnBadEvent(LoadStat why) override { stats.Add(why); }
  void OnStat(LoadStat why) override { stats.Add(why); }
  void OnWarning(std::string) override {}
  uint64_t events = 0;
  model::LoadStats stats;
};

CountingSink Parse(const std::string& json) {
  CountingSink sink;
  auto source = io::OpenMemoryByteSource(json, "bounds.json");
  EXPECT_TRUE(source.ok());
  if (!source.ok()) return sink;
  TraceEnvelope envelope;
  const Status status = ParseChromeJson(**source, ChromeJsonOptions{}, sink, &envelope);
  EXPECT_TRUE(status.ok()) << status.message();
  return sink;
}

std::string Event(size_t i, std::string_view name_suffix = "") {
  return fmt::format(
      R"({{"ph": "X", "cat": "cpu_op", "name": "aten::op_{}{}", "pid": 1, "tid": 1, )"
      R"("ts": {}, "dur": 19, "args": {{"External id": {}}}}})",
      i % 97, name_suffix, 1661203462598738 + 25 * i, i);
}

// 13 MB, one name in a hundred with a byte that is not UTF-8: every chunk
// fails simdjson's validation and is read by the exact path (was 17 s).
TEST(ChromeParserBounds, InvalidUtf8InOneNameInAHundred) {
  std::string json = R"({"traceEvents": [)";
  size_t n = 0;
  size_t bad = 0;
  while (json.size() < 13'000'000) {
    const bool invalid = n % 100 == 7;
    bad += invalid;
    json += Event(n++, invalid ? "\xff" : "");
    json += ',';
  }
  json.back() = ']';
  json += '}';
  const CountingSink sink = Parse(json);
  EXPECT_EQ(sink.events, n);
  EXPECT_EQ(sink.stats.Get(LoadStat::kEventInvalidUtf8Replaced), bad);
}

// 10 MB of `1,1,1,...` in the event array (was over 60 s).
TEST(ChromeParserBounds, TenMegabytesOfScalarsInTheEventArray) {
  constexpr size_t kScalars = 5'000'000;
  std::string json = R"({"traceEvents": [)";
  for (size_t i = 0; i < kScalars; ++i) json += "1,";
  json.back() = ']';
  json += '}';
  const CountingSink sink = Parse(json);
  EXPECT_EQ(sink.events, 0u);
  EXPECT_EQ(sink.stats.Get(LoadStat::kEventNotObject), kScalars);
}

// A scalar after every event: no `},{` boundary anywhere, so the fast path
// searched the whole buffer for one before each element (was over 60 s).
TEST(ChromeParserBounds, AScalarAfterEveryEvent) {
  constexpr size_t kEvents = 150'000;
  std::string json = R"({"traceEvents": [)";
  for (size_t i = 0; i < kEvents; ++i) json += Event(i) + ",1,";
  json += "1]}";
  const CountingSink sink = Parse(json);
  EXPECT_EQ(sink.events, kEvents);
  EXPECT_EQ(sink.stats.Get(LoadStat::kEventNotObject), kEvents + 1);
}

// A non-object before every fourth event inside regions simdjson indexes:
// each one failed the region and re-indexed the rest of it (was 52 s).
TEST(ChromeParserBounds, ANonObjectBeforeEveryFourthEvent) {
  constexpr size_t kEvents = 150'000;
  std::string json = R"({"traceEvents": [)";
  for (size_t i = 0; i < kEvents; ++i) {
    if (i % 4 == 0) json += "[1],";
    json += Event(i) + ",";
  }
  json.back() = ']';
  json += '}';
  const CountingSink sink = Parse(json);
  EXPECT_EQ(sink.events, kEvents);
  EXPECT_EQ(sink.stats.Get(LoadStat::kEventNotObject), kEvents / 4 + (kEvents % 4 != 0));
}

}  // namespace
}  // namespace perfdx::formats
