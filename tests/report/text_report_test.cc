#include "perfdx/report/text_report.h"

#include <algorithm>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "perfdx/pipeline/analyze.h"
#include "perfdx/report/text_layout.h"
#include "report/cluster_fixture.h"
#include "test_support.h"

namespace perfdx::report {
namespace {

// ResNet-50 on a V100 (TensorBoard plugin's sample): 6 findings, 69 kernels,
// 78 operators, 6 steps; every finding has a fix for PyTorch.
const std::string kTrace =
    "traces/kineto/tbp/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz";

// Built once for the suite (null if the trace cannot be read).
const AnalyzeReport& Report() {
  static AnalyzeReport* report = [] {
    pipeline::AnalyzeRequest request;
    request.paths = {perfdx::testing::SharedPath(kTrace)};
    auto r = pipeline::BuildAnalyzeReport(request);
    return r.ok() ? new AnalyzeReport(std::move(*r)) : nullptr;
  }();
  return *report;
}

class TextReportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(perfdx::testing::HaveShared()) << perfdx::testing::MissingSharedMessage();
    ASSERT_NE(&Report(), nullptr);
    ASSERT_EQ(Report().ranks.size(), 1u);
    ASSERT_GE(Report().ranks[0].findings.size(), 4u);
  }
};

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

size_t CountLinesStartingWith(const std::string& text, const std::string& prefix) {
  size_t n = 0;
  for (const std::string& l : Lines(text)) n += l.rfind(prefix, 0) == 0;
  return n;
}

// A link alone on its line: the one line that may pass the width, since a
// cut link can be neither clicked nor copied.
bool IsLinkLine(std::string_view l) {
  const size_t start = l.find_first_not_of(' ');
  if (start == std::string_view::npos) return false;
  l.remove_prefix(start);
  return (l.starts_with("https://") || l.starts_with("http://")) &&
         l.find(' ') == std::string_view::npos;
}

// Code with no place to cut that keeps it the same code (a shell string
// wider than the line) is left whole: the end of a line of some fix's code.
bool IsCodeLeftWhole(const AnalyzeReport& report, std::string_view l) {
  const size_t start = l.find_first_not_of(' ');
  if (start == std::string_view::npos) return false;
  l.remove_prefix(start);
  for (const auto& rank : report.ranks) {
    for (const auto& f : rank.findings) {
      for (const auto& r : f.recommendations) {
        for (size_t at = r.snippet.find(l); at != std::string::npos;
             at = r.snippet.find(l, at + 1)) {
          const size_t end = at + l.size();
          if (end == r.snippet.size() || r.snippet[end] == '\n') return true;
        }
      }
    }
  }
  return false;
}

TEST_F(TextReportTest, EveryLineFitsTheWidth) {
  size_t links_past_width = 0;
  for (int width : {40, 60, 80, 100, 200}) {
    for (bool color : {false, true}) {
      const std::string text = RenderAnalyzeText(Report(), {.width = width, .color = color});
      for (const std::string& l : Lines(text)) {
        if (IsLinkLine(l)) {
          links_past_width += DisplayWidth(l) > static_cast<size_t>(width);
          continue;
        }
        if (width <= 40 && IsCodeLeftWhole(Report(), l)) continue;
        EXPECT_LE(DisplayWidth(l), static_cast<size_t>(width)) << "width " << width << ": " << l;
      }
    }
  }
  EXPECT_GT(links_past_width, 0u) << "at 40 columns some link is wider than the line, and whole";
  // Under 40 the layout is 40 wide.
  for (const std::string& l : Lines(RenderAnalyzeText(Report(), {.width = 10}))) {
    if (IsLinkLine(l) || IsCodeLeftWhole(Report(), l)) continue;
    EXPECT_LE(DisplayWidth(l), 40u) << l;
  }
}

TEST_F(TextReportTest, ColourOnlyWhenAsked) {
  const std::string plain = RenderAnalyzeText(Report(), {.color = false});
  const std::string colour = RenderAnalyzeText(Report(), {.color = true});
  EXPECT_EQ(plain.find('\x1b'), std::string::npos);
  EXPECT_NE(colour.find("\x1b[1;31m[critical]\x1b[0m"), std::string::npos);
  EXPECT_NE(colour.find("\x1b[1mHEALTH\x1b[0m"), std::string::npos);
  // The same report less the escape sequences.
  std::string stripped;
  for (size_t i = 0; i < colour.size(); ++i) {
    if (colour[i] == '\x1b') {
      while (i < colour.size() && colour[i] != 'm') ++i;
      continue;
    }
    stripped += colour[i];
  }
  EXPECT_EQ(stripped, plain);
}

