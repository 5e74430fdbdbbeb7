// The five renderings of a check verdict say the same thing, in their format.
#include "perfdx/report/check_report.h"

#include <regex>

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

// For the HTML page: five steps a side, medians 100 ms and 125 ms, and a
// label that tries to inject a script.
baseline::CheckResult WithSteps() {
  baseline::CheckResult r = Regressed();
  r.new_label = "<script>alert(1)</script>";
  r.base_steps = 5;
  r.new_steps = 5;
  r.base_step_ns = {110e6, 90e6, 100e6, 105e6, 95e6};
  r.new_step_ns = {135e6, 115e6, 125e6, 130e6, 120e6};
  return r;
}

size_t Count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
  return n;
}

TEST(CheckReport, HtmlPageHoldsTheVerdictAndTheTable) {
  const std::string page = RenderCheckHtml(WithSteps());
  EXPECT_EQ(page.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(page.find("Content-Security-Policy\" content=\"default-src 'none'"), std::string::npos);
  EXPECT_NE(page.find("<p class=\"verdict v-regressed\">regressed: median step time 100 ms "
                      "-&gt; 125 ms (+25.0%, 95% CI +10.0% .. +40.0%)"),
            std::string::npos)
      << page;
  EXPECT_NE(page.find("<td>median step time</td><td class=\"num\">100 ms</td><td "
                      "class=\"num\">125 ms</td><td class=\"num\">+25.0%</td>"),
            std::string::npos);
  EXPECT_NE(page.find("<td class=\"num\">+10.0% .. +40.0%</td>"), std::string::npos);
  EXPECT_NE(page.find("<td>throughput</td><td class=\"num\">640 samples/s</td>"),
            std::string::npos);
  EXPECT_NE(page.find("<td>steps</td><td class=\"num\">5</td><td class=\"num\">5</td>"),
            std::string::npos);
  EXPECT_NE(page.find("<li>a note</li>"), std::string::npos);
  EXPECT_EQ(page, RenderCheckHtml(WithSteps()));  // deterministic
}

TEST(CheckReport, HtmlEscapesEveryLabel) {
  const std::string page = RenderCheckHtml(WithSteps());
  EXPECT_EQ(page.find("<script"), std::string::npos);  // the page itself needs no script
  EXPECT_NE(page.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
  EXPECT_EQ(page.find("alert(1)</script>"), std::string::npos);
}

TEST(CheckReport, HtmlDrawsOneDotPerStepAndTheMediansWhereTheyBelong) {
  const std::string page = RenderCheckHtml(WithSteps());
  EXPECT_EQ(Count(page, "<svg id=\"check-distribution\""), 1u);
  EXPECT_EQ(Count(page, "<circle class=\"mark dot c-base\""), 5u);
  EXPECT_EQ(Count(page, "<circle class=\"mark dot c-new\""), 5u);
  EXPECT_EQ(Count(page, "class=\"mark"), 10u);  // nothing else counts as a mark
  // The axis spans every step and the band (90 .. 135 ms): 20 ms ticks (the
  // first 1-2-5 step >= 45/4 ms) from 80 to 140 ms, drawn over x = 130..920.
  // The base median 100 ms: 130 + 790 * 20/60 = 393.33; the new median
  // 125 ms: 130 + 790 * 45/60 = 722.5.
  std::vector<std::string> medians;
  const std::regex median_re("<line class=\"median\" x1=\"([0-9.]+)\"");
  for (auto it = std::sregex_iterator(page.begin(), page.end(), median_re);
       it != std::sregex_iterator(); ++it) {
    medians.push_back((*it)[1]);
  }
  EXPECT_EQ(medians, (std::vector<std::string>{"393.3", "722.5"}));
  // The step of 110 ms (the base's first): 130 + 790 * 30/60 = 525.
  EXPECT_NE(page.find("<circle class=\"mark dot c-base\" cx=\"525.0\""), std::string::npos);
  // The band: 100 ms × (1 - 10% .. 1 + 5%) = 90 .. 105 ms: x from
  // 130 + 790 * 10/60 = 261.67, 790 * 15/60 = 197.5 wide.
  EXPECT_NE(page.find("<rect class=\"band\" x=\"261.7\" y=\"6.0\" width=\"197.5\""),
            std::string::npos)
      << page;
  EXPECT_NE(page.find(">80 ms</text>"), std::string::npos);
  EXPECT_NE(page.find(">140 ms</text>"), std::string::npos);
}

TEST(CheckReport, HtmlWithoutStepTimesSaysSo) {
  const std::string page = RenderCheckHtml(Regressed());  // no step times
  EXPECT_EQ(Count(page, "class=\"mark"), 0u);
  EXPECT_NE(page.find("nothing to draw"), std::string::npos);
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
