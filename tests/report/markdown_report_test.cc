#include "perfdx/report/markdown_report.h"

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "perfdx/pipeline/analyze.h"
#include "perfdx/report/html_text.h"
#include "perfdx/report/markdown.h"
#include "perfdx/report/text_layout.h"
#include "perfdx/report/units.h"
#include "report/cluster_fixture.h"
#include "test_support.h"

namespace perfdx::report {
namespace {

TEST(MarkdownEscapeTest, CellsText) {
  EXPECT_EQ(MdCell("a|b\nc"), "a\\|b c");
  EXPECT_EQ(MdCell("plain"), "plain");
  EXPECT_EQ(MdText("kernel<4, float>"), "kernel&lt;4, float&gt;");
  EXPECT_EQ(MdText("a_b*c|d"), "a\\_b\\*c\\|d");
  EXPECT_EQ(MdText("x & y"), "x &amp; y");
}

TEST(MarkdownEscapeTest, CodeSpans) {
  EXPECT_EQ(MdCode("aten::add_"), "`aten::add_`");
  EXPECT_EQ(MdCode("k<a|b>"), "`k<a\\|b>`");
  EXPECT_EQ(MdCode("a`b"), "``a`b``");
  EXPECT_EQ(MdCode("`x"), "`` `x ``");
  EXPECT_EQ(EscapeHtml(Printable("<b> & \"q\"")), "&lt;b&gt; &amp; &quot;q&quot;");
  EXPECT_EQ(EscapeHtml(Printable("a\nb\x1b[1m")), "a b [1m");
  EXPECT_EQ(MdCell("a\tb\r\n"), "a b  ");
}

const std::string kTrace =
    "traces/kineto/tbp/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz";

class MarkdownReportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(perfdx::testing::HaveShared()) << perfdx::testing::MissingSharedMessage();
    pipeline::AnalyzeRequest request;
    request.paths = {perfdx::testing::SharedPath(kTrace)};
    auto r = pipeline::BuildAnalyzeReport(request);
    ASSERT_TRUE(r.ok()) << r.status().message();
    report_ = std::move(*r);
    ASSERT_EQ(report_.ranks.size(), 1u);
    ASSERT_GE(report_.ranks[0].findings.size(), 4u);
  }
  AnalyzeReport report_;
};

size_t Count(const std::string& s, const std::string& part) {
  size_t n = 0;
  for (size_t at = s.find(part); at != std::string::npos; at = s.find(part, at + 1)) ++n;
  return n;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

TEST_F(MarkdownReportTest, TitleHealthTableAndCollapsibleFindings) {
  const std::string md = RenderAnalyzeMarkdown(report_);
  const auto& findings = report_.ranks[0].findings;
  EXPECT_EQ(md.rfind(fmt::format("### :x: perfdx analyze: {} findings", findings.size()), 0), 0u)
      << md.substr(0, 200);
  EXPECT_NE(md.find("| | health | value | healthy |\n|:-:|---|--:|---|\n"), std::string::npos);
  EXPECT_NE(md.find("| :x: | data-loading stall | 33.4% | &lt;= 5% |"), std::string::npos) << md;
  // One <details> per finding (at most --top), one per table, all closed.
  EXPECT_EQ(Count(md, "<details><summary>"), std::min<size_t>(findings.size(), 10) + 2);
  EXPECT_EQ(Count(md, "<details>"), Count(md, "</details>"));
  EXPECT_NE(md.find("<details><summary>:red_circle: <b>critical</b> · Data loading stalls"),
            std::string::npos);
  EXPECT_NE(md.find("**Fix for pytorch**"), std::string::npos);
  // Evidence details in their units, never a raw number of nanoseconds.
  EXPECT_EQ(md.find("e+0"), std::string::npos) << md;
  // Code fences open and close.
  size_t fences = 0;
  for (const std::string& l : Lines(md)) fences += l.rfind("```", 0) == 0;
  EXPECT_GT(fences, 0u);
  EXPECT_EQ(fences % 2, 0u);
  // Tables are short: 10 rows by default.
  EXPECT_NE(md.find(fmt::format("Top kernels (10 of {})",
                                report_.ranks[0].analysis.kernels.kernels.size())),
            std::string::npos);
}

TEST_F(MarkdownReportTest, TopAndNoFixes) {
  const std::string md = RenderAnalyzeMarkdown(report_, {.top = 2, .fixes = false});
  EXPECT_EQ(Count(md, "<details><summary>"), 2u + 2u);
  EXPECT_NE(md.find(fmt::format("_{} more findings in", report_.ranks[0].findings.size() - 2)),
            std::string::npos);
  EXPECT_EQ(md.find("**Fix for"), std::string::npos);
  EXPECT_EQ(md.find("```"), std::string::npos);
  EXPECT_NE(md.find("Top kernels (2 of"), std::string::npos);
}

TEST_F(MarkdownReportTest, NamesAreEscapedInCells) {
  analysis::KernelStat& k = report_.ranks[0].analysis.kernels.kernels[0];
  k.name = "evil|kernel<T>\nsecond line";
  const std::string md = RenderAnalyzeMarkdown(report_);
  EXPECT_NE(md.find("| `evil\\|kernel<T> second line` |"), std::string::npos) << md;
  // Every table row still has its five cells on one line.
  for (const std::string& l : Lines(md)) {
    if (l.rfind("| `evil", 0) == 0) {
      EXPECT_EQ(Count(l, " | "), 4u) << l;
    }
  }
}

TEST_F(MarkdownReportTest, StaysUnderGitHubsCommentLimit) {
  // 400 findings with long titles, all asked for: well past 65,536 bytes.
  advisor::Finding f = report_.ranks[0].findings[0];
  f.title = std::string(300, 'x');
  for (int i = 0; i < 400; ++i) report_.ranks[0].findings.push_back(f);
  const std::string full = RenderAnalyzeMarkdown(report_, {.top = 1000, .max_bytes = 1u << 30});
  ASSERT_GT(full.size(), kGitHubCommentLimit);
  const std::string md = RenderAnalyzeMarkdown(report_, {.top = 1000});
  EXPECT_LE(md.size(), kGitHubCommentLimit);
  EXPECT_NE(md.find("Shortened to fit GitHub's 65,536-character comment limit"), std::string::npos);
  EXPECT_EQ(Count(md, "<details>"), Count(md, "</details>"));
  EXPECT_NE(md.find("more findings in `perfdx analyze --format json`"), std::string::npos);
  // A limit under even one finding and one row per table: cut at a line,
  // the blocks closed.
  const std::string tiny = RenderAnalyzeMarkdown(report_, {.top = 1000, .max_bytes = 1000});
  EXPECT_LE(tiny.size(), 1000u);
  EXPECT_EQ(Count(tiny, "<details>"), Count(tiny, "</details>")) << tiny;
  EXPECT_NE(tiny.find("Cut here to fit GitHub's comment limit"), std::string::npos) << tiny;
}

}  // namespace
}  // namespace perfdx::report

