// Work bounded by input size in the collective table (issue #17): each
// collective looked for its step in a loop over all steps, collectives x
// steps (300 000 of each: about a minute). CTest's TIMEOUT is the hang guard
// (tests/CMakeLists.txt).
#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "perfdx/analysis/collectives.h"
#include "perfdx/analysis/steps.h"
#include "test_support.h"

namespace perfdx::analysis {
namespace {

TEST(CollectivesBounds, ThreeHundredThousandStepsOfOneAllReduce) {
  constexpr int64_t kSteps = 300'000;
  // All-reduce k runs [10k, 10k + 5) us in step k = [10k, 10k + 10) us.
  std::string json = R"({"schemaVersion": 1, "traceEvents": [)";
  for (int64_t k = 0; k < kSteps; ++k) {
    json += fmt::format(
        R"({}{{"ph": "X", "cat": "kernel", "name": "ncclKernel_AllReduce_RING_LL_Sum_float", )"
        R"("pid": 0, "tid": 7, "ts": {}, "dur": 5}})",
        k == 0 ? "" : ",", 10 * k);
  }
  json += "]}";
  auto trace = perfdx::testing::ImportString(json);
  ASSERT_TRUE(trace.ok()) << trace.status().message();
  StepTimeline timeline;
  timeline.source = StepSource::kProfilerStep;
  for (int64_t k = 0; k < kSteps; ++k) {
    StepWindow w;
    w.id = 1000 + k;
    w.start_ns = w.host_start_ns = 10'000 * k;
    w.end_ns = w.host_end_ns = 10'000 * (k + 1);
    timeline.steps.push_back(w);
  }
  const CollectiveSummary summary = AnalyzeCollectives(*trace, &timeline, nullptr);
  ASSERT_EQ(summary.collectives.size(), static_cast<size_t>(kSteps));
  for (int64_t k = 0; k < kSteps; ++k) {
    const CollectiveStats& c = summary.collectives[static_cast<size_t>(k)];
    ASSERT_EQ(c.start_ns, 10'000 * k);
    ASSERT_EQ(c.step_id, 1000 + k);
  }
}

}  // namespace
}  // namespace perfdx::analysis
