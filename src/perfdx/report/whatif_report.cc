#include "perfdx/report/whatif_report.h"

#include <fmt/format.h>

#include "perfdx/base/json_writer.h"
#include "perfdx/report/text_table.h"
#include "perfdx/report/units.h"
#include "perfdx/version.h"

namespace perfdx::report {
namespace {

// One step of one rank: measured, unchanged replay, replay with the fixes.
struct StepRow {
  int64_t id = 0;
  int64_t measured_ns = 0;
  int64_t replayed_ns = 0;
  int64_t with_fix_ns = 0;
  // The measured step less what the fixes save in the replay.
  int64_t predicted_ns() const { return measured_ns - (replayed_ns - with_fix_ns); }
};

std::vector<StepRow> RowsOf(const AnalyzeRank& r) {
  std::vector<StepRow> rows;
  const analysis::ReplayCheck& check = r.analysis.replay;
  if (!check.available || !r.what_if_run) return rows;
  const std::vector<analysis::ReplayedStep>& fixed = r.what_if_run->steps;
  for (size_t i = 0; i < check.run.steps.size() && i < fixed.size(); ++i) {
    const analysis::ReplayedStep& s = check.run.steps[i];
    rows.push_back({s.id, s.measured_ns, s.replayed_ns, fixed[i].replayed_ns});
  }
  return rows;
}

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
    for (const StepRow& row : RowsOf(r)) {
      w.BeginObject();
      w.Key("id").Int(row.id);
      w.Key("measured_ns").Int(row.measured_ns);
      w.Key("replayed_ns").Int(row.replayed_ns);
      w.Key("with_fix_ns").Int(row.with_fix_ns);
      w.Key("predicted_ns").Int(row.predicted_ns());
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
    out +=
        fmt::format("  replay: the step model reproduces the {} steps within {} (median; max {})\n",
                    check.run.steps.size(), FormatShare(check.median_abs_error),
                    FormatShare(check.max_abs_error));
    const analysis::Prediction& p = r.what_if;
    if (p.available) {
      out += fmt::format("  predicted mean step: {} -> {} (saves {} per step, {}){}\n",
                         FormatDuration(check.run.measured_mean_ns),
                         FormatDuration(p.predicted_step_ns), FormatDuration(p.gain_ns_per_step),
                         FormatShare(p.gain_share),
                         p.within_model_error ? ": within model error" : "");
    }
    if (!check.reliable()) {
      out += "  the replay is too far from the measured steps: the prediction is unreliable\n";
    }
    TextTable table({{.header = "step", .right = true},
                     {.header = "measured", .right = true},
                     {.header = "replayed", .right = true},
                     {.header = "with fix", .right = true},
                     {.header = "predicted", .right = true}});
    for (const StepRow& row : RowsOf(r)) {
      table.AddRow({fmt::format("{}", row.id), FormatDuration(row.measured_ns),
                    FormatDuration(row.replayed_ns), FormatDuration(row.with_fix_ns),
                    FormatDuration(row.predicted_ns())});
    }
    for (const std::string& line : table.Render(width, 2)) out += line + "\n";
  }
  for (const std::string& w : report.warnings) out += "warning: " + w + "\n";
  return out;
}

}  // namespace perfdx::report