namespace perfdx::report {
namespace {

// A job of two ranks: the cluster section's table, one row per rank and step,
// each rank's wait and transit as the cluster section has them.
TEST(MarkdownClusterTest, JobOfTwoRanksHasTheWaitTransitTable) {
  ASSERT_TRUE(perfdx::testing::HaveShared()) << perfdx::testing::MissingSharedMessage();
  pipeline::AnalyzeRequest request;
  request.paths = {perfdx::testing::SharedPath("traces/ascend/torch_npu_2rank_text_level1")};
  auto r = pipeline::BuildAnalyzeReport(request);
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->jobs.size(), 1u);
  ASSERT_TRUE(r->jobs[0].cluster.has_value());
  const std::string md = RenderAnalyzeMarkdown(*r);
  EXPECT_NE(md.find("| rank | step | time | computing | comm exposed | wait | transit |"),
            std::string::npos);
  for (const cluster::ClusterRank& rank : r->jobs[0].cluster->ranks) {
    ASSERT_EQ(rank.steps.size(), 1u);
    const std::string row =
        fmt::format("| {} | 50 | {} |", *rank.rank, FormatDuration(rank.steps[0].step_ns));
    EXPECT_NE(md.find(row), std::string::npos) << row;
  }
}

// A job of 30 ranks: the first --top ranks and the slow one are listed, the
// rest counted (the JSON report has them all).
TEST(MarkdownClusterTest, LargeJobListsTheFirstAndTheSlowRanks) {
  cluster::ClusterAnalysis c = perfdx::testing::ClusterOfRanks(30);
  c.slow_ranks = {27};
  AnalyzeReport report;
  AnalyzeJob job;
  job.cluster = c;
  report.jobs.push_back(std::move(job));
  MarkdownOptions options;
  options.top = 3;
  const std::string md = RenderAnalyzeMarkdown(report, options);
  EXPECT_NE(md.find("| 2 | 1 |"), std::string::npos) << md;
  EXPECT_EQ(md.find("| 3 | 1 |"), std::string::npos) << md;
  EXPECT_NE(md.find("| 27 | 1 |"), std::string::npos) << md;
  EXPECT_NE(md.find("26 more ranks in the JSON report"), std::string::npos) << md;
}

}  // namespace
}  // namespace perfdx::report
