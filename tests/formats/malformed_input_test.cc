// The malformed-input corpus of tests/data/bad (written by generate.py there):
// every file either fails with one clean error naming the file and a byte
// offset, or loads with the damage counted. Runs under ASan/UBSan in CI.
#include <filesystem>
#include <map>
#include <string>

#include <gtest/gtest.h>

#include "perfdx/formats/trace_loader.h"
#include "test_support.h"

namespace perfdx::formats {
namespace {

using model::LoadStat;

struct Expectation {
  bool loads;
  uint64_t events = 0;  // elements of the event array
  uint64_t slices = 0;  // events kept as slices
  std::map<LoadStat, uint64_t> stats = {};
  std::string error = {};  // substring of the error message
};

const std::map<std::string, Expectation>& Corpus() {
  static const std::map<std::string, Expectation> kCorpus = {
      {"empty.json", {false, 0, 0, {}, "at byte 0: empty file"}},
      {"whitespace_only.json", {false, 0, 0, {}, "at byte 7: empty file"}},
      {"binary_garbage.bin", {false, 0, 0, {}, "at byte 0: not a JSON trace"}},
      {"wrong_shape_object.json", {false, 0, 0, {}, "no \"traceEvents\" array"}},
      {"wrong_shape_scalar.json", {false, 0, 0, {}, "at byte 0: not a JSON trace"}},
      {"trace_events_not_array.json", {false, 0, 0, {}, "no \"traceEvents\" array"}},
      {"wrong_types.json",
       {true,
        7,
        3,
        {{LoadStat::kEventInvalidTs, 2},
         {LoadStat::kEventInvalidDur, 1},
         {LoadStat::kEventMissingPhase, 1}}}},
      // NaN and Infinity are not numbers; 1e400 µs is one, beyond what a
      // trace may hold.
      {"nan_and_huge.json",
       {true,
        6,
        2,
        {{LoadStat::kEventInvalidTs, 2},
         {LoadStat::kEventTsOutOfRange, 1},
         {LoadStat::kEventInvalidDur, 1}}}},
      {"negative_duration.json", {true, 2, 1, {{LoadStat::kEventNegativeDur, 1}}}},
      // Times at the edge are kept, the one step past 2^60 ns is not; sizes no
      // 64-bit integer holds are read as not recorded, and counted.
      {"huge_values.json",
       {true,
        6,
        4,
        {{LoadStat::kMemoryValueOutOfRange, 1},
         {LoadStat::kEventInvalidDur, 1},
         {LoadStat::kEventInvalidTs, 0}}}},
      {"late_single_step.json", {true, 2, 2, {{LoadStat::kEventInvalidTs, 0}}}},
      // Two steps and 40 x 5 events, every duration just under 2^60 ns: all
      // kept (what their sums do is tests/bounds/sums_bounds_test.cc's).
      {"longest_durations.json",
       {true, 202, 202, {{LoadStat::kEventInvalidDur, 0}, {LoadStat::kEventTsOutOfRange, 0}}}},
      {"unterminated_string.json", {true, 1, 1, {{LoadStat::kTruncated, 1}}}},
      {"invalid_utf8.json", {true, 2, 2, {{LoadStat::kEventInvalidUtf8Replaced, 1}}}},
      {"control_chars.json", {true, 2, 2, {{LoadStat::kEventControlCharsReplaced, 1}}}},
      // The event whose unused arg nests 5000 deep is valid JSON and is kept
      // (the arg is skipped, never descended into); the 100000-deep array is
      // an element of the event array too, just not an object.
      {"deep_nesting.json",
       {true, 4, 3, {{LoadStat::kEventInvalidJson, 0}, {LoadStat::kEventNotObject, 1}}}},
      {"not_objects.json", {true, 6, 1, {{LoadStat::kEventNotObject, 5}}}},
      {"mismatched_brackets.json", {true, 2, 1, {{LoadStat::kEventInvalidJson, 1}}}},
      {"kineto_empty_value.json", {true, 1, 1, {{LoadStat::kEventRepaired, 1}}}},
      {"unescaped_backslash.json", {true, 1, 1, {{LoadStat::kEventRepaired, 1}}}},
      {"trailing_garbage.json", {true, 1, 1, {{LoadStat::kTrailingData, 1}}}},
      {"truncated_object.json", {true, 2, 2, {{LoadStat::kTruncated, 1}}}},
      {"bare_array_no_close.json", {true, 2, 2, {{LoadStat::kTruncated, 0}}}},
      {"trailing_commas.json", {true, 2, 2}},
      {"unknown_phase.json", {true, 3, 1, {{LoadStat::kEventUnknownPhase, 2}}}},
      {"truncated.json.gz", {true, 0, 0, {{LoadStat::kTruncated, 1}}}},  // events: see below
      {"corrupt_lookback.json.gz", {false, 0, 0, {}, "at compressed byte"}},
      {"gzip_bomb.json.gz", {false, 0, 0, {}, "compression ratio above 200:1"}},
      {"zstd_bomb.json.zst", {false, 0, 0, {}, "compression ratio above 200:1"}},
  };
  return kCorpus;
}

class MalformedInputTest : public ::testing::TestWithParam<perfdx::testing::ParserPath> {};

TEST_P(MalformedInputTest, EveryCorpusFileHasItsExpectedOutcome) {
  const std::string dir = "tests/data/bad";
  size_t seen = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name == "generate.py") continue;
    ++seen;
    auto it = Corpus().find(name);
    ASSERT_NE(it, Corpus().end()) << "corpus file without an expectation: " << name;
    const Expectation& expect = it->second;
    auto trace = perfdx::testing::ImportFile(entry.path().string(), GetParam());
    if (!expect.loads) {
      ASSERT_FALSE(trace.ok()) << name;
      const std::string& message = trace.status().message();
      EXPECT_EQ(message.find(entry.path().string()), 0u) << "names the file: " << message;
      EXPECT_NE(message.find(expect.error), std::string::npos) << name << ": " << message;
      EXPECT_EQ(message.find('\n'), std::string::npos) << "one line: " << message;
      continue;
    }
    ASSERT_TRUE(trace.ok()) << name << ": " << trace.status().message();
    if (name == "truncated.json.gz") {
      // Half of a 2000-event gzip: some complete events, never all of them.
      EXPECT_GT(trace->raw.events, 100u);
      EXPECT_LT(trace->raw.events, 2000u);
      EXPECT_EQ(trace->slices.size(), trace->raw.events);
    } else {
      EXPECT_EQ(trace->raw.events, expect.events) << name;
      EXPECT_EQ(trace->slices.size(), expect.slices) << name;
    }
    for (const auto& [stat, count] : expect.stats) {
      EXPECT_EQ(trace->load_stats.Get(stat), count)
          << name << " " << model::GetLoadStatInfo(stat).name;
    }
  }
  EXPECT_EQ(seen, Corpus().size());
}

