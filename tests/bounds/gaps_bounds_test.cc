// Work bounded by input size in gap finding (issue #17): one GapsIn per step
// skipped linearly from the first compute interval, so a kernel table of many
// steps took steps x intervals (a 300k-row kernel_details.csv: 7.7 s; 10M
// rows: over 10 minutes). CTest runs this under a TIMEOUT as a hang guard
// only (tests/CMakeLists.txt); the figures are in the bench.
#include <vector>

#include <gtest/gtest.h>

#include "perfdx/analysis/activity.h"
#include "perfdx/analysis/gaps.h"
#include "perfdx/analysis/interval_set.h"
#include "perfdx/analysis/steps.h"
#include "perfdx/model/trace.h"

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

}  // namespace
}  // namespace perfdx::analysis
