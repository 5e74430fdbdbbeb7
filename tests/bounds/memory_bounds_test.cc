// Work bounded by input size in the memory summary (issue #17): each memory
// event looked for its step in a scan of all steps, events x steps (300 000
// of each: about a minute). CTest's TIMEOUT is the hang guard
// (tests/CMakeLists.txt).
#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "perfdx/analysis/memory_stats.h"
#include "perfdx/analysis/steps.h"
#include "test_support.h"

namespace perfdx::analysis {
namespace {

TEST(MemoryBounds, ThreeHundredThousandStepsOfOneAllocationAndOneFree) {
  constexpr int64_t kSteps = 300'000;
  // Step k = [10k, 10k + 10) us allocates 512 B at 10k + 2 and frees it at
  // 10k + 6; one more allocation after the last step is in no step.
  std::string json = R"({"schemaVersion": 1, "traceEvents": [)";
  auto event = [](int64_t ts_us, int64_t bytes, int64_t total) {
    return fmt::format(
        R"({{"ph": "i", "name": "[memory]", "pid": 1, "tid": 1, "ts": {}, "s": "t", )"
        R"("args": {{"Bytes": {}, "Total Allocated": {}, "Total Reserved": 4096, )"
        R"("Device Id": 0, "Device Type": 1}}}},)",
        ts_us, bytes, total);
  };
  StepTimeline timeline;
  timeline.source = StepSource::kProfilerStep;
  for (int64_t k = 0; k < kSteps; ++k) {
    json += event(10 * k + 2, 512, 512) + event(10 * k + 6, -512, 0);
    StepWindow w;
    w.id = k;
    w.start_ns = w.host_start_ns = 10'000 * k;
    w.end_ns = w.host_end_ns = 10'000 * (k + 1);
    timeline.steps.push_back(w);
  }
  json += event(10 * kSteps + 2, 512, 512);
  json.back() = ']';
  json += '}';
  auto trace = perfdx::testing::ImportString(json);
  ASSERT_TRUE(trace.ok()) << trace.status().message();
  const MemorySummary m = SummarizeMemory(*trace, timeline);
  ASSERT_EQ(m.devices.size(), 1u);
  EXPECT_EQ(m.devices[0].allocations, static_cast<uint64_t>(kSteps));
  EXPECT_EQ(m.devices[0].frees, static_cast<uint64_t>(kSteps));
  EXPECT_EQ(m.devices[0].peak_allocated_bytes, 512);
}

}  // namespace
}  // namespace perfdx::analysis
