// The HTML report of a small hand-made AnalyzeReport whose numbers are known
// by hand: every string from the trace escaped, every chart present with the
// marks the numbers call for (counted and placed by hand below), nothing the
// browser would fetch, and the same bytes on every rendering.
//
// Rank 0 (rank 1 is the same with rank id 1), times in ms:
//   step 5 [1, 11)   10   breakdown kernel 5, memcpy 1, data loading 4
//                         device preparing 2, computing 5, free 1, trailing 2
//   step 6 [11, 21)  10   breakdown kernel 6, communication 2, runtime 2
//                         device preparing 1, computing 6, comm 2 (exposed
//                         0.5), free 0.5, trailing 2
//   step 7 [21, 51)  30   breakdown kernel 6, data loading 24 (the outlier)
//                         device preparing 24, computing 6
//   median 10, p90 30; gaps [1, 3) data_loader, [21, 45) synchronization.
// So, per chart:
//   step time       3 points, 1 outlier; y axis 0..30 ms over 212 px
//                   (top 14, bottom 226): 30 ms at y 14.0, 10 ms at 155.3
//   step breakdown  3 + 3 + 2 = 8 segments; axis 0..30 ms over 232 px:
//                   data loading 24 ms is 185.6 px high, kernel 5 ms 38.7
//   device activity compute 3 + communication 2 (step 6: all, exposed) +
//                   memcpy 1 (step 5) + gaps 2 = 8 spans
//   memory          device 0: allocated, reserved, capacity; host:
//                   allocated only = 4 bars; axis 0..20 GiB
//   job (2 ranks)   temporal shares 3 per rank = 6; median and p90 per rank
//                   = 4; device time parts 4 + 5 + 2 per rank = 22
#include "perfdx/report/html_report.h"

#include <algorithm>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "perfdx/report/html_text.h"
#include "perfdx/report/text_layout.h"
#include "perfdx/version.h"
#include "report/cluster_fixture.h"

