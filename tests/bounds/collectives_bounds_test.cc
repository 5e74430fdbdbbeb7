// Work bounded by input size in the collective table (issue #17): each
// collective looked for its step in a loop over all steps, collectives x
// steps (300 000 of each: about a minute), and for its comm args up the
// nesting. CTest's TIMEOUT is the hang guard (tests/CMakeLists.txt).
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

// A kernel without comm args looked for them up the nesting above its
// launch, once per kernel: kernels x depth (60 000 of each: over a minute).
// Here record_param_comms is the outermost of 60 000 nested ops and
// launches every all-reduce from the innermost.
TEST(CollectivesBounds, SixtyThousandKernelsUnderSixtyThousandNestedOps) {
  constexpr int64_t kDepth = 60'000;
  constexpr int64_t kKernels = 60'000;
  std::string json = R"({"schemaVersion": 1, "traceEvents": [)";
  json += fmt::format(
      R"({{"ph": "X", "cat": "cpu_op", "name": "record_param_comms", "pid": 1, "tid": 1, "ts": 0, )"
      R"("dur": {}, "args": {{"Collective name": "allreduce", "In msg nelems": 1024, )"
      R"("Out msg nelems": 1024, "Group size": 8, "dtype": "Float"}}}},)",
      10 * kDepth + 10);
  for (int64_t i = 1; i < kDepth; ++i) {
    json += fmt::format(
        R"({{"ph": "X", "cat": "cpu_op", "name": "aten::op_{}", "pid": 1, "tid": 1, "ts": {}, )"
        R"("dur": {}}},)",
        i % 5, i, 10 * kDepth - 2 * i);
  }
  json += fmt::format(
      R"({{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, )"
      R"("ts": {}, "dur": 1, "args": {{"correlation": 1}}}})",
      kDepth);
  for (int64_t k = 0; k < kKernels; ++k) {
    json += fmt::format(
        R"(,{{"ph": "X", "cat": "kernel", "name": "ncclKernel_AllReduce_RING_LL_Sum_float", )"
        R"("pid": 0, "tid": 7, "ts": {}, "dur": 1, "args": {{"correlation": 1}}}})",
        kDepth + 2 + 2 * k);
  }
  json += "]}";
  auto trace = perfdx::testing::ImportString(json);
  ASSERT_TRUE(trace.ok()) << trace.status().message();
  const CollectiveSummary summary = AnalyzeCollectives(*trace, nullptr, nullptr);
  ASSERT_EQ(summary.collectives.size(), static_cast<size_t>(kKernels));
  // By hand: 1024 floats from record_param_comms' args, for every kernel.
  for (const CollectiveStats& c : summary.collectives) {
    ASSERT_EQ(c.message_bytes, 1024 * 4);
    ASSERT_EQ(c.group_size, 8);
  }
}

}  // namespace
}  // namespace perfdx::analysis
