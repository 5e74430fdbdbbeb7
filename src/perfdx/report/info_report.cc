#include "perfdx/report/info_report.h"

#include <algorithm>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "perfdx/base/json_writer.h"
#include "perfdx/report/text_layout.h"
#include "perfdx/report/text_table.h"
#include "perfdx/report/units.h"
#include "perfdx/version.h"

namespace perfdx::report {

InfoReport BuildInfoReport(const std::vector<model::Trace>& traces,
                           const std::vector<std::string>& discovery_warnings) {
  InfoReport report;
  report.warnings = discovery_warnings;
  for (const model::Trace& trace : traces) {
    InfoRank rank;
    rank.info = &trace.info;
    rank.summary = analysis::SummarizeTrace(trace);
    for (const std::string& w : rank.summary.warnings) report.warnings.push_back(w);
    report.ranks.push_back(std::move(rank));
  }
  return report;
}

void WriteInfoReport(const InfoReport& report, ValueSink& w) {
  w.BeginObject();
  w.Key("schema_version").Int(kInfoSchemaVersion);
  w.Key("report").String("info");
  w.Key("perfdx_version").String(PERFDX_VERSION);
  w.Key("ranks").BeginArray();
  for (const InfoRank& rank : report.ranks) {
    const model::RankInfo& info = *rank.info;
    const analysis::TraceSummary& s = rank.summary;
    w.BeginObject();
    w.Key("rank");
    info.rank ? w.Int(*info.rank) : w.Null();
    w.Key("world_size");
    info.world_size ? w.Int(*info.world_size) : w.Null();
    w.Key("path").String(info.path);
    w.Key("source").String(model::SourceFormatName(info.source));
    w.Key("device").String(info.device_name);
    w.Key("device_type").String(model::DeviceTypeName(info.device_type));
    if (!info.distributed_backend.empty())
      w.Key("distributed_backend").String(info.distributed_backend);
    w.Key("start_ns").Int(s.start_ns);
    w.Key("end_ns").Int(s.end_ns);
    w.Key("span_ns").Int(s.span_ns);
    w.Key("events").Uint(s.events);
    w.Key("events_by_phase").BeginObject();
    for (const auto& [phase, count] : s.events_by_phase) w.Key(phase).Uint(count);
    w.EndObject();
    w.Key("events_by_kind").BeginObject();
    for (int k = 0; k < model::kEventKindCount; ++k) {
      if (s.events_by_kind[k] == 0) continue;
      w.Key(model::EventKindName(static_cast<model::EventKind>(k))).Uint(s.events_by_kind[k]);
    }
    w.EndObject();
    w.Key("steps").BeginArray();
    for (int64_t id : s.step_ids) w.Int(id);
    w.EndArray();
    w.Key("tracks").BeginObject();
    w.Key("count").Uint(s.tracks.size());
    w.Key("by_kind").BeginObject();
    for (int k = 0; k < model::kTrackKindCount; ++k) {
      if (s.tracks_by_kind[k] == 0) continue;
      w.Key(model::TrackKindName(static_cast<model::TrackKind>(k))).Uint(s.tracks_by_kind[k]);
    }
    w.EndObject();
    w.Key("list").BeginArray();
    for (const analysis::TrackSummary& t : s.tracks) {
      w.BeginObject();
      w.Key("id").Uint(t.id);
      w.Key("kind").String(model::TrackKindName(t.kind));
      w.Key("pid").String(t.pid);
      w.Key("tid").String(t.tid);
      w.Key("process_name").String(t.process_name);
      w.Key("thread_name").String(t.thread_name);
      if (t.device_id >= 0) w.Key("device_id").Int(t.device_id);
      if (t.stream_id >= 0) w.Key("stream_id").Int(t.stream_id);
      w.Key("slices").Uint(t.slices);
      if (t.counter_samples > 0) w.Key("counter_samples").Uint(t.counter_samples);
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
    w.Key("flows").BeginObject();
    for (int k = 0; k < model::kFlowKindCount; ++k) {
      if (s.flows_by_kind[k] == 0) continue;
      w.Key(model::FlowKindName(static_cast<model::FlowKind>(k))).Uint(s.flows_by_kind[k]);
    }
    w.EndObject();
    w.Key("load_stats").BeginObject();
    for (const analysis::LoadStatEntry& e : s.load_stats) w.Key(e.name).Uint(e.count);
    w.EndObject();
    w.Key("warnings").Strings(s.warnings);
    w.EndObject();
  }
  w.EndArray();
  w.Key("warnings").Strings(report.warnings);
  w.EndObject();
}

std::string RenderInfoJson(const InfoReport& report) {
  JsonWriter w;
  WriteInfoReport(report, w);
  return w.TakeDocument();
}

std::string RenderInfoText(const InfoReport& report, int width) {
  const auto columns = static_cast<size_t>(std::max(width, 40));
  std::string out;
  // "  label    text", the text wrapped under itself.
  auto field = [&](std::string_view label, const std::string& text) {
    const std::string prefix = fmt::format("  {:<8} ", label);
    AppendLines(out, Wrap(text, columns, prefix, prefix.size()));
  };
  for (const InfoRank& rank : report.ranks) {
    const model::RankInfo& info = *rank.info;
    const analysis::TraceSummary& s = rank.summary;
    AppendLines(out, Wrap(info.path, columns,
                          fmt::format("rank {}  ",
                                      info.rank ? fmt::format("{}", *info.rank) : std::string("?")),
                          4));
    field("source", fmt::format("{}  ({} on {})", model::SourceFormatName(info.source),
                                model::DeviceTypeName(info.device_type), info.device_name));
    if (info.world_size) {
      field("world", fmt::format("{} ranks, {}", *info.world_size,
                                 info.distributed_backend.empty() ? "backend unknown"
                                                                  : info.distributed_backend));
    }
    field("span", FormatDuration(s.span_ns));
    std::string phases;
    for (const auto& [phase, count] : s.events_by_phase)
      phases += fmt::format(" {}:{}", phase, count);
    field("events", fmt::format("{}  (by phase:{})", s.events, phases));
    out += "  by kind\n";
    TextTable kinds({{.header = "kind"}, {.header = "events", .right = true}}, false);
    for (int k = 0; k < model::kEventKindCount; ++k) {
      if (s.events_by_kind[k] == 0) continue;
      kinds.AddRow({std::string(model::EventKindName(static_cast<model::EventKind>(k))),
                    fmt::format("{}", s.events_by_kind[k])});
    }
    AppendLines(out, kinds.Render(columns, 4));
    std::string steps;
    if (s.step_ids.empty()) {
      steps = "none (no ProfilerStep#N markers)";
    } else if (s.step_ids.size() <= 12) {
      for (int64_t id : s.step_ids) steps += fmt::format("{} ", id);
    } else {
      steps =
          fmt::format("{} steps, {}..{}", s.step_ids.size(), s.step_ids.front(), s.step_ids.back());
    }
    field("steps", steps);
    std::string tracks;
    for (int k = 0; k < model::kTrackKindCount; ++k) {
      if (s.tracks_by_kind[k] == 0) continue;
      tracks += fmt::format("{} {} ", s.tracks_by_kind[k],
                            model::TrackKindName(static_cast<model::TrackKind>(k)));
    }
    field("tracks", tracks);
    TextTable track_table({{.header = "kind"},
                           {.header = "process / thread", .shrink = true},
                           {.header = "slices", .right = true}},
                          false);
    for (const analysis::TrackSummary& t : s.tracks) {
      if (t.kind == model::TrackKind::kCounter) continue;
      std::string label = t.process_name.empty() ? t.pid : t.process_name;
      label += " / " + (t.thread_name.empty() ? t.tid : t.thread_name);
      track_table.AddRow(
          {std::string(model::TrackKindName(t.kind)), label, fmt::format("{} slices", t.slices)});
    }
    AppendLines(out, track_table.Render(columns, 4));
    std::string flows;
    for (int k = 0; k < model::kFlowKindCount; ++k) {
      if (s.flows_by_kind[k] == 0) continue;
      flows += fmt::format("{} {} ", s.flows_by_kind[k],
                           model::FlowKindName(static_cast<model::FlowKind>(k)));
    }
    if (!flows.empty()) field("flows", flows);
    if (!s.load_stats.empty()) {
      out += "  load stats\n";
      for (const analysis::LoadStatEntry& e : s.load_stats) {
        // The description under itself; on lines of its own when the name
        // and count leave it less than 20 columns.
        const std::string head = fmt::format("    {:<30} {:>8}  ", e.name, e.count);
        if (DisplayWidth(head) + 20 > columns) {
          AppendLines(out, Wrap(fmt::format("{} {}", e.name, e.count), columns, "    ", 6));
          AppendLines(out, Wrap(e.description, columns, "      ", 6));
        } else {
          AppendLines(out, Wrap(e.description, columns, head, DisplayWidth(head)));
        }
      }
    }
    out += '\n';
  }
  if (!report.warnings.empty()) {
    out += "warnings\n";
    for (const std::string& w : report.warnings) AppendLines(out, Wrap(w, columns, "  ", 4));
  }
  return out;
}

}  // namespace perfdx::report
