// `check` acceptance on the ResNet-50 pair (DataLoader with 0 and 4 workers):
// the expected step times come from the TensorBoard plugin's own per-step
// totals (../shared/golden/tbp/*.json, "overview"), not from perfdx.
#include "perfdx/baseline/compare/check.h"

#include <algorithm>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <simdjson.h>

#include "perfdx/baseline/record/run_input.h"
#include "perfdx/report/check_report.h"
#include "test_support.h"

namespace perfdx::baseline {
namespace {

// The plugin's step totals (µs) -> their median in ns, computed here.
double GoldenMedianNs(const std::string& file) {
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  EXPECT_EQ(parser.load(testing::SharedPath("golden/tbp/" + file)).get(doc), simdjson::SUCCESS);
  std::vector<double> totals;
  for (simdjson::dom::element row : doc["overview"]["per_step_us"].get_array()) {
    totals.push_back(static_cast<double>(int64_t(row["Total(sum of categories)"])) * 1000);
  }
  std::sort(totals.begin(), totals.end());
  const size_t n = totals.size();
  EXPECT_EQ(n, 6u);
  return n % 2 ? totals[n / 2] : (totals[n / 2 - 1] + totals[n / 2]) / 2;
}

RunRecord Load(const std::string& relative) {
  auto r = LoadRunInput(testing::SharedPath(relative), {});
  EXPECT_TRUE(r.ok()) << r.status().message();
  return r.ok() ? std::move(r).value() : RunRecord{};
}

const char kWorkers0[] = "traces/kineto/tbp/resnet50_num_workers_0";
const char kWorkers4[] = "traces/kineto/tbp/resnet50_num_workers_4";

TEST(CheckAcceptance, FourWorkersImproveOnZero) {
  PERFDX_REQUIRE_SHARED();
  const double median0 = GoldenMedianNs("resnet50_num_workers_0.json");  // 177.443 ms
  const double median4 = GoldenMedianNs("resnet50_num_workers_4.json");
  auto r = CheckRun(Load(kWorkers0), Load(kWorkers4));
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->verdict, Verdict::kImproved);
  EXPECT_NEAR(r->base_median_ns, median0, 0.01 * median0);
  EXPECT_NEAR(r->new_median_ns, median4, 0.01 * median4);
  EXPECT_NEAR(r->interval.ratio, median4 / median0, 0.01);
  EXPECT_LT(r->interval.low, r->interval.ratio);
  EXPECT_LT(r->interval.high, 1.0);
  EXPECT_TRUE(r->beyond_noise);
  // The text quotes the change.
  const std::string change = fmt::format("{:+.1f}%", (median4 / median0 - 1) * 100);
  EXPECT_NE(report::CheckSummary(*r).find(change), std::string::npos) << report::CheckSummary(*r);
  EXPECT_EQ(report::CheckSummary(*r).rfind("improved", 0), 0u);
}

TEST(CheckAcceptance, ZeroWorkersRegressFromFour) {
  PERFDX_REQUIRE_SHARED();
  const double median0 = GoldenMedianNs("resnet50_num_workers_0.json");
  const double median4 = GoldenMedianNs("resnet50_num_workers_4.json");
  auto r = CheckRun(Load(kWorkers4), Load(kWorkers0));
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->verdict, Verdict::kRegressed);
  EXPECT_NEAR(r->interval.ratio, median0 / median4, 0.01);
  EXPECT_GT(r->interval.low, 1.0);
}

TEST(CheckAcceptance, ATraceAgainstItselfIsUnchanged) {
  PERFDX_REQUIRE_SHARED();
  for (const char* trace : {kWorkers0, kWorkers4}) {
    auto r = CheckRun(Load(trace), Load(trace));
    ASSERT_TRUE(r.ok()) << r.status().message();
    EXPECT_EQ(r->verdict, Verdict::kUnchanged);
    EXPECT_DOUBLE_EQ(r->interval.ratio, 1.0);
    EXPECT_FALSE(r->beyond_noise);
    EXPECT_NE(
        std::find(r->notes.begin(), r->notes.end(), "both runs come from the same input file"),
        r->notes.end());
  }
}

// The step times the result carries (the HTML page draws them) are the ones
// left after the warm-up cut, in step order.
TEST(CheckAcceptance, CarriesTheStepTimesAfterTheWarmUpCut) {
  PERFDX_REQUIRE_SHARED();
  const RunRecord all = Load(kWorkers0);
  ASSERT_EQ(all.steps.size(), 6u);  // the plugin's golden has 6 steps
  RunInputOptions warm;
  warm.warmup_steps = 2;
  auto cut = LoadRunInput(testing::SharedPath(kWorkers0), warm);
  ASSERT_TRUE(cut.ok()) << cut.status().message();
  auto r = CheckRun(*cut, all);
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->base_step_ns.size(), 4u);
  ASSERT_EQ(r->new_step_ns.size(), 6u);
  for (size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(r->new_step_ns[i], static_cast<double>(all.steps[i].dur_ns)) << i;
    if (i >= 2) {
      EXPECT_EQ(r->base_step_ns[i - 2], static_cast<double>(all.steps[i].dur_ns)) << i;
    }
  }
  EXPECT_EQ(r->base_steps, r->base_step_ns.size());
}

RunRecord Synthetic(std::vector<int64_t> step_ns) {
  RunRecord r;
  r.input_path = "synthetic";
  for (size_t i = 0; i < step_ns.size(); ++i)
    r.steps.push_back({static_cast<int64_t>(i), step_ns[i], 0, {}});
  AddStepMetrics(r);
  return r;
}

TEST(Check, NeedsEnoughStepsOnEachSide) {
  auto r = CheckRun(Synthetic({100, 100}), Synthetic({100, 100, 100}));
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidInput);
  EXPECT_NE(r.status().message().find("at least 3"), std::string::npos);
}

TEST(Check, ThresholdsAreConfigurable) {
  // 8% slower on every step: a regression at 5%, not at 10%.
  const RunRecord base = Synthetic({100, 101, 99, 100, 101, 99, 100, 100, 101, 99});
  const RunRecord slower = Synthetic({108, 109, 107, 108, 109, 107, 108, 108, 109, 107});
  EXPECT_EQ(CheckRun(base, slower)->verdict, Verdict::kRegressed);
  CheckOptions lenient;
  lenient.thresholds.max_regression = 0.10;
  auto r = CheckRun(base, slower, lenient);
  EXPECT_EQ(r->verdict, Verdict::kUnchanged);
  EXPECT_TRUE(r->beyond_noise);
  EXPECT_FALSE(r->past_threshold);
}

}  // namespace
}  // namespace perfdx::baseline
