#include "perfdx/report/doctor_report.h"

#include <algorithm>
#include <cstdint>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "perfdx/base/json_writer.h"
#include "perfdx/report/text_layout.h"
#include "perfdx/version.h"

namespace perfdx::report {

using host::Check;
using host::Level;
using host::LevelName;

std::string RenderDoctorText(const host::DoctorReport& report, int width) {
  const auto columns = static_cast<size_t>(std::max(width, 40));
  std::string out = fmt::format("perfdx doctor: {}{}\n\n", report.root,
                                report.root == "/" ? " (this machine)" : "");
  // A detail's text continues under its first word ("why: clock ramps ...").
  auto detail = [&](std::string_view label, const std::string& text) {
    if (text.empty()) return;
    const std::string prefix = fmt::format("{:<9} {}: ", "", label);
    AppendLines(out, Wrap(text, columns, prefix, prefix.size()));
  };
  for (const auto& c : report.checks) {
    const std::string head = fmt::format("{:<9} {:<28} ", LevelName(c.level), c.id);
    AppendLines(out, Wrap(c.value, columns, head, DisplayWidth(head)));
    if (c.level == Level::kOk) continue;
    detail("recommended", c.recommended);
    detail("why", c.why);
    if (!c.fix.empty()) {
      // The command as code, its first line after the label.
      const std::string label = fmt::format("{:<9} fix: ", "");
      std::vector<std::string> lines = WrapCode(c.fix, columns, label.size());
      lines.front().replace(0, label.size(), label);
      AppendLines(out, lines);
    }
    detail("source", c.source);
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
