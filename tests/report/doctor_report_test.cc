// perfdx doctor's text and JSON (report/doctor_report.h): a report made by
// hand, whose lines are written out here column by column, and the empty
// fixture root through RunDoctor.
#include "perfdx/report/doctor_report.h"

#include <gtest/gtest.h>

#include "host/host_fixtures.h"
#include "perfdx/version.h"

namespace perfdx::report {
namespace {

using host::Check;
using host::DoctorReport;
using host::Level;

bool Has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

DoctorReport TwoChecks() {
  DoctorReport r;
  r.root = "/tmp/box";
  Check governor;
  governor.id = "cpu.governor";
  governor.title = "CPU frequency governor";
  governor.level = Level::kWarning;
  governor.value = "ondemand";
  governor.recommended = "performance";
  governor.why = "clock ramps";
  governor.source = "https://example.org/governor";
  governor.fix = "cpupower frequency-set -g performance";
  Check thp;
  thp.id = "mm.thp";
  thp.title = "transparent huge pages";
  thp.level = Level::kOk;
  thp.value = "madvise";
  thp.recommended = "not shown: the check is ok";
  r.checks = {governor, thp};
  return r;
}

// Level in 9 columns, id in 28, then the value; a non-ok check's details
// indented by 10; the ok check's details are left out.
TEST(ReportDoctor, TextLinesByHand) {
  const std::string expected =
      "perfdx doctor: /tmp/box\n"
      "\n"
      "warning   cpu.governor                 ondemand\n"
      "          recommended: performance\n"
      "          why: clock ramps\n"
      "          fix: cpupower frequency-set -g performance\n"
      "          source: https://example.org/governor\n"
      "ok        mm.thp                       madvise\n"
      "\n"
      "summary: 2 checks: 1 ok, 0 info, 1 warning, 0 critical (0 unknown)\n";
  EXPECT_EQ(RenderDoctorText(TwoChecks()), expected);
}

// At 60 columns (21 for the value): the value under its column, a detail
// under its text, the fix cut where it still pastes (a backslash outside
// brackets), the link whole after its label, past the width.
TEST(ReportDoctor, TextWrapsToTheWidth) {
  DoctorReport r;
  r.root = "/tmp/box";
  Check limit;
  limit.id = "ulimit.memlock";
  limit.level = Level::kInfo;
  limit.value = "8 MiB (hard 8 MiB) for this shell and what it starts";
  limit.why = "RDMA and pinned host memory lock pages: a small limit makes registration fail";
  limit.fix = "echo '* - memlock unlimited' | sudo tee -a /etc/security/limits.conf  # then log in";
  limit.source = "https://man7.org/linux/man-pages/man2/getrlimit.2.html";
  r.checks = {limit};
  const std::string expected =
      "perfdx doctor: /tmp/box\n"
      "\n"
      "info      ulimit.memlock               8 MiB (hard 8 MiB)\n"
      "                                       for this shell and\n"
      "                                       what it starts\n"
      "          why: RDMA and pinned host memory lock pages: a\n"
      "               small limit makes registration fail\n"
      "          fix: echo '* - memlock unlimited' | sudo tee -a \\\n"
      "                   /etc/security/limits.conf  # then log in\n"
      "          source: https://man7.org/linux/man-pages/man2/getrlimit.2.html\n"
      "\n"
      "summary: 1 checks: 0 ok, 1 info, 0 warning, 0 critical (0 unknown)\n";
  EXPECT_EQ(RenderDoctorText(r, 60), expected);
  // No width under 40.
  EXPECT_EQ(RenderDoctorText(r, 10), RenderDoctorText(r, 40));
}

TEST(ReportDoctor, TextNamesThisMachine) {
  DoctorReport r;
  r.root = "/";
  EXPECT_TRUE(RenderDoctorText(r).starts_with("perfdx doctor: / (this machine)\n\n"));
}

// The JSON names itself first (schema_version, report, perfdx_version), as
// the trace reports do, then root, checks and summary.
TEST(ReportDoctor, JsonNamesItselfFirst) {
  const std::string json = RenderDoctorJson(TwoChecks());
  const size_t schema = json.find("\"schema_version\": 1,");
  const size_t report = json.find("\"report\": \"doctor\",");
  const size_t version = json.find(std::string("\"perfdx_version\": \"") + PERFDX_VERSION + "\",");
  const size_t root = json.find("\"root\": \"/tmp/box\"");
  ASSERT_NE(schema, std::string::npos) << json;
  ASSERT_NE(report, std::string::npos) << json;
  ASSERT_NE(version, std::string::npos) << json;
  ASSERT_NE(root, std::string::npos) << json;
  EXPECT_EQ(json.find('"'), schema) << json;
  EXPECT_LT(schema, report);
  EXPECT_LT(report, version);
  EXPECT_LT(version, root);
  EXPECT_EQ(kDoctorSchemaVersion, 1);
}

TEST(ReportDoctor, JsonSummaryCountsByHand) {
  const std::string json = RenderDoctorJson(TwoChecks());
  EXPECT_TRUE(Has(json, "\"total\": 2,")) << json;
  EXPECT_TRUE(Has(json, "\"ok\": 1,")) << json;
  EXPECT_TRUE(Has(json, "\"warning\": 1,")) << json;
  EXPECT_TRUE(Has(json, "\"critical\": 0,")) << json;
  EXPECT_TRUE(Has(json, "\"fix\": \"cpupower frequency-set -g performance\"")) << json;
  EXPECT_TRUE(json.ends_with("}\n")) << json;
}

// From host's HostDoctor.AnEmptyRootIsUnknownNeverACrash: the unknown count
// is in the JSON.
TEST(ReportDoctor, AnEmptyRootsJsonCountsTheUnknown) {
  std::map<std::string, std::string> env{{"PATH", "/usr/local/bin:/usr/bin:/bin"}};
  const DoctorReport r = host::RunDoctor(
      host::MakeDoctorInput(host::SysRoot(host::FixturePath("does-not-exist")), std::move(env)));
  const std::string json = RenderDoctorJson(r);
  EXPECT_TRUE(Has(json, "\"unknown\": ")) << json;
}

}  // namespace
}  // namespace perfdx::report