TEST_F(TextReportTest, TopLimitsRowsAndFindings) {
  const AnalyzeRank& rank = Report().ranks[0];
  const std::string two = RenderAnalyzeText(Report(), {.top = 2});
  EXPECT_NE(two.find("  1. "), std::string::npos);
  EXPECT_NE(two.find("  2. "), std::string::npos);
  EXPECT_EQ(two.find("  3. "), std::string::npos);
  EXPECT_NE(two.find(fmt::format("({} more findings: --top {} shows them all",
                                 rank.findings.size() - 2, rank.findings.size())),
            std::string::npos)
      << two;
  EXPECT_NE(two.find(fmt::format("top kernels (2 of {})", rank.analysis.kernels.kernels.size())),
            std::string::npos);
  EXPECT_NE(two.find(fmt::format("the 2 longest of {} steps", rank.analysis.steps.size())),
            std::string::npos);
  // Ops and kernels tables: a header and two rows each.
  EXPECT_EQ(CountLinesStartingWith(two, "    aten::"), 2u) << two;
  // The default is 10 of each.
  const std::string ten = RenderAnalyzeText(Report());
  EXPECT_EQ(CountLinesStartingWith(ten, "    aten::"), 10u) << ten;
  EXPECT_NE(ten.find(fmt::format("top kernels (10 of {})", rank.analysis.kernels.kernels.size())),
            std::string::npos);
}

TEST_F(TextReportTest, NoFixesHidesEveryFix) {
  const std::string with = RenderAnalyzeText(Report());
  const std::string without = RenderAnalyzeText(Report(), {.fixes = false});
  EXPECT_NE(with.find("fix for pytorch"), std::string::npos);
  EXPECT_NE(with.find("see https://"), std::string::npos);
  EXPECT_NE(with.find("num_workers=8"), std::string::npos);  // the DataLoader snippet
  EXPECT_EQ(without.find("fix for "), std::string::npos);
  EXPECT_EQ(without.find("see https://"), std::string::npos);
  EXPECT_EQ(without.find("num_workers=8"), std::string::npos);
  // The findings themselves stay.
  EXPECT_NE(without.find(". [critical] Data loading stalls"), std::string::npos) << without;
}

TEST_F(TextReportTest, WarningsComeFirst) {
  // The suite's report, with a warning for this test only.
  AnalyzeReport& report = const_cast<AnalyzeReport&>(Report());
  report.warnings.push_back("rank 1 skipped: run/rank1.json: at byte 27: not a trace");
  const std::string text = RenderAnalyzeText(report);
  report.warnings.pop_back();
  EXPECT_EQ(text.rfind("warnings\n  rank 1 skipped: run/rank1.json: at byte 27: not a trace\n", 0),
            0u)
      << text;
  EXPECT_LT(text.find("warnings"), text.find("═══ rank"));
  EXPECT_EQ(RenderAnalyzeText(Report()).find("warnings"), std::string::npos);
}

TEST_F(TextReportTest, NamesFromTheTraceSendNoEscapes) {
  // A kernel name with an escape sequence, a tab and a newline in it.
  AnalyzeReport& report = const_cast<AnalyzeReport&>(Report());
  std::string& name = report.ranks[0].analysis.kernels.kernels[0].name;
  const std::string saved = name;
  name = "evil\x1b[2J\tkernel\nname";
  const std::string text = RenderAnalyzeText(report, {.width = 60});
  name = saved;
  EXPECT_EQ(text.find('\x1b'), std::string::npos);
  EXPECT_EQ(text.find('\t'), std::string::npos);
  EXPECT_NE(text.find("    evil [2J kernel name"), std::string::npos) << text;
}

