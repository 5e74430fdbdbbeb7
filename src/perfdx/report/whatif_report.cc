#include "perfdx/report/whatif_report.h"

#include <fmt/format.h>

#include "perfdx/base/json_writer.h"
#include "perfdx/report/text_table.h"
#include "perfdx/report/units.h"
#include "perfdx/version.h"

namespace perfdx::report {
namespace {

std::string WhatIfOf(const AnalyzeReport& report) {
  for (const AnalyzeRank& r : report.ranks) {
    if (!r.what_if.what_if.empty()) return r.what_if.what_if;
  }
  return "none";
}

}  // namespace

void WriteWhatIfReport(const AnalyzeReport& report, ValueSink& w) {
  w.BeginObject();
  w.Key("report").String("whatif");
  w.Key("perfdx_version").String(PERFDX_VERSION);
  w.Key("what_if").String(WhatIfOf(report));
  w.Key("ranks").BeginArray();
  for (const AnalyzeRank& r : report.ranks) {
    const model::RankInfo& info = r.analysis.info();
    w.BeginObject();
    w.Key("rank");
    info.rank ? w.Int(*info.rank) : w.Null();
    w.Key("path").String(info.path);
    WriteReplayCheck(w, r.analysis.replay);
    w.Key("prediction");
    WritePrediction(w, r.what_if);
    w.Key("steps").BeginArray();
    for (const analysis::PredictedStep& row : r.what_if.steps) {
      w.BeginObject();
      w.Key("id").Int(row.id);
      w.Key("measured_ns").Int(row.measured_ns);
      w.Key("replayed_ns").Int(row.replayed_ns);
      w.Key("with_fix_ns").Int(row.with_fix_ns);
      w.Key("predicted_ns").Int(row.predicted_ns);
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
  w.Key("warnings").Strings(report.warnings);
  w.EndObject();
}

std::string RenderWhatIfJson(const AnalyzeReport& report) {
  JsonWriter w;
  WriteWhatIfReport(report, w);
  return w.TakeDocument();
}

std::string RenderWhatIfText(const AnalyzeReport& report, size_t width) {
  std::string out = fmt::format("what-if: {}\n", WhatIfOf(report));
  for (const AnalyzeRank& r : report.ranks) {
    const model::RankInfo& info = r.analysis.info();
    const analysis::ReplayCheck& check = r.analysis.replay;
    out +=
        fmt::format("\nrank {} — {}\n", info.rank ? fmt::format("{}", *info.rank) : "?", info.path);
    if (!check.available) {
      out += fmt::format("  no prediction: {}\n", check.why_not);
      continue;
    }
    out += "  " + ReplaySentence(check) + "\n";
    const analysis::Prediction& p = r.what_if;
    if (p.available) {
      out += fmt::format("  predicted mean step: {} -> {} (saves {} per step, {}){}\n",
                         FormatDuration(check.run.measured_mean_ns),
                         FormatDuration(p.predicted_step_ns), FormatDuration(p.gain_ns_per_step),
                         FormatShare(p.gain_share),
                         p.within_model_error ? ": within model error" : "");
    }
    TextTable table({{.header = "step", .right = true},
                     {.header = "measured", .right = true},
                     {.header = "replayed", .right = true},
                     {.header = "with fix", .right = true},
                     {.header = "predicted", .right = true}});
    for (const analysis::PredictedStep& row : r.what_if.steps) {
      table.AddRow({fmt::format("{}", row.id), FormatDuration(row.measured_ns),
                    FormatDuration(row.replayed_ns), FormatDuration(row.with_fix_ns),
                    FormatDuration(row.predicted_ns)});
    }
    for (const std::string& line : table.Render(width, 2)) out += line + "\n";
  }
  for (const std::string& w : report.warnings) out += "warning: " + w + "\n";
  return out;
}

}  // namespace perfdx::report
