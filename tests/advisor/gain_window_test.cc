// `--window hta` reaches the advisor: on the golden trace, whose last step is
// slow (22 ms against 10 ms), the data-loader stall gain differs between the
// windows, each as computed by hand (tests/report/analyze_json_golden_test.cc
// describes the trace).
#include <string>

#include <gtest/gtest.h>

#include "perfdx/pipeline/analyze.h"

namespace perfdx::advisor {
namespace {

const Finding* FindRule(const report::AnalyzeReport& r, std::string_view rule) {
  for (const Finding& f : r.ranks.at(0).findings)
    if (f.rule == rule) return &f;
  return nullptr;
}

Result<report::AnalyzeReport> Analyze(analysis::AnalysisWindow window) {
  pipeline::AnalyzeRequest request;
  request.paths = {"tests/data/golden/small_cuda_trace.json"};
  request.analysis.window = window;
  return pipeline::BuildAnalyzeReport(request);
}

// steps: (3.9 + 3.9 + 15.9) ms of stall over 3 steps = 7.9 ms per step, of
// a 14 ms mean step.
TEST(GainWindow, DataLoaderStallOverTheAnalysedSteps) {
  auto r = Analyze(analysis::AnalysisWindow::kSteps);
  ASSERT_TRUE(r.ok()) << r.status().message();
  const Finding* f = FindRule(*r, "data_loader_stall");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->gain.ns_per_step, 7'900'000);
  EXPECT_DOUBLE_EQ(f->gain.share, 7.9 / 14);
}

// hta: HTA's window is every step but the last: (3.9 + 3.9) ms over 2 steps
// = 3.9 ms per step, of their 10 ms mean step (not 7.8 ms / 3 steps of the
// 14 ms mean of all three).
TEST(GainWindow, DataLoaderStallOverHtasSteps) {
  auto r = Analyze(analysis::AnalysisWindow::kHta);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->ranks.at(0).analysis.window_ns, 20'000'000);
  EXPECT_DOUBLE_EQ(r->ranks.at(0).analysis.summary.dataloader_stall_share, 0.39);
  const Finding* f = FindRule(*r, "data_loader_stall");
  ASSERT_NE(f, nullptr);
  EXPECT_NEAR(f->gain.ns_per_step, 3'900'000, 1);
  EXPECT_NEAR(f->gain.share, 0.39, 1e-7);
  EXPECT_DOUBLE_EQ(f->evidence.value, 0.39);
}

// The pageable copies, likewise: 0.5 ms per step in both windows (1.5 ms / 3,
// 1 ms / 2), a share of 0.5 / 14 and 0.5 / 10.
TEST(GainWindow, PageableCopiesPerStepInBothWindows) {
  auto steps = Analyze(analysis::AnalysisWindow::kSteps);
  auto hta = Analyze(analysis::AnalysisWindow::kHta);
  ASSERT_TRUE(steps.ok() && hta.ok());
  const Finding* fs = FindRule(*steps, "pageable_h2d");
  const Finding* fh = FindRule(*hta, "pageable_h2d");
  ASSERT_NE(fs, nullptr);
  ASSERT_NE(fh, nullptr);
  EXPECT_NEAR(fs->gain.ns_per_step, 500'000, 1);
  EXPECT_NEAR(fh->gain.ns_per_step, 500'000, 1);
  EXPECT_NEAR(fs->gain.share, 0.5 / 14, 1e-7);
  EXPECT_NEAR(fh->gain.share, 0.05, 1e-7);
}

}  // namespace
}  // namespace perfdx::advisor