// Issue #17: timestamps in the year 3000 were "not a number" (3.25e16 µs is
// 3.25e19 ns, beyond int64): they are times outside what a trace may hold.
TEST_P(MalformedInputTest, TimesBeyondTheRangeAreOutOfRangeNotInvalid) {
  const std::string json =
      R"({"traceEvents": [{"ph": "X", "name": "ok", "pid": 1, "tid": 1, "ts": 100, "dur": 1},
      {"ph": "X", "name": "y3000", "pid": 1, "tid": 1, "ts": 32503680000000000, "dur": 1},
      {"ph": "X", "name": "y3000_text", "pid": 1, "tid": 1, "ts": "32503680000000000.5", "dur": 1},
      {"ph": "X", "name": "y2200", "pid": 1, "tid": 1, "ts": 7258118400000000, "dur": 1},
      {"ph": "X", "name": "y1800", "pid": 1, "tid": 1, "ts": -5364662400000000, "dur": 1},
      {"ph": "X", "name": "word", "pid": 1, "tid": 1, "ts": "soon", "dur": 1}]})";
  auto trace = perfdx::testing::ImportString(json, GetParam());
  ASSERT_TRUE(trace.ok()) << trace.status().message();
  EXPECT_EQ(trace->slices.size(), 1u);
  EXPECT_EQ(trace->load_stats.Get(LoadStat::kEventTsOutOfRange), 4u);
  EXPECT_EQ(trace->load_stats.Get(LoadStat::kEventInvalidTs), 1u);  // "soon"
}

INSTANTIATE_TEST_SUITE_P(EveryPath, MalformedInputTest, perfdx::testing::kEveryParserPath,
                         perfdx::testing::ParserPathName);

}  // namespace
}  // namespace perfdx::formats
