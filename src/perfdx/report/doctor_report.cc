#include "perfdx/report/doctor_report.h"

#include <cstdint>

#include <fmt/format.h>

#include "perfdx/base/json_writer.h"
#include "perfdx/version.h"

namespace perfdx::report {

using host::Check;
using host::Level;
using host::LevelName;

std::string RenderDoctorText(const host::DoctorReport& report) {
  std::string out = fmt::format("perfdx doctor: {}{}\n\n", report.root,
                                report.root == "/" ? " (this machine)" : "");
  for (const auto& c : report.checks) {
    out += fmt::format("{:<9} {:<28} {}\n", LevelName(c.level), c.id, c.value);
    if (c.level == Level::kOk) continue;
    if (!c.recommended.empty()) out += fmt::format("{:<9} recommended: {}\n", "", c.recommended);
    if (!c.why.empty()) out += fmt::format("{:<9} why: {}\n", "", c.why);
    if (!c.fix.empty()) out += fmt::format("{:<9} fix: {}\n", "", c.fix);
    if (!c.source.empty()) out += fmt::format("{:<9} source: {}\n", "", c.source);
  }
  out += fmt::format("\nsummary: {}\n", host::DoctorSummary(report));
  return out;
}

std::string RenderDoctorJson(const host::DoctorReport& report) {
  JsonWriter w;
  w.BeginObject();
  w.Key("schema_version").Int(kDoctorSchemaVersion);
  w.Key("report").String("doctor");
  w.Key("perfdx_version").String(PERFDX_VERSION);
  w.Key("root").String(report.root);
  w.Key("checks").BeginArray();
  for (const Check& c : report.checks) {
    w.BeginObject();
    w.Key("id").String(c.id);
    w.Key("title").String(c.title);
    w.Key("level").String(LevelName(c.level));
    w.Key("known").Bool(c.known);
    w.Key("value").String(c.value);
    w.Key("recommended").String(c.recommended);
    w.Key("why").String(c.why);
    w.Key("source").String(c.source);
    w.Key("fix").String(c.fix);
    w.EndObject();
  }
  w.EndArray();
  w.Key("summary").BeginObject();
  w.Key("total").Int(static_cast<int64_t>(report.checks.size()));
  for (Level l : {Level::kOk, Level::kInfo, Level::kWarning, Level::kCritical}) {
    w.Key(LevelName(l)).Int(report.Count(l));
  }
  w.Key("unknown").Int(report.Unknown());
  w.Key("text").String(host::DoctorSummary(report));
  w.EndObject();
  w.EndObject();
  return w.TakeDocument();
}

}  // namespace perfdx::report
