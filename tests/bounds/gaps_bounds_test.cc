// Work bounded by input size in gap finding (issue #17): one GapsIn per step
// skipped linearly from the first compute interval, so a kernel table of many
// steps took steps x intervals (a 300k-row kernel_details.csv: 7.7 s; 10M
// rows: over 10 minutes); the cause of each gap walked up the host's nesting.
// CTest runs these under a TIMEOUT as a hang guard only
// (tests/CMakeLists.txt); the figures are in the bench.
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "perfdx/analysis/activity.h"
#include "perfdx/analysis/gaps.h"
#include "perfdx/analysis/interval_set.h"
#include "perfdx/analysis/steps.h"
#include "perfdx/model/trace.h"
#include "test_support.h"

namespace perfdx::analysis {
namespace {

// 100 000 steps of 10 kernels: 5 us kernels 2 us apart, each step from its
// first kernel's start to its last kernel's end (the old code: 5*10^10 steps
// of its skip loop, over a minute).
TEST(GapsBounds, OneHundredThousandStepsOfTenKernels) {
  constexpr int64_t kSteps = 100'000;
  constexpr int64_t kKernelsPerStep = 10;
  constexpr int64_t kKernelNs = 5'000;
  constexpr int64_t kPeriodNs = 7'000;
  std::vector<Interval> kernels;
  StepTimeline timeline;
  timeline.source = StepSource::kRepeatingPattern;
  for (int64_t s = 0; s < kSteps; ++s) {
    StepWindow w;
    w.id = s;
    w.start_ns = w.host_start_ns = s * kKernelsPerStep * kPeriodNs;
    w.end_ns = w.host_end_ns = w.start_ns + (kKernelsPerStep - 1) * kPeriodNs + kKernelNs;
    timeline.steps.push_back(w);
    for (int64_t k = 0; k < kKernelsPerStep; ++k) {
      const int64_t start = w.start_ns + k * kPeriodNs;
      kernels.push_back({start, start + kKernelNs});
    }
  }
  Activity activity;
  activity.compute_timeline = IntervalSet::FromSorted(kernels);
  const model::Trace trace;  // no host activity: every gap is untraced
  const GapAnalysis g = FindGaps(trace, activity, timeline, /*min_gap_ns=*/1'000);
  // By hand: 9 gaps of 2 us inside each step, one between each pair of steps.
  const auto expected = static_cast<size_t>(kSteps * (kKernelsPerStep - 1) + (kSteps - 1));
  ASSERT_EQ(g.gaps.size(), expected);
  EXPECT_EQ(g.total_ns, static_cast<int64_t>(expected) * (kPeriodNs - kKernelNs));
  EXPECT_EQ(g.gaps.front().start_ns, kKernelNs);
  EXPECT_TRUE(g.gaps[kKernelsPerStep - 1].between_steps);
  EXPECT_EQ(g.gaps.back().cause.kind, "untraced");
}

// The cause of each gap walked up the host's nesting from 5 points per gap,
// for each kind of cause: gaps x depth. 60 000 framework ops nested in each
// other over 60 000 gaps took minutes (20 000 of each: analyze 21.6 s).
TEST(GapsBounds, SixtyThousandGapsUnderSixtyThousandNestedOps) {
  constexpr int64_t kDepth = 60'000;
  constexpr int64_t kKernels = 60'000;
  // Op i spans [i, 2 * kSpan - i) us; kernel k runs [kDepth + 200k, +5) us.
  constexpr int64_t kSpan = kDepth + 200 * kKernels;
  std::string json = R"({"schemaVersion": 1, "traceEvents": [)";
  for (int64_t i = 0; i < kDepth; ++i) {
    json += fmt::format(
        R"({{"ph": "X", "cat": "cpu_op", "name": "aten::op_{}", "pid": 1, "tid": 1, "ts": {}, )"
        R"("dur": {}}},)",
        i % 5, i, 2 * kSpan - 2 * i);
  }
  for (int64_t k = 0; k < kKernels; ++k) {
    json += fmt::format(
        R"({}{{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": {}, "dur": 5}})",
        k == 0 ? "" : ",", kDepth + 200 * k);
  }
  json += "]}";
  auto trace = perfdx::testing::ImportString(json);
  ASSERT_TRUE(trace.ok()) << trace.status().message();
  const Activity activity = BuildActivity(*trace);
  StepTimeline timeline;
  StepWindow w;
  w.id = 1;
  w.start_ns = w.host_start_ns = kDepth * 1'000;
  w.end_ns = w.host_end_ns = (kDepth + 200 * (kKernels - 1) + 5) * 1'000;
  timeline.steps.push_back(w);
  const GapAnalysis g = FindGaps(*trace, activity, timeline);
  // By hand: a 195 us gap between each pair of kernels, all inside every op;
  // the innermost, op kDepth - 1, is dispatching through each of them.
  ASSERT_EQ(g.gaps.size(), static_cast<size_t>(kKernels - 1));
  const std::string innermost = fmt::format("aten::op_{}", (kDepth - 1) % 5);
  for (const Gap& gap : g.gaps) {
    ASSERT_EQ(gap.dur_ns, 195'000);
    ASSERT_EQ(gap.cause.kind, "framework_op");
    ASSERT_EQ(gap.cause.name, innermost);
  }
}

// Finding the slice that holds each point of a gap walked up from the last
// slice starting before it, O(depth) per point: gaps x depth on a staircase
// of nested ops that each end before the next gap (100 000 of each: minutes).
TEST(GapsBounds, HundredThousandGapsUnderAStaircaseOfNestedOps) {
  constexpr int64_t kDepth = 100'000;
  constexpr int64_t kKernels = kDepth;
  // Op i spans [i, kDepth + 200 (kKernels - i)) us; kernel k runs
  // [kDepth + 200k, +5) us.
  std::string json = R"({"schemaVersion": 1, "traceEvents": [)";
  for (int64_t i = 0; i < kDepth; ++i) {
    json += fmt::format(
        R"({{"ph": "X", "cat": "cpu_op", "name": "aten::op_{}", "pid": 1, "tid": 1, "ts": {}, )"
        R"("dur": {}}},)",
        i % 5, i, kDepth + 200 * (kKernels - i) - i);
  }
  for (int64_t k = 0; k < kKernels; ++k) {
    json += fmt::format(
        R"({}{{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": {}, "dur": 5}})",
        k == 0 ? "" : ",", kDepth + 200 * k);
  }
  json += "]}";
  auto trace = perfdx::testing::ImportString(json);
  ASSERT_TRUE(trace.ok()) << trace.status().message();
  const Activity activity = BuildActivity(*trace);
  StepTimeline timeline;
  StepWindow w;
  w.id = 1;
  w.start_ns = w.host_start_ns = kDepth * 1'000;
  w.end_ns = w.host_end_ns = (kDepth + 200 * (kKernels - 1) + 5) * 1'000;
  timeline.steps.push_back(w);
  const GapAnalysis g = FindGaps(*trace, activity, timeline);
  // By hand: gap k, [kDepth + 200k + 5, kDepth + 200 (k + 1)) us, lies in ops
  // 0 .. kKernels - 1 - k (op i ends at kDepth + 200 (kKernels - i)), all
  // of it: the innermost is op kKernels - 1 - k.
  ASSERT_EQ(g.gaps.size(), static_cast<size_t>(kKernels - 1));
  for (int64_t k = 0; k + 1 < kKernels; ++k) {
    const Gap& gap = g.gaps[static_cast<size_t>(k)];
    ASSERT_EQ(gap.start_ns, (kDepth + 200 * k + 5) * 1'000) << k;
    ASSERT_EQ(gap.dur_ns, 195'000) << k;
    ASSERT_EQ(gap.cause.kind, "framework_op") << k;
    ASSERT_EQ(gap.cause.name, fmt::format("aten::op_{}", (kKernels - 1 - k) % 5)) << k;
    ASSERT_EQ(gap.cause.coverage, 1.0) << k;
  }
}

}  // namespace
}  // namespace perfdx::analysis
