#include "perfdx/baseline/perf_monitor.h"

#include <sstream>

#include <gtest/gtest.h>

#include "perfdx/baseline/record/step_log.h"
#include "test_support.h"

namespace perfdx {
namespace {

TEST(PerfMonitor, RecordsStepsAndThroughput) {
  PerfMonitor monitor({.warnings = nullptr});
  monitor.RecordStep(0.2, 64);
  monitor.RecordStep(0.1, 64);
  monitor.RecordStep(0.4, 64);
  monitor.RecordStep(-1);  // not a step time: ignored
  EXPECT_EQ(monitor.step_times_s().size(), 3u);
  EXPECT_DOUBLE_EQ(monitor.MedianStepTime(), 0.2);
  EXPECT_DOUBLE_EQ(monitor.MedianThroughput(), 320);  // 64 / 0.2
}

TEST(PerfMonitor, ImprovementNeedsTheThresholdAndToBeBeyondNoise) {
  std::ostringstream warnings;
  PerfMonitor::Options options;
  options.warnings = &warnings;
  PerfMonitor monitor(options);
  monitor.SetBaseline({0.100, 0.101, 0.099, 0.100, 0.100, 0.101});
  for (double t : {0.097, 0.098, 0.096, 0.097, 0.098, 0.097}) monitor.RecordStep(t);
  // 3% faster beyond noise: below the 10% threshold.
  EXPECT_FALSE(monitor.ValidateImprovement());
  EXPECT_NE(warnings.str().find("below the 10% improvement threshold"), std::string::npos)
      << warnings.str();
  EXPECT_TRUE(monitor.CheckNoRegression());

  PerfMonitor faster(options);
  faster.SetBaseline({0.100, 0.101, 0.099, 0.100, 0.100, 0.101});
  for (double t : {0.080, 0.081, 0.079, 0.080, 0.080}) faster.RecordStep(t);
  EXPECT_TRUE(faster.ValidateImprovement());
  const PerfMonitor::Comparison c = faster.Compare();
  EXPECT_EQ(c.verdict, baseline::Verdict::kImproved);
  EXPECT_DOUBLE_EQ(c.speedup, 1 - 0.080 / 0.100);
}

TEST(PerfMonitor, RegressionIsFlagged) {
  std::ostringstream warnings;
  PerfMonitor::Options options;
  options.warnings = &warnings;
  PerfMonitor monitor(options);
  monitor.SetBaseline({0.100, 0.100, 0.100, 0.100});
  for (double t : {0.120, 0.121, 0.119, 0.120}) monitor.RecordStep(t);
  EXPECT_FALSE(monitor.CheckNoRegression());
  EXPECT_NE(warnings.str().find("regression"), std::string::npos);
}

TEST(PerfMonitor, WithoutBaselineTheFirstRunBecomesIt) {
  PerfMonitor monitor({.warnings = nullptr});
  for (double t : {0.1, 0.1, 0.1}) monitor.RecordStep(t);
  EXPECT_FALSE(monitor.has_baseline());
  EXPECT_TRUE(monitor.ValidateImprovement());  // as the seed: nothing to compare with yet
  EXPECT_TRUE(monitor.has_baseline());
  EXPECT_FALSE(PerfMonitor({.warnings = nullptr}).Compare().valid);
}

TEST(PerfMonitor, WarmupStepsAreLeftOut) {
  PerfMonitor::Options options;
  options.warmup_steps = 2;
  options.warnings = nullptr;
  PerfMonitor monitor(options);
  for (double t : {5.0, 3.0, 0.1, 0.2, 0.3}) monitor.RecordStep(t);
  EXPECT_DOUBLE_EQ(monitor.MedianStepTime(), 0.2);
}

TEST(PerfMonitor, WritesAStepLogPerfdxReads) {
  testing::TempDir dir;
  const std::string path = dir.path() + "/steps.jsonl";
  {
    PerfMonitor::Options options;
    options.log_path = path;
    options.meta = {{"model", "res\"net"}};
    PerfMonitor monitor(options);
    monitor.RecordStep(0.25, 32);
    monitor.RecordStep(0.125);
    { auto timer = monitor.StartStep(16); }
    EXPECT_EQ(monitor.step_times_s().size(), 3u);
  }
  auto log = baseline::ParseStepLog(testing::ReadFileOrDie(path), path);
  ASSERT_TRUE(log.ok()) << log.status().message();
  ASSERT_EQ(log->steps.size(), 3u);
  EXPECT_EQ(log->steps[0].dur_ns, 250000000);
  EXPECT_EQ(log->steps[0].samples, 32);
  EXPECT_EQ(log->steps[1].dur_ns, 125000000);
  EXPECT_EQ(log->steps[2].id, 2);
  EXPECT_EQ(log->steps[2].samples, 16);
  ASSERT_EQ(log->tags.size(), 1u);
  EXPECT_EQ(log->tags[0].second, "res\"net");
}

}  // namespace
}  // namespace perfdx
