#include "perfdx/report/whatif_report.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "perfdx/base/json_writer.h"
#include "perfdx/report/text_layout.h"
#include "perfdx/report/text_table.h"
#include "perfdx/report/units.h"
#include "perfdx/version.h"

namespace perfdx::report {
namespace {

// The user's fixes (a rank --fix-rank leaves out was replayed with none).
std::string WhatIfOf(const AnalyzeReport& report) {
  for (const AnalyzeRank& r : report.ranks) {
    if (!r.what_if.what_if.empty() && r.what_if.what_if != "none") return r.what_if.what_if;
  }
  for (const AnalyzeJob& j : report.jobs) {
    if (j.joint_replay) return j.joint_replay->what_if;
  }
  return "none";
}

bool Applied(const analysis::Prediction& p) {
  return p.what_if != "none";
}

std::string RankLabel(std::optional<int64_t> rank) {
  return rank ? fmt::format("{}", *rank) : "?";
}

void WriteJointReplay(ValueSink& w, const cluster::JointReplay& j) {
  w.BeginObject();
  w.Key("available").Bool(j.available);
  w.Key("why_not");
  j.available ? w.Null() : w.String(j.why_not);
  w.Key("what_if").String(j.what_if);
  w.Key("joined_collectives").Int(static_cast<int64_t>(j.joined_collectives));
  w.Key("unjoined_collectives").Int(static_cast<int64_t>(j.unjoined_collectives));
  w.Key("rounds").Int(j.rounds);
  w.Key("median_abs_error").Double(j.median_abs_error);
  w.Key("max_abs_error").Double(j.max_abs_error);
  w.Key("measured_step_ns").Int(j.measured_step_ns);
  w.Key("predicted_step_ns").Int(j.predicted_step_ns);
  w.Key("gain_ns_per_step").Int(j.gain_ns_per_step());
  w.Key("within_model_error").Bool(j.available && j.within_model_error());
  w.Key("ranks").BeginArray();
  for (const cluster::JointRank& r : j.ranks) {
    w.BeginObject();
    w.Key("rank");
    r.rank ? w.Int(*r.rank) : w.Null();
    w.Key("fixed").Bool(r.fixed);
    WriteReplayCheck(w, r.check);
    w.Key("prediction");
    WritePrediction(w, r.prediction);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
}

std::string JointReplayText(const AnalyzeReport& report, const AnalyzeJob& job, size_t width) {
  std::vector<std::string> ids;
  for (size_t m : job.members) ids.push_back(RankLabel(report.ranks[m].analysis.info().rank));
  std::string out = "\n";
  std::string head = fmt::format("job of {} ranks ({})", job.members.size(), fmt::join(ids, ", "));
  const cluster::JointReplay& j = *job.joint_replay;
  if (!j.available) {
    AppendLines(out,
                Wrap(head + fmt::format(": not replayed jointly: {}", j.why_not), width, "", 4));
    return out;
  }
  head += fmt::format(", replayed jointly: {} collective{} end when their last rank arrives",
                      j.joined_collectives, j.joined_collectives == 1 ? "" : "s");
  if (j.unjoined_collectives > 0) {
    head +=
        fmt::format(" ({} not on every rank keep their measured length)", j.unjoined_collectives);
  }
  head += fmt::format("; settled in {} round{}", j.rounds, j.rounds == 1 ? "" : "s");
  AppendLines(out, Wrap(head, width, "", 4));
  size_t steps = 0;
  for (const cluster::JointRank& r : j.ranks) steps += r.check.run.steps.size();
  AppendLines(
      out, Wrap(fmt::format("replay: the joint model reproduces the {} rank-steps within "
                            "{} (median; max {})",
                            steps, FormatShare(j.median_abs_error), FormatShare(j.max_abs_error)),
                width, "  ", 4));
  AppendLines(
      out, Wrap(fmt::format("predicted job step (its slowest rank): {} -> {} (saves {} per "
                            "step){}",
                            FormatDuration(j.measured_step_ns), FormatDuration(j.predicted_step_ns),
                            FormatDuration(j.gain_ns_per_step()),
                            j.within_model_error() ? ": within model error" : ""),
                width, "  ", 4));
  TextTable table({{.header = "rank", .right = true},
                   {.header = "fixed"},
                   {.header = "measured", .right = true},
                   {.header = "alone", .right = true},
                   {.header = "jointly", .right = true}});
  for (size_t i = 0; i < j.ranks.size(); ++i) {
    const cluster::JointRank& r = j.ranks[i];
    const analysis::Prediction& alone = report.ranks[job.members[i]].what_if;
    table.AddRow({RankLabel(r.rank), r.fixed ? "yes" : "no",
                  FormatDuration(r.check.run.measured_mean_ns),
                  alone.available ? FormatDuration(alone.predicted_step_ns) : "-",
                  r.prediction.available ? FormatDuration(r.prediction.predicted_step_ns) : "-"});
  }
  for (const std::string& line : table.Render(width, 2)) out += line + "\n";
  return out;
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
  // Jobs of two ranks or more, replayed jointly.
  w.Key("jobs").BeginArray();
  for (const AnalyzeJob& job : report.jobs) {
    if (!job.joint_replay) continue;
    w.BeginObject();
    w.Key("ranks").BeginArray();
    for (size_t m : job.members) {
      const std::optional<int64_t> rank = report.ranks[m].analysis.info().rank;
      rank ? w.Int(*rank) : w.Null();
    }
    w.EndArray();
    w.Key("joint_replay");
    WriteJointReplay(w, *job.joint_replay);
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
  width = std::max<size_t>(width, 40);
  std::string out;
  AppendLines(out, Wrap(fmt::format("what-if: {}", WhatIfOf(report)), width, "", 4));
  // A sentence of the rank's, wrapped under itself.
  auto say = [&](const std::string& text) { AppendLines(out, Wrap(text, width, "  ", 4)); };
  for (const AnalyzeRank& r : report.ranks) {
    const model::RankInfo& info = r.analysis.info();
    const analysis::ReplayCheck& check = r.analysis.replay;
    out += '\n';
    AppendLines(
        out, Wrap(info.path, width,
                  fmt::format("rank {} — ", info.rank ? fmt::format("{}", *info.rank) : "?"), 4));
    if (!check.available) {
      say(fmt::format("no prediction: {}", check.why_not));
      continue;
    }
    say(ReplaySentence(check));
    const analysis::Prediction& p = r.what_if;
    if (!Applied(p)) {
      say("not fixed (--fix-rank names other ranks)");
      continue;
    }
    if (p.available) {
      say(fmt::format("predicted mean step: {} -> {} (saves {} per step, {}){}",
                      FormatDuration(check.run.measured_mean_ns),
                      FormatDuration(p.predicted_step_ns), FormatDuration(p.gain_ns_per_step),
                      FormatShare(p.gain_share),
                      p.within_model_error ? ": within model error" : ""));
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
  for (const AnalyzeJob& job : report.jobs) {
    if (job.joint_replay) out += JointReplayText(report, job, width);
  }
  for (const std::string& w : report.warnings) AppendLines(out, Wrap(w, width, "warning: ", 4));
  return out;
}

}  // namespace perfdx::report