namespace perfdx::report {
namespace {

constexpr int64_t kMs = 1'000'000;
constexpr char kEvilKernel[] = "void k<float>() <script>alert(\"x\")</script> & more";

analysis::StepAnalysis Step(int64_t id, int64_t start_ms, int64_t end_ms) {
  analysis::StepAnalysis s;
  s.window.id = id;
  s.window.start_ns = start_ms * kMs;
  s.window.end_ns = end_ms * kMs;
  return s;
}

void SetShares(analysis::StepBreakdown& b, int64_t dur_ns) {
  const double d = static_cast<double>(dur_ns);
  b.shares = {static_cast<double>(b.kernel_ns) / d,   static_cast<double>(b.memcpy_ns) / d,
              static_cast<double>(b.memset_ns) / d,   static_cast<double>(b.communication_ns) / d,
              static_cast<double>(b.runtime_ns) / d,  static_cast<double>(b.dataloader_ns) / d,
              static_cast<double>(b.cpu_exec_ns) / d, static_cast<double>(b.other_ns) / d};
}

AnalyzeRank MakeRank(const model::Trace* trace) {
  AnalyzeRank r;
  analysis::RankAnalysis& a = r.analysis;
  a.trace = trace;
  a.rank_info = trace->info;
  analysis::StepAnalysis s5 = Step(5, 1, 11);
  s5.breakdown.kernel_ns = 5 * kMs;
  s5.breakdown.memcpy_ns = 1 * kMs;
  s5.breakdown.dataloader_ns = 4 * kMs;
  s5.device = {
      .computing_ns = 5 * kMs, .free_ns = 1 * kMs, .preparing_ns = 2 * kMs, .trailing_ns = 2 * kMs};
  analysis::StepAnalysis s6 = Step(6, 11, 21);
  s6.breakdown.kernel_ns = 6 * kMs;
  s6.breakdown.communication_ns = 2 * kMs;
  s6.breakdown.runtime_ns = 2 * kMs;
  s6.device = {.computing_ns = 6 * kMs,
               .communication_ns = 2 * kMs,
               .communication_not_overlapped_ns = kMs / 2,
               .free_ns = kMs / 2,
               .preparing_ns = 1 * kMs,
               .trailing_ns = 2 * kMs};
  analysis::StepAnalysis s7 = Step(7, 21, 51);
  s7.breakdown.kernel_ns = 6 * kMs;
  s7.breakdown.dataloader_ns = 24 * kMs;
  s7.device = {.computing_ns = 6 * kMs, .preparing_ns = 24 * kMs};
  for (analysis::StepAnalysis* s : {&s5, &s6, &s7}) SetShares(s->breakdown, s->window.dur_ns());
  a.steps = {s5, s6, s7};
  a.window_ns = 50 * kMs;
  a.step_time = {.count = 3,
                 .mean_ns = 50 * kMs / 3,
                 .median_ns = 10 * kMs,
                 .p90_ns = 30 * kMs,
                 .min_ns = 10 * kMs,
                 .max_ns = 30 * kMs,
                 .cv = 0.5657,
                 .outlier_steps = {7}};
  a.summary.device_utilization = 0.5;
  a.summary.idle_share = 0.5;
  a.temporal = {.idle_ns = 25 * kMs,
                .compute_ns = 20 * kMs,
                .non_compute_ns = 5 * kMs,
                .span_ns = 50 * kMs,
                .idle_share = 0.5,
                .compute_share = 0.4,
                .non_compute_share = 0.1};

  analysis::Gap g1;
  g1.start_ns = 1 * kMs;
  g1.dur_ns = 2 * kMs;
  g1.step = 5;
  g1.position = "start";
  g1.cause = {"data_loader", "DataLoader __next__", 0.9};
  analysis::Gap g2;
  g2.start_ns = 21 * kMs;
  g2.dur_ns = 24 * kMs;
  g2.step = 7;
  g2.position = "start";
  g2.cause = {"synchronization", "aten::item<'q'>", 1.0};
  a.gaps.gaps = {g1, g2};
  a.gaps.total_ns = 26 * kMs;

  analysis::KernelStat k1;
  k1.name = kEvilKernel;
  k1.count = 3;
  k1.total_ns = 15 * kMs;
  k1.min_ns = 4 * kMs;
  k1.max_ns = 6 * kMs;
  k1.share = 0.75;
  analysis::KernelStat k2;
  k2.name =
      "void at::native::vectorized_elementwise_kernel<4, at::native::AddFunctor<float>, "
      "at::detail::Array<char*, 3> >(int, at::native::AddFunctor<float>, "
      "at::detail::Array<char*, 3>)";
  k2.count = 1;
  k2.total_ns = 3 * kMs;
  k2.share = 0.15;
  analysis::KernelStat k3 = k2;
  k3.name =
      "void at::native::vectorized_elementwise_kernel<4, at::native::MulFunctor<float>, "
      "at::detail::Array<char*, 3> >(int, at::native::MulFunctor<float>, "
      "at::detail::Array<char*, 3>)";
  k3.total_ns = 2 * kMs;
  k3.share = 0.1;
  a.kernels.kernels = {k1, k2, k3};
  a.kernels.device_work_ns = 20 * kMs;
  a.ops.ops = {{"aten::mm<&>", 3, 4 * kMs, 1 * kMs, 15 * kMs, 15 * kMs}};

  analysis::DeviceMemory d0;
  d0.device_id = 0;
  d0.peak_allocated_bytes = int64_t{1} << 30;
  d0.peak_reserved_bytes = int64_t{2} << 30;
  d0.capacity_bytes = int64_t{16} << 30;
  analysis::DeviceMemory host;
  host.device_id = -1;
  host.peak_allocated_bytes = int64_t{64} << 20;
  a.memory.devices = {d0, host};

  r.health = {
      {"device_utilization", "device busy", 0.5, ">= 85%", advisor::HealthStatus::kAbnormal, true,
       true},
      {"comm_share", "communication share", 0, "", advisor::HealthStatus::kHealthy, false, true}};

  advisor::Finding f;
  f.rule = "data_loader_stall";
  f.severity = advisor::Severity::kCritical;
  f.title = "Data loading stalls the device <for> 28 ms";
  f.rank = trace->info.rank;
  f.evidence = {.metric = "dataloader_stall_share",
                .value = 0.56,
                .threshold = 0.05,
                .unit = "share",
                .ranges = {{1 * kMs, 3 * kMs}, {0, 1 * kMs}},
                .contributors = {{kEvilKernel, 15 * kMs, 0.75}},
                .details = {{"stall_ns_per_step", 9.0 * kMs}}};
  f.gain = advisor::EstimatedGain(9 * kMs, 0.54);
  f.recommendations = {
      {advisor::FixTarget::kPytorch, "Use <workers>.",
       "loader = DataLoader(ds, num_workers=8)  # <b>", "https://pytorch.org/docs/stable/data.html",
       "dataloader_parallel"},
      {advisor::FixTarget::kPytorch, "Not a web page.", "", "javascript:alert(1)", "bad_link"}};
  f.rests_on = {std::string("kernel:") + kEvilKernel};
  r.findings = {f};
  return r;
}

struct Fixture {
  model::Trace trace0, trace1;
  AnalyzeReport report;
};

// One rank (two_ranks = false) or two ranks of one job.
std::unique_ptr<Fixture> MakeReport(bool two_ranks) {
  auto f = std::make_unique<Fixture>();
  f->trace0.info.rank = 0;
  f->trace0.info.path = "runs/<b>rank0</b>.json";
  f->trace1.info.rank = 1;
  f->trace1.info.path = "runs/rank1.json";
  f->report.ranks.push_back(MakeRank(&f->trace0));
  AnalyzeJob job;
  job.members = {0};
  if (two_ranks) {
    f->report.ranks.push_back(MakeRank(&f->trace1));
    job.members.push_back(1);
  }
  f->report.jobs.push_back(job);
  f->report.warnings = {"a warning with <angle> brackets"};
  return f;
}

// The <svg id="ID" ...>...</svg> element, or "" when there is none.
std::string Svg(const std::string& html, const std::string& id) {
  const size_t start = html.find("<svg id=\"" + id + "\"");
  if (start == std::string::npos) return "";
  const size_t end = html.find("</svg>", start);
  return end == std::string::npos ? "" : html.substr(start, end + 6 - start);
}

size_t Count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + what.size())) ++n;
  return n;
}