TEST_F(TextReportTest, KernelNamesReadDifferently) {
  // The shortened kernel names of the table, at 60 and 100 columns, are as
  // many as the kernels listed.
  const auto& kernels = Report().ranks[0].analysis.kernels.kernels;
  for (int width : {60, 100}) {
    const std::vector<std::string> lines = Lines(RenderAnalyzeText(Report(), {.width = width}));
    size_t at = 0;
    while (at < lines.size() && lines[at].rfind("  top kernels", 0) != 0) ++at;
    ASSERT_LT(at + 11, lines.size());
    std::set<std::string> names;
    for (size_t i = at + 2; i < at + 12; ++i)
      names.insert(lines[i].substr(0, lines[i].find("  ", 4)));
    EXPECT_EQ(names.size(), std::min<size_t>(10, kernels.size())) << "width " << width;
  }
}

// A job of 40 ranks: the per-rank table shows the first --top ranks and the
// slow one, says how many more the JSON holds, and names the slow rank's
// phase and kernel and the slow link; with 100 links only those below
// their transport's median are listed.
TEST(TextClusterTest, LargeJobShowsTheSlowRankAndLinkAndCountsTheRest) {
  cluster::ClusterAnalysis c = perfdx::testing::ClusterOfRanks(40, 10'000'000);
  for (size_t m = 1; m < 40; ++m) c.ranks[m].clock_matches = 4;
  cluster::RankStanding& s = c.ranks[33].standing;
  s.member = 33;
  s.steps = 1;
  s.late_steps = 1;
  s.wait_caused_ns = 2'500'000;
  for (cluster::StepPhase p : cluster::kStepPhases)
    s.phases.push_back({p, p == cluster::StepPhase::kCompute ? 6'000'000 : 0,
                        p == cluster::StepPhase::kCompute ? 5'000'000 : 0});
  s.phase = cluster::StepPhase::kCompute;
  s.kernel = cluster::KernelExcess{"MatMulV2", 3'000'000, 2'000'000, 4, 4};
  c.slow_ranks = {33};
  for (int64_t k = 0; k < 100; ++k)
    c.links.push_back({"g", k, k + 1, "HCCS", 1'000'000, k == 7 ? 100'000 : 50'000});
  c.slow_links = {{7, 10, 20, 100}};
  AnalyzeReport report;
  AnalyzeJob job;
  job.cluster = c;
  report.jobs.push_back(std::move(job));
  TextOptions options;
  options.width = 200;
  options.top = 5;
  const std::string text = RenderAnalyzeText(report, options);
  EXPECT_NE(text.find("  33       1"), std::string::npos) << text;
  EXPECT_EQ(text.find("  5        1"), std::string::npos) << text;  // rank 5: beyond --top
  EXPECT_NE(text.find("34 more ranks in the JSON report"), std::string::npos) << text;
  EXPECT_NE(text.find("rank 33 is last to the collectives in 1 of 1 steps; the others wait up "
                      "to 2.5 ms per step for it; its compute takes 6 ms vs the others' median "
                      "5 ms (most in MatMulV2: 3 ms vs 2 ms)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("34 more clock offsets"), std::string::npos) << text;
  EXPECT_NE(text.find("links below their transport's median (1 of 100 links"), std::string::npos)
      << text;
  EXPECT_NE(text.find("slow link: g 7 -> 8 (HCCS) at 10.0 GB/s, 50% below the median 20.0 GB/s "
                      "of 100 HCCS links"),
            std::string::npos)
      << text;
}

// A group whose links name more ranks than were profiled: the waits for
// the others cannot be pinned on a rank, and the report says so; a group
// whose links name only its profiled ranks gets no such line.
TEST(TextClusterTest, GroupWiderThanTheProfiledRanksIsNamed) {
  cluster::ClusterAnalysis c = perfdx::testing::ClusterOfRanks(2, 10'000'000);
  c.groups.push_back({.name = "Group 0 Communication", .members = {0, 1}, .linked_ranks = 8});
  c.groups.push_back({.name = "Group 1 Communication", .members = {0, 1}, .linked_ranks = 2});
  AnalyzeReport report;
  AnalyzeJob job;
  job.cluster = c;
  report.jobs.push_back(std::move(job));
  const std::string text = RenderAnalyzeText(report, {.width = 200});
  EXPECT_NE(text.find("Group 0 Communication: its links name 8 ranks, 2 of them profiled here: "
                      "the waits for the others are not pinned on a rank"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("Group 1 Communication: its links"), std::string::npos) << text;
}

}  // namespace
}  // namespace perfdx::report
