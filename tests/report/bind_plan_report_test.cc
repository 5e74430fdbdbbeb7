// perfdx bind --print's JSON (report/bind_plan_report.h) on the Kunpeng
// fixture tree (tests/data/host/README.md): 4 nodes of 32 cores, two NPUs per
// node, so split gives rank 7 the CPUs 112-127 with 112 for its main thread.
#include "perfdx/report/bind_plan_report.h"

#include <gtest/gtest.h>

#include "host/host_fixtures.h"
#include "perfdx/version.h"

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