TEST(HtmlReportTest, TraceStringsStayText) {
  auto f = MakeReport(false);
  const std::string html = RenderAnalyzeHtml(f->report);
  EXPECT_EQ(html.find("<script>alert"), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; more"),
            std::string::npos);
  // The page's own sorting script is its only script element.
  EXPECT_EQ(Count(html, "<script"), 1u);
  EXPECT_EQ(html.find("<b>rank0</b>"), std::string::npos);
  EXPECT_NE(html.find("runs/&lt;b&gt;rank0&lt;/b&gt;.json"), std::string::npos);
  EXPECT_NE(html.find("aten::mm&lt;&amp;&gt;"), std::string::npos);
  EXPECT_NE(html.find("aten::item&lt;&#39;q&#39;&gt;"), std::string::npos);
  EXPECT_NE(html.find("# &lt;b&gt;"), std::string::npos);  // the snippet
  EXPECT_NE(html.find("a warning with &lt;angle&gt; brackets"), std::string::npos);
  // The full name is in the title (hover) and in the copyable cell.
  EXPECT_GE(Count(html, "title=\"void k&lt;float&gt;() &lt;script&gt;"), 1u);
  EXPECT_EQ(Count(html, "<code class=\"copy\">void k&lt;float&gt;() &lt;script&gt;"), 1u);
}

