#include "perfdx/baseline/record/report_run.h"

#include <gtest/gtest.h>

#include "perfdx/report/analyze_report.h"

namespace perfdx::baseline {
namespace {

// The analyze report contract (report/analyze_report.h), reduced to the keys
// a run record reads.
constexpr std::string_view kReport = R"({
 "ranks": [
  {"rank": 0, "device": "V100", "window": "steps",
   "steps": [{"id": 1, "dur_ns": 100, "breakdown_ns": {"kernel": 60, "other": 40}},
             {"id": 2, "dur_ns": 300, "breakdown_ns": {"kernel": 200, "other": 100}},
             {"id": 3, "dur_ns": 200, "breakdown_ns": {"kernel": 150, "other": 50}}],
   "summary": {"device_utilization": 0.7, "idle_share": 0.3},
   "kernels": [{"name": "gemm", "kind": "compute_kernel", "count": 3, "total_ns": 300},
               {"name": "Memcpy HtoD", "kind": "memcpy_h2d", "count": 3, "total_ns": 30}],
   "ops": [{"name": "aten::mm", "calls": 3, "host_total_ns": 90, "host_self_ns": 10}]},
  {"rank": 1, "steps": [{"id": 1, "dur_ns": 500}]}
 ],
 "findings": []
})";

TEST(ReportRun, ReadsTheFirstRank) {
  auto r = ParseAnalyzeReport(kReport, std::nullopt, "report.json");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->source, RunSource::kReport);
  EXPECT_EQ(r->rank, 0);
  EXPECT_EQ(r->device, "V100");
  ASSERT_EQ(r->steps.size(), 3u);
  EXPECT_EQ(r->steps[1].dur_ns, 300);
  EXPECT_EQ(r->metrics.at("step_time_median_ns"), 200);
  EXPECT_EQ(r->metrics.at("device_utilization"), 0.7);
  EXPECT_EQ(r->metrics.at("phase_kernel_ns"), (60 + 200 + 150) / 3.0);
  EXPECT_FALSE(r->items_complete);  // the report keeps only the top 50
  ASSERT_EQ(r->items.size(), 3u);
  EXPECT_EQ(r->items[0].name, "gemm");
  EXPECT_EQ(r->items[0].kind, "kernel");
  EXPECT_EQ(r->items[1].name, "aten::mm");
  EXPECT_EQ(r->items[1].kind, "operator");
  EXPECT_EQ(r->items[2].kind, "memcpy");
  ASSERT_EQ(r->notes.size(), 1u);  // "the report has 2 ranks; using the first"
}

// Issue #17: a report saved with a UTF-8 byte-order mark was taken for a
// trace ("no traceEvents array").
TEST(ReportRun, ALeadingByteOrderMarkIsSkipped) {
  const std::string report = "\xEF\xBB\xBF" + std::string(kReport);
  EXPECT_TRUE(LooksLikeAnalyzeReport(report));
  auto r = ParseAnalyzeReport(report, std::nullopt, "report.json");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->steps.size(), 3u);
}

TEST(ReportRun, RankSelection) {
  auto r = ParseAnalyzeReport(kReport, 1, "report.json");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->steps.size(), 1u);
  auto missing = ParseAnalyzeReport(kReport, 7, "report.json");
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_NE(missing.status().message().find("no rank 7"), std::string::npos);
}

TEST(ReportRun, RejectsWhatIsNotAReport) {
  EXPECT_FALSE(ParseAnalyzeReport("{\"ranks\": [", std::nullopt, "x").ok());
  EXPECT_FALSE(ParseAnalyzeReport("{\"ranks\": []}", std::nullopt, "x").ok());
  EXPECT_FALSE(
      ParseAnalyzeReport("{\"ranks\": [{\"steps\": [{\"id\": 1}]}]}", std::nullopt, "x").ok());
  EXPECT_TRUE(LooksLikeAnalyzeReport("\n{\n \"ranks\": ["));
  EXPECT_FALSE(LooksLikeAnalyzeReport("{\"traceEvents\": []}"));
}

// Issue #14: schema 1 reports start with {"schema_version": 1, "report":
// "analyze", ...}; info and check reports name themselves and are not read
// as analyze reports; a newer schema is refused with the versions named.
TEST(ReportRun, SchemaOneReportsNameThemselves) {
  EXPECT_EQ(kNewestAnalyzeSchema, report::kAnalyzeSchemaVersion);
  EXPECT_TRUE(LooksLikeAnalyzeReport(
      "{\n \"schema_version\": 1,\n \"report\": \"analyze\",\n \"perfdx_version\": \"0.1.0\""));
  EXPECT_TRUE(LooksLikeAnalyzeReport("{\"schema_version\":1,\"report\":\"analyze\"}"));
  EXPECT_FALSE(
      LooksLikeAnalyzeReport("{\"schema_version\": 1, \"report\": \"info\", \"ranks\": []}"));
  EXPECT_FALSE(LooksLikeAnalyzeReport("{\"schema_version\": 1, \"report\": \"check\"}"));
  EXPECT_FALSE(LooksLikeAnalyzeReport("{\"schema_version\": 1, \"traceEvents\": []}"));

  std::string newer(kReport);
  newer.insert(newer.find('{') + 1, "\"schema_version\": 2, \"report\": \"analyze\", ");
  auto r = ParseAnalyzeReport(newer, std::nullopt, "new.json");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("new.json: analyze report of schema 2"), std::string::npos)
      << r.status().message();
  std::string current(kReport);
  current.insert(current.find('{') + 1, "\"schema_version\": 1, \"report\": \"analyze\", ");
  EXPECT_TRUE(LooksLikeAnalyzeReport(current));
  EXPECT_TRUE(ParseAnalyzeReport(current, std::nullopt, "current.json").ok());
}

}  // namespace
}  // namespace perfdx::baseline
