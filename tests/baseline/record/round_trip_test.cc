// JSON → run record ≡ analysis → run record (issue 9, item 6): the record
// `perfdx baseline add` takes from an analyze report equals the one it takes
// from the trace itself, in its steps, step phases and metrics. Items differ
// only as report_run.h says: the report keeps the top 50 ops and kernels, so
// its items are a subset (marked incomplete) of the trace's full inventory,
// each with the same count and total.
#include <cmath>
#include <map>
#include <string>
#include <utility>

#include <gtest/gtest.h>

#include "perfdx/baseline/record/report_run.h"
#include "perfdx/baseline/record/trace_run.h"
#include "perfdx/pipeline/analyze.h"
#include "test_support.h"

namespace perfdx::baseline {
namespace {

void ExpectSameRecord(const std::string& path) {
  pipeline::AnalyzeRequest request;
  request.paths = {path};
  request.keep_traces = true;  // the inventory is taken from the trace
  auto report = pipeline::BuildAnalyzeReport(request);
  ASSERT_TRUE(report.ok()) << report.status().message();
  ASSERT_EQ(report->ranks.size(), 1u);
  const analysis::RankAnalysis& analysis = report->ranks[0].analysis;
  const RunRecord from_analysis = RecordFromAnalysis(analysis);
  auto from_json =
      ParseAnalyzeReport(report::RenderAnalyzeJson(*report), analysis.info().rank, path);
  ASSERT_TRUE(from_json.ok()) << from_json.status().message();

  EXPECT_EQ(from_json->rank, from_analysis.rank);
  EXPECT_EQ(from_json->device, from_analysis.device);
  EXPECT_EQ(from_json->window, from_analysis.window);

  ASSERT_FALSE(from_analysis.steps.empty());
  ASSERT_EQ(from_json->steps.size(), from_analysis.steps.size());
  for (size_t i = 0; i < from_analysis.steps.size(); ++i) {
    const StepSample& a = from_analysis.steps[i];
    const StepSample& j = from_json->steps[i];
    EXPECT_EQ(j.id, a.id) << "step " << i;
    EXPECT_EQ(j.dur_ns, a.dur_ns) << "step " << a.id;
    EXPECT_EQ(j.samples, a.samples) << "step " << a.id;
    EXPECT_EQ(j.phases_ns, a.phases_ns) << "step " << a.id;
  }

  // Every metric key of one is in the other, equal within 1e-9 relative.
  ASSERT_FALSE(from_analysis.metrics.empty());
  for (const auto& [key, value] : from_analysis.metrics) {
    auto it = from_json->metrics.find(key);
    ASSERT_NE(it, from_json->metrics.end()) << key << " missing from the report's record";
    EXPECT_NEAR(it->second, value, 1e-9 * std::max(std::fabs(value), 1.0)) << key;
  }
  for (const auto& [key, value] : from_json->metrics)
    EXPECT_TRUE(from_analysis.metrics.contains(key)) << key << " missing from the trace's record";

  // Items: the report's top-N lists, each entry as in the full inventory.
  EXPECT_TRUE(from_analysis.items_complete);
  EXPECT_FALSE(from_json->items_complete);
  std::map<std::pair<std::string, std::string>, const RunItem*> inventory;
  for (const RunItem& item : from_analysis.items) inventory[{item.kind, item.name}] = &item;
  ASSERT_FALSE(from_json->items.empty());
  for (const RunItem& item : from_json->items) {
    auto it = inventory.find({item.kind, item.name});
    ASSERT_NE(it, inventory.end())
        << item.kind << " " << item.name << " not in the trace's inventory";
    EXPECT_EQ(item.count, it->second->count) << item.kind << " " << item.name;
    EXPECT_EQ(item.total_ns, it->second->total_ns) << item.kind << " " << item.name;
  }
}

TEST(RoundTrip, GoldenTrace) {
  ExpectSameRecord("tests/data/golden/small_cuda_trace.json");
}

// A real trace; a missing ../shared fails this test (it is no skip).
TEST(RoundTrip, SharedResnet50Trace) {
  ASSERT_TRUE(perfdx::testing::HaveShared()) << "../shared not found: run from the repository root";
  ExpectSameRecord(perfdx::testing::SharedPath("traces/kineto/tbp/resnet50_num_workers_0"));
}

}  // namespace
}  // namespace perfdx::baseline
