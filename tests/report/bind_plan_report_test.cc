// perfdx bind --print's JSON (report/bind_plan_report.h) on the Kunpeng
// fixture tree (tests/data/host/README.md): 4 nodes of 32 cores, two NPUs per
// node, so split gives rank 7 the CPUs 112-127 with 112 for its main thread.
#include "perfdx/report/bind_plan_report.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "host/host_fixtures.h"
#include "perfdx/report/text_layout.h"
#include "perfdx/version.h"
#include "test_support.h"

namespace perfdx::report {
namespace {

// The plan's devices point into the topology: it lives as long as the test.
const host::HostTopology& Kunpeng() {
  static const host::HostTopology t =
      host::ReadSysfsTopology(host::SysRoot(host::FixturePath("kunpeng920_8npu")));
  return t;
}

host::BindPlan KunpengSplit() {
  host::BindRequest request;
  request.nproc = 8;
  request.policy = host::BindPolicy::kSplit;
  auto plan = host::MakeBindPlan(Kunpeng(), request);
  EXPECT_TRUE(plan.ok()) << plan.status().message();
  return plan.ok() ? *plan : host::BindPlan{};
}

TEST(ReportBindPlan, JsonHoldsEveryRank) {
  const std::string json = RenderBindPlanJson(KunpengSplit());
  EXPECT_NE(json.find("\"cpus\": \"112-127\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"main_cpus\": \"112\""), std::string::npos);
  EXPECT_NE(json.find("\"mem_policy\": \"preferred\""), std::string::npos);
}

// The text fits the width as the analyze report does: at 100 columns every
// rank's CPUs, main and workers; at 60 the workers column is left out, and
// said so; the commands whole.
TEST(ReportBindPlan, TextFitsTheWidth) {
  const std::string wide = RenderBindPlanText(KunpengSplit(), 100);
  EXPECT_NE(wide.find("112-127  112   113-127"), std::string::npos) << wide;
  EXPECT_NE(wide.find("rank 7: taskset -c 112-127 CMD\n"), std::string::npos) << wide;
  const std::string narrow = RenderBindPlanText(KunpengSplit(), 60);
  // The one word no cut keeps a shell word, CPU_AFFINITY_CONF's value, is
  // whole on its line after the export.
  for (const std::string& l : perfdx::testing::SplitLines(narrow)) {
    if (l.find("CPU_AFFINITY_CONF=") != std::string::npos) {
      EXPECT_NE(l.find("npu0:0-15,npu1:16-31,"), std::string::npos) << l;
      EXPECT_NE(l.find(",npu7:112-127"), std::string::npos) << l;
      continue;
    }
    EXPECT_LE(DisplayWidth(l), 60u) << l;
  }
  EXPECT_NE(narrow.find("torch_npu (all ranks):\n  export \\\n"), std::string::npos) << narrow;
  EXPECT_EQ(narrow.find("113-127"), std::string::npos) << narrow;
  EXPECT_NE(narrow.find("(workers left out to fit 60 columns; --json has them)"), std::string::npos)
      << narrow;
  EXPECT_NE(narrow.find("rank 7: numactl --physcpubind=112-127 --preferred=3 CMD\n"),
            std::string::npos)
      << narrow;
}

// The JSON names itself first (schema_version, report, perfdx_version), as
// the trace reports do, then the plan.
TEST(ReportBindPlan, JsonNamesItselfFirst) {
  const std::string json = RenderBindPlanJson(host::BindPlan{});
  const size_t schema = json.find("\"schema_version\": 1,");
  const size_t report = json.find("\"report\": \"bind_plan\",");
  const size_t version = json.find(std::string("\"perfdx_version\": \"") + PERFDX_VERSION + "\",");
  const size_t policy = json.find("\"policy\": \"cores\"");
  ASSERT_NE(schema, std::string::npos) << json;
  ASSERT_NE(report, std::string::npos) << json;
  ASSERT_NE(version, std::string::npos) << json;
  ASSERT_NE(policy, std::string::npos) << json;
  EXPECT_EQ(json.find('"'), schema) << json;
  EXPECT_LT(schema, report);
  EXPECT_LT(report, version);
  EXPECT_LT(version, policy);
  EXPECT_EQ(kBindPlanSchemaVersion, 1);
}

}  // namespace
}  // namespace perfdx::report
