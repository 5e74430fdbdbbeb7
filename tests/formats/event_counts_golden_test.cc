// Golden: every trace under ../shared/traces against ../shared/golden/
// event_counts.json (counted there with Python's json module): elements of
// the event array, by phase, the ProfilerStep ids, and the number of distinct
// (pid, tid) holding X events.
#include <map>
#include <set>
#include <string>

#include <gtest/gtest.h>
#include <simdjson.h>

#include "perfdx/analysis/trace_summary.h"
#include "perfdx/formats/trace_loader.h"
#include "perfdx/io/discovery.h"
#include "test_support.h"

namespace perfdx::formats {
namespace {

// The counts of one trace against its golden entry.
void ExpectCountsMatch(const model::Trace& trace, simdjson::dom::element value) {
  const analysis::TraceSummary summary = analysis::SummarizeTrace(trace);
  EXPECT_EQ(summary.events, uint64_t(value["events"].get_uint64()));
  std::map<std::string, uint64_t> by_phase;
  for (auto [phase, count] : value["by_phase"].get_object())
    by_phase[std::string(phase)] = count.get_uint64();
  EXPECT_EQ(summary.events_by_phase, by_phase);
  std::vector<int64_t> steps;
  for (auto id : value["profiler_steps"].get_array()) steps.push_back(id.get_int64());
  EXPECT_EQ(summary.step_ids, steps);

  // Distinct (pid, tid) with X events: tracks holding non-instant slices
  // that came from X (not B/E, not async).
  std::set<model::TrackId> x_tracks;
  for (model::SliceId i = 0; i < trace.slices.size(); ++i) {
    const uint8_t flags = trace.slices.flags[i];
    if (flags & (model::kSliceInstant | model::kSliceFromBeginEnd)) continue;
    x_tracks.insert(trace.slices.track[i]);
  }
  EXPECT_EQ(x_tracks.size(), uint64_t(value["x_tracks"].get_uint64()));
}

// Loads `path` (one trace) and checks it against `value`.
void ExpectFileMatches(const std::string& path, simdjson::dom::element value) {
  SCOPED_TRACE(path);
  auto discovered = io::DiscoverInputs({path});
  ASSERT_TRUE(discovered.ok()) << discovered.status().message();
  ASSERT_EQ(discovered->inputs.size(), 1u);
  auto trace = ImportChromeTrace(discovered->inputs[0], LoadOptions{});
  ASSERT_TRUE(trace.ok()) << trace.status().message();
  ExpectCountsMatch(*trace, value);
}

TEST(EventCountsGoldenTest, EveryTraceMatchesTheGolden) {
  PERFDX_REQUIRE_SHARED();
  simdjson::dom::parser parser;
  simdjson::dom::element golden;
  ASSERT_EQ(parser.load(perfdx::testing::SharedPath("golden/event_counts.json")).get(golden),
            simdjson::SUCCESS);
  simdjson::dom::object files;
  ASSERT_EQ(golden.get_object().get(files), simdjson::SUCCESS);
  size_t checked = 0;
  for (auto [key, value] : files) {
    ExpectFileMatches(perfdx::testing::SharedPath("traces/" + std::string(key)), value);
    ++checked;
  }
  EXPECT_EQ(checked, 15u);
}

// The project's own CUDA examples (torch 2.11 on an H200), against the counts
// examples/gpu_training/count_events.py made with Python's json module.
TEST(EventCountsGoldenTest, GpuExamplesMatchTheirCounts) {
  const std::string folder = "examples/gpu_training/traces/";
  simdjson::dom::parser parser;
  simdjson::dom::element golden;
  ASSERT_EQ(parser.load(folder + "event_counts.json").get(golden), simdjson::SUCCESS);
  simdjson::dom::object files;
  ASSERT_EQ(golden.get_object().get(files), simdjson::SUCCESS);
  size_t checked = 0;
  for (auto [key, value] : files) {
    ExpectFileMatches(folder + std::string(key), value);
    ++checked;
  }
  EXPECT_EQ(checked, 5u);
}

}  // namespace
}  // namespace perfdx::formats