TEST(HtmlReportTest, EveryChartWithTheMarksItsNumbersCallFor) {
  auto f = MakeReport(false);
  const std::string html = RenderAnalyzeHtml(f->report);

  const std::string step_time = Svg(html, "step-time-0");
  ASSERT_FALSE(step_time.empty());
  EXPECT_EQ(Count(step_time, "class=\"mark pt"), 3u);
  EXPECT_EQ(Count(step_time, "class=\"mark pt outlier\""), 1u);
  EXPECT_NE(step_time.find("cy=\"14.0\" r=\"6.0\""), std::string::npos) << step_time;  // 30 ms
  EXPECT_EQ(Count(step_time, "cy=\"155.3\""), 2u);                                     // 10 ms
  EXPECT_EQ(Count(step_time, "class=\"ref "), 2u);  // median, p90

  const std::string breakdown = Svg(html, "step-breakdown-0");
  ASSERT_FALSE(breakdown.empty());
  EXPECT_EQ(Count(breakdown, "class=\"mark seg"), 8u);
  EXPECT_EQ(Count(breakdown, "class=\"mark seg c-dataloader\""), 2u);
  EXPECT_EQ(Count(breakdown, "class=\"mark seg c-kernel\""), 3u);
  EXPECT_NE(breakdown.find("height=\"185.6\""), std::string::npos) << breakdown;
  EXPECT_NE(breakdown.find("height=\"38.7\""), std::string::npos) << breakdown;

  const std::string activity = Svg(html, "device-activity-0");
  ASSERT_FALSE(activity.empty());
  EXPECT_EQ(Count(activity, "class=\"mark span"), 8u);
  EXPECT_EQ(Count(activity, "class=\"mark span c-computing\""), 3u);
  EXPECT_EQ(Count(activity, "class=\"mark span c-comm"), 2u);
  EXPECT_EQ(Count(activity, "class=\"mark span c-memcpy\""), 1u);
  EXPECT_EQ(Count(activity, "class=\"mark span cause-data_loader\""), 1u);
  EXPECT_EQ(Count(activity, "class=\"mark span cause-synchronization\""), 1u);
  EXPECT_EQ(Count(activity, "class=\"boundary\""), 3u);  // a line per step start

  const std::string memory = Svg(html, "memory-0");
  ASSERT_FALSE(memory.empty());
  EXPECT_EQ(Count(memory, "class=\"mark hseg"), 4u);
  EXPECT_EQ(Count(memory, "class=\"mark hseg c-reserved\""), 1u);
  // The axis in GiB steps: 16 GiB / 4 rounds up to 5 GiB, so 0..20 GiB over
  // 736 px (200 .. 936): 1 GiB allocated is 36.8 px, 2 GiB reserved 73.6.
  EXPECT_NE(memory.find("width=\"36.8\""), std::string::npos) << memory;
  EXPECT_NE(memory.find("width=\"73.6\""), std::string::npos) << memory;
  EXPECT_NE(memory.find(">20.0 GiB</text>"), std::string::npos) << memory;

  // One rank: no job section.
  EXPECT_TRUE(Svg(html, "rank-breakdown-0").empty());
  // The health table, the finding with its gain, fix and what it rests on.
  EXPECT_NE(html.find("st-abnormal"), std::string::npos);
  EXPECT_NE(html.find("st-not_applicable"), std::string::npos);
  // FormatDuration keeps three significant digits, trailing zeros dropped.
  EXPECT_NE(html.find("Saves up to <b>9 ms per step</b> (54.0% of the mean step)"),
            std::string::npos);
  const size_t detail = html.find("<dt>stall_ns_per_step</dt><dd title=");
  ASSERT_NE(detail, std::string::npos);
  EXPECT_EQ(html.compare(html.find('>', detail + 30) + 1, 12, "9 ms</dd><dt"), 0)
      << html.substr(detail, 80);
  EXPECT_NE(html.find("class=\"rests\""), std::string::npos);
  // Times from the first step's start (1 ms), also before it.
  EXPECT_NE(html.find("<dt>where</dt><dd>t+0 ns – t+2 ms; t−1 ms – t+0 ns</dd>"),
            std::string::npos);
  EXPECT_NE(html.find("<summary>All 2 gaps</summary>"), std::string::npos);
  // Tables the page's script sorts.
  EXPECT_EQ(Count(html, "<table class=\"sortable kernels\">"), 1u);
  EXPECT_EQ(Count(html, "<table class=\"sortable ops\">"), 1u);
}

// The card and the finding lead with the number that ranks the finding:
// the bound, then the replay; the replay where it is the gain; the bound
// again where the replayed fix is one remedy of it.
TEST(HtmlReportTest, TheTopFindingsGainIsTheOneThatRanksIt) {
  auto f = MakeReport(false);
  ASSERT_FALSE(f->report.ranks[0].findings.empty());
  advisor::Finding& top = f->report.ranks[0].findings.front();
  top.gain = advisor::EstimatedGain(9'000'000, 0.54);
  EXPECT_NE(
      RenderAnalyzeHtml(f->report).find(">9 ms</b><span>top finding saves per step (at most)"),
      std::string::npos);
  top.prediction.available = true;
  top.prediction.what_if = "remove communication-wait";
  top.prediction.gain_ns_per_step = 2'000'000;
  top.prediction.gain_share = 0.12;
  top.prediction.replay_error = 0.001;
  std::string html = RenderAnalyzeHtml(f->report);
  EXPECT_NE(html.find(">2 ms</b><span>top finding saves per step (replayed)"), std::string::npos);
  EXPECT_NE(html.find("<b>Saves 2 ms per step (12.0%) by replay, of the 9 ms it measures</b>"),
            std::string::npos);
  top.prediction.one_remedy = true;
  html = RenderAnalyzeHtml(f->report);
  EXPECT_NE(html.find(">9 ms</b><span>top finding saves per step (at most)"), std::string::npos);
  EXPECT_NE(html.find("<b>Saves up to 9 ms per step (54.0%); by replay, remove "
                      "communication-wait alone saves 2 ms (12.0%)</b>"),
            std::string::npos);
}

