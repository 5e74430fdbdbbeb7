// The four renderings of a check verdict say the same thing, in their format.
#include "perfdx/report/check_report.h"

#include <gtest/gtest.h>
#include <simdjson.h>

#include "perfdx/report/diff_report.h"

namespace perfdx::report {
namespace {

baseline::CheckResult Regressed() {
  baseline::CheckResult r;
  r.verdict = baseline::Verdict::kRegressed;
  r.interval = {true, 1.25, 1.10, 1.40, 0.95, 10000, 7};
  r.method = "bootstrap_median_ratio";
  r.beyond_noise = true;
  r.past_threshold = true;
  r.base_label = "main #3";
  r.new_label = "pr-<42>.jsonl";
  r.base_steps = 20;
  r.new_steps = 30;
  r.base_median_ns = 100e6;
  r.new_median_ns = 125e6;
  r.base_throughput = 640;
  r.new_throughput = 512;
  r.notes = {"a note"};
  return r;
}

TEST(CheckReport, JsonContract) {
  const std::string json = RenderCheckJson(Regressed());
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  ASSERT_EQ(parser.parse(json).get(doc), simdjson::SUCCESS) << json;
  EXPECT_EQ(std::string_view(doc["verdict"]), "regressed");
  EXPECT_EQ(double(doc["step_time_ratio"]), 1.25);
  simdjson::dom::array ci = doc["ci"];
  ASSERT_EQ(ci.size(), 2u);
  EXPECT_EQ(double(ci.at(0)), 1.10);
  EXPECT_EQ(double(ci.at(1)), 1.40);
  EXPECT_EQ(std::string_view(doc["method"]), "bootstrap_median_ratio");
  EXPECT_EQ(double(doc["base"]["median_step_ns"]), 100e6);
  EXPECT_EQ(int64_t(doc["new"]["steps"]), 30);
}

TEST(CheckReport, TextQuotesTheChangeAndTheInterval) {
  const std::string text = RenderCheckText(Regressed());
  EXPECT_EQ(
      text.rfind("regressed: median step time 100 ms -> 125 ms (+25.0%, 95% CI +10.0% .. +40.0%)",
                 0),
      0u)
      << text;
  EXPECT_NE(text.find("roll back"), std::string::npos);
  EXPECT_NE(text.find("throughput 640 samples/s -> 512 samples/s (-20.0%)"), std::string::npos)
      << text;
}

TEST(CheckReport, MarkdownTable) {
  const std::string md = RenderCheckMarkdown(Regressed());
  EXPECT_EQ(md.rfind("### :x: perfdx check: **regressed**", 0), 0u) << md;
  EXPECT_NE(md.find("| median step time | 100 ms | 125 ms | +25.0% (95% CI +10.0% .. +40.0%) |"),
            std::string::npos)
      << md;
}

TEST(CheckReport, JunitFailsOnlyOnRegression) {
  const std::string failed = RenderCheckJunit(Regressed());
  EXPECT_NE(failed.find("failures=\"1\""), std::string::npos);
  EXPECT_NE(failed.find("<failure type=\"regression\""), std::string::npos);
  EXPECT_NE(failed.find("pr-&lt;42&gt;.jsonl"), std::string::npos);  // escaped
  EXPECT_EQ(failed.find("pr-<42>"), std::string::npos);

  baseline::CheckResult ok = Regressed();
  ok.verdict = baseline::Verdict::kUnchanged;
  const std::string passed = RenderCheckJunit(ok);
  EXPECT_NE(passed.find("failures=\"0\""), std::string::npos);
  EXPECT_EQ(passed.find("<failure"), std::string::npos);
}

TEST(DiffReport, JsonContract) {
  baseline::DiffResult d;
  d.base_label = "a";
  d.new_label = "b";
  d.base_steps = 2;
  d.new_steps = 2;
  d.added = {{"new_kernel", "kernel", 0, 4, 0, 800, 0, 400}};
  d.removed = {{"old_op", "operator", 2, 0, 100, 0, 50, 0}};
  d.changed = {{"gemm", "kernel", 2, 2, 1000, 1200, 500, 600}};
  d.metrics = {{"step_time_median_ns", 100, 110}};
  d.phases = {{"kernel", 50, 60}};
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  const std::string json = RenderDiffJson(d);
  ASSERT_EQ(parser.parse(json).get(doc), simdjson::SUCCESS) << json;
  EXPECT_EQ(std::string_view(doc["added"].at(0)), "new_kernel");
  EXPECT_EQ(std::string_view(doc["removed"].at(0)), "old_op");
  simdjson::dom::element changed = doc["changed"].at(0);
  EXPECT_EQ(std::string_view(changed["name"]), "gemm");
  EXPECT_EQ(int64_t(changed["base_ns"]), 1000);
  EXPECT_EQ(int64_t(changed["new_ns"]), 1200);
  EXPECT_EQ(int64_t(changed["base_count"]), 2);
  EXPECT_EQ(int64_t(changed["new_count"]), 2);
  EXPECT_EQ(double(changed["delta_ns_per_step"]), 100);
  EXPECT_EQ(double(doc["metrics"]["step_time_median_ns"]["delta"]), 10);
  EXPECT_DOUBLE_EQ(double(doc["metrics"]["step_time_median_ns"]["relative"]), 0.1);
  EXPECT_EQ(double(doc["phases"]["kernel"]["delta_ns_per_step"]), 10);
}

}  // namespace
}  // namespace perfdx::report
