// Work bounded by input size in the collective table (issue #17): each
// collective looked for its step in a loop over all steps, collectives x
// steps (300 000 of each: about a minute), and for its comm args up the
// nesting; each Ascend plane task looked back over every earlier collective
// once one spanned the profile. CTest's TIMEOUT is the hang guard
// (tests/CMakeLists.txt).
#include <string>
#include <vector>

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

// Filing plane tasks under their collective looked back from each task over
// the collectives starting within the longest one's duration before it: all
// of them when one spans the profile, tasks x collectives (100 000 of each:
// minutes). Here group 1's op spans the profile and group 0 has 100 000
// short ops; half the tasks of the group-less plane lie inside a short op,
// the other half between two, and a group 1 plane has one task inside each
// short op (not its group).
TEST(CollectivesBounds, HundredThousandTasksUnderOneCollectiveSpanningTheProfile) {
  constexpr int64_t kOps = 100'000;
  std::string json = R"([
    {"ph": "M", "name": "process_name", "pid": 9, "tid": 0, "args": {"name": "HCCL"}},
    {"ph": "M", "name": "thread_name", "pid": 9, "tid": 0, "args": {"name": "Group 0 Communication"}},
    {"ph": "M", "name": "thread_name", "pid": 9, "tid": 1, "args": {"name": "Group 1 Communication"}},
    {"ph": "M", "name": "thread_name", "pid": 9, "tid": 2, "args": {"name": "Plane 0"}},
    {"ph": "M", "name": "thread_name", "pid": 9, "tid": 3, "args": {"name": "Group 1 Plane 1"}})";
  // The long op [0, 10 (n + 1)) us; short op j (1..n) [10j, 10j + 5) us.
  json += fmt::format(
      R"(,{{"ph": "X", "pid": 9, "tid": 1, "ts": 0, "dur": {}, "name": "hcom_allReduce__1"}})",
      10 * (kOps + 1));
  for (int64_t j = 1; j <= kOps; ++j) {
    json += fmt::format(
        R"(,{{"ph": "X", "pid": 9, "tid": 0, "ts": {}, "dur": 5, "name": "hcom_allGather__{}"}})",
        10 * j, j);
  }
  // Plane 0: [10j + 1, +2) inside op j, [10j + 6, +2) between ops j and j + 1.
  // Group 1 plane 1: [10j + 1, +2) inside op j.
  for (int64_t j = 1; j <= kOps; ++j) {
    for (const auto& [tid, ts] :
         {std::pair<int, int64_t>{2, 10 * j + 1}, {2, 10 * j + 6}, {3, 10 * j + 1}}) {
      json += fmt::format(
          R"(,{{"ph": "X", "pid": 9, "tid": {}, "ts": {}, "dur": 2, "name": "Notify_Wait"}})", tid,
          ts);
    }
  }
  json += "]";
  auto trace = perfdx::testing::ImportString(json);
  ASSERT_TRUE(trace.ok()) << trace.status().message();
  const CollectiveSummary summary = AnalyzeCollectives(*trace);
  // By start: the long op is collective 0, short op j collective j.
  ASSERT_EQ(summary.collectives.size(), static_cast<size_t>(kOps + 1));
  ASSERT_EQ(summary.collectives[0].dur_ns, 10'000 * (kOps + 1));
  ASSERT_EQ(summary.filed_tasks.size(), static_cast<size_t>(3 * kOps));
  // By hand: each short op holds one plane 0 task (it starts after the long
  // op); the long op holds the n plane 0 tasks between short ops and the n
  // tasks of group 1's plane.
  std::vector<int64_t> on_plane0(kOps + 1), on_plane1(kOps + 1);
  for (const FiledTask& t : summary.filed_tasks) {
    ASSERT_TRUE(t.plane == 0 || t.plane == 1) << t.plane;
    ++(t.plane == 0 ? on_plane0 : on_plane1)[t.collective];
  }
  EXPECT_EQ(on_plane0[0], kOps);
  EXPECT_EQ(on_plane1[0], kOps);
  for (int64_t j = 1; j <= kOps; ++j) {
    ASSERT_EQ(on_plane0[static_cast<size_t>(j)], 1) << j;
    ASSERT_EQ(on_plane1[static_cast<size_t>(j)], 0) << j;
  }
}

}  // namespace
}  // namespace perfdx::analysis
