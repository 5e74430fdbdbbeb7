#include "perfdx/report/info_report.h"

#include <gtest/gtest.h>
#include <simdjson.h>

#include "perfdx/report/text_layout.h"
#include "test_support.h"

namespace perfdx::report {
namespace {

TEST(InfoReportTest, JsonCarriesTheContractKeys) {
  auto trace = perfdx::testing::ImportString(R"({"schemaVersion": 1,
    "distributedInfo": {"rank": 3, "world_size": 4, "backend": "nccl"},
    "traceEvents": [
      {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#7", "pid": 1, "tid": 1, "ts": 1000, "dur": 500},
      {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 1100, "dur": 100},
      {"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 1200, "dur": 600},
      {"ph": "M", "name": "process_name", "pid": 1, "args": {"name": "python3"}},
      {"ph": "X", "name": "bad", "pid": 1, "tid": 1, "ts": 1, "dur": -1}]})");
  ASSERT_TRUE(trace.ok());
  std::vector<model::Trace> traces;
  traces.push_back(std::move(*trace));
  const InfoReport report = BuildInfoReport(traces, {"discovery note"});
  const std::string json = RenderInfoJson(report);

  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  ASSERT_EQ(parser.parse(json).get(doc), simdjson::SUCCESS) << json;
  simdjson::dom::element rank = doc["ranks"].at(0);
  EXPECT_EQ(int64_t(rank["rank"]), 3);
  EXPECT_EQ(std::string_view(rank["path"]), "inline.json");
  EXPECT_EQ(std::string_view(rank["source"]), "kineto");
  EXPECT_EQ(std::string_view(rank["device_type"]), "cuda");
  // span: first ts 1000 ns*1000... the events are in microseconds:
  // 1000 us .. 1800 us (the kernel's end) = 800 us.
  EXPECT_EQ(int64_t(rank["span_ns"]), 800000);
  EXPECT_EQ(uint64_t(rank["events"]), 5u);
  EXPECT_EQ(uint64_t(rank["events_by_phase"]["X"]), 4u);
  EXPECT_EQ(uint64_t(rank["events_by_phase"]["M"]), 1u);
  EXPECT_EQ(uint64_t(rank["events_by_kind"]["compute_kernel"]), 1u);
  EXPECT_EQ(int64_t(rank["steps"].at(0)), 7);
  EXPECT_EQ(uint64_t(rank["tracks"]["count"]), 2u);
  EXPECT_EQ(uint64_t(rank["load_stats"]["event_negative_dur"]), 1u);
  simdjson::dom::array warnings = doc["warnings"];
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_EQ(std::string_view(warnings.at(0)), "discovery note");

  const std::string text = RenderInfoText(report);
  EXPECT_NE(text.find("rank 3  inline.json"), std::string::npos) << text;
  EXPECT_NE(text.find("steps    7"), std::string::npos) << text;
  EXPECT_NE(text.find("event_negative_dur"), std::string::npos) << text;

  // At 40 columns every line fits, and the steps and the load statistic are
  // still named.
  const std::string narrow = RenderInfoText(report, 40);
  for (const std::string& l : perfdx::testing::SplitLines(narrow)) {
    EXPECT_LE(DisplayWidth(l), 40u) << l;
  }
  EXPECT_NE(narrow.find("steps    7"), std::string::npos) << narrow;
  EXPECT_NE(narrow.find("event_negative_dur"), std::string::npos) << narrow;
}

}  // namespace
}  // namespace perfdx::report