TEST(HtmlReportTest, SeveralRanksSideBySide) {
  auto f = MakeReport(true);
  const std::string html = RenderAnalyzeHtml(f->report);
  for (const char* id : {"step-time-1", "step-breakdown-1", "device-activity-1", "memory-1"}) {
    EXPECT_FALSE(Svg(html, id).empty()) << id;
  }
  const std::string shares = Svg(html, "rank-breakdown-0");
  EXPECT_EQ(Count(shares, "class=\"mark hseg"), 6u);
  // compute 0.4 of the 736 px axis (200 .. 936).
  EXPECT_NE(shares.find("width=\"294.4\""), std::string::npos) << shares;
  EXPECT_EQ(Count(Svg(html, "rank-step-time-0"), "class=\"mark hseg"), 4u);
  EXPECT_EQ(Count(Svg(html, "rank-device-time-0"), "class=\"mark seg"), 22u);
  // Still one file, one script.
  EXPECT_EQ(Count(html, "<!DOCTYPE html>"), 1u);
  EXPECT_EQ(Count(html, "<script"), 1u);
}

// Written to a sink, the page goes out section by section (a page of 512
// ranks is never whole in memory): the head, one piece per rank, the end;
// together, the page RenderAnalyzeHtml returns.
TEST(HtmlReportTest, ToASinkOnePiecePerRank) {
  struct Pieces final : TextSink {
    void Write(std::string_view text) override { pieces.emplace_back(text); }
    std::vector<std::string> pieces;
  };
  auto f = MakeReport(true);
  ASSERT_EQ(f->report.ranks.size(), 2u);
  Pieces sink;
  RenderAnalyzeHtml(f->report, sink);
  ASSERT_EQ(sink.pieces.size(), 4u);
  EXPECT_EQ(sink.pieces[0].rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_EQ(sink.pieces[1].rfind("<section class=\"rank\" id=\"rank-0\">", 0), 0u);
  EXPECT_EQ(sink.pieces[2].rfind("<section class=\"rank\" id=\"rank-1\">", 0), 0u);
  EXPECT_EQ(Count(sink.pieces[1], "id=\"rank-1\""), 0u);
  EXPECT_NE(sink.pieces[3].find("</html>"), std::string::npos);
  std::string joined;
  for (const std::string& p : sink.pieces) joined += p;
  EXPECT_EQ(joined, RenderAnalyzeHtml(f->report));
}

TEST(HtmlReportTest, NothingTheBrowserWouldFetch) {
  auto f = MakeReport(true);
  const std::string html = RenderAnalyzeHtml(f->report);
  EXPECT_NE(html.find("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src "
                      "'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src "
                      "data:\">"),
            std::string::npos);
  // Every src= and href=: only <a href> may name another page (followed on a
  // click, not loaded); everything else stays in the file.
  const std::regex attr(R"re(<([a-zA-Z]+)\b[^>]*?\s(src|href)\s*=\s*"([^"]*)")re");
  size_t links = 0;
  for (auto it = std::sregex_iterator(html.begin(), html.end(), attr); it != std::sregex_iterator();
       ++it) {
    const std::string tag = (*it)[1], value = (*it)[3];
    if (tag == "a") {
      ++links;
      continue;
    }
    EXPECT_TRUE(value.rfind("data:", 0) == 0 || value.rfind('#', 0) == 0)
        << "<" << tag << "> " << (*it)[2] << "=" << value;
  }
  EXPECT_GE(links, 1u);
  EXPECT_EQ(html.find("src=\"http"), std::string::npos);
  EXPECT_EQ(html.find("@import"), std::string::npos);
  EXPECT_EQ(html.find("url("), std::string::npos);
  // A doc link that is not a web page is shown as text, never as a link.
  EXPECT_EQ(html.find("href=\"javascript:"), std::string::npos);
  EXPECT_NE(html.find("javascript:alert(1)"), std::string::npos);
  EXPECT_NE(html.find("<a href=\"https://pytorch.org/docs/stable/data.html\""), std::string::npos);
}

TEST(HtmlReportTest, Deterministic) {
  auto a = MakeReport(true);
  auto b = MakeReport(true);
  const std::string first = RenderAnalyzeHtml(a->report);
  EXPECT_EQ(first, RenderAnalyzeHtml(a->report));
  EXPECT_EQ(first, RenderAnalyzeHtml(b->report));
  // The page names the perfdx that wrote it, never when.
  EXPECT_NE(first.find(std::string("Written by perfdx ") + PERFDX_VERSION), std::string::npos);
}

TEST(HtmlReportTest, EmptyReportIsStillAPage) {
  AnalyzeReport report;
  const std::string html = RenderAnalyzeHtml(report);
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(html.find("No trace could be analysed."), std::string::npos);
  EXPECT_NE(html.find("</html>"), std::string::npos);
}

TEST(HtmlTextTest, EscapesEveryMarkupCharacter) {
  EXPECT_EQ(EscapeHtml("<a href='x'>\"&\"</a>"),
            "&lt;a href=&#39;x&#39;&gt;&quot;&amp;&quot;&lt;/a&gt;");
  EXPECT_EQ(EscapeHtml("plain µs"), "plain µs");
}

TEST(HtmlTextTest, DistinctNamesStayDistinct) {
  const std::string a = std::string(40, 'a') + "AddFunctor" + std::string(40, 'z');
  const std::string b = std::string(40, 'a') + "MulFunctor" + std::string(40, 'z');
  const std::string c = "short";
  EXPECT_EQ(ShortenMiddle(a, 40), ShortenMiddle(b, 40));
  const std::vector<std::string> shown = ShortenDistinct({a, b, c, c}, 40);
  ASSERT_EQ(shown.size(), 4u);
  EXPECT_NE(shown[0], shown[1]);
  EXPECT_LT(shown[0].size(), a.size());  // still shortened, only less
  EXPECT_EQ(shown[2], "short");
  EXPECT_EQ(shown[3], "short");  // the same name twice stays one name
}

// A job with its cluster section: the wait vs transit table, one row per
// rank and step, the rank's path escaped when it has no rank id.
TEST(HtmlReportTest, JobWithClusterHasTheWaitTransitTable) {
  auto f = MakeReport(/*two_ranks=*/true);
  cluster::ClusterAnalysis c;
  for (int64_t rank : {0, 1}) {
    cluster::ClusterRank r;
    r.member = static_cast<size_t>(rank);
    r.rank = rank;
    r.path = "runs/rank.json";
    for (int64_t id : {5, 6}) {
      cluster::ClusterStep st;
      st.id = id;
      st.step_ns = 10'000'000;
      st.wait_ns = 3'000'000;
      st.transit_ns = 1'000'000;
      r.steps.push_back(st);
    }
    c.ranks.push_back(r);
  }
  c.ranks[1].rank.reset();
  c.ranks[1].path = "runs/<i>x</i>.json";
  f->report.jobs[0].cluster = c;
  const std::string html = RenderAnalyzeHtml(f->report);
  EXPECT_NE(html.find("<h3>Wait vs transit per rank and step</h3>"), std::string::npos);
  size_t rows = 0;
  for (size_t at = html.find("<tr><td>rank 0</td>"); at != std::string::npos;
       at = html.find("<tr><td>rank 0</td>", at + 1))
    ++rows;
  EXPECT_EQ(rows, 2u);
  EXPECT_NE(html.find("<tr><td>runs/&lt;i&gt;x&lt;/i&gt;.json</td>"), std::string::npos);
  EXPECT_EQ(html.find("<i>x</i>"), std::string::npos);
}

// A job of 40 ranks: the table lists the first 16 and the slow one, and
// counts the rest (cluster_report.h ShownRanks, as the text and Markdown).
TEST(HtmlReportTest, LargeJobListsTheFirstAndTheSlowRanks) {
  auto f = MakeReport(/*two_ranks=*/true);
  cluster::ClusterAnalysis c = perfdx::testing::ClusterOfRanks(40);
  c.slow_ranks = {33};
  f->report.jobs[0].cluster = c;
  const std::string html = RenderAnalyzeHtml(f->report);
  EXPECT_NE(html.find("<tr><td>rank 15</td>"), std::string::npos);
  EXPECT_EQ(html.find("<tr><td>rank 16</td>"), std::string::npos);
  EXPECT_NE(html.find("<tr><td>rank 33</td>"), std::string::npos);
  EXPECT_NE(html.find("<p>23 more ranks in the JSON report"), std::string::npos);
}

}  // namespace
}  // namespace perfdx::report
