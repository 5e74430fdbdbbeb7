#include "perfdx/analysis/trace_summary.h"

#include <algorithm>
#include <limits>

#include <fmt/format.h>

namespace perfdx::analysis {
namespace {

std::string RawIdText(const model::Trace& trace, const model::RawId& id) {
  return id.is_text ? std::string(trace.str(id.text)) : fmt::format("{}", id.number);
}

}  // namespace

TraceSummary SummarizeTrace(const model::Trace& trace) {
  TraceSummary s;
  s.events = trace.raw.events;
  s.events_by_phase = trace.raw.by_phase;

  int64_t first = std::numeric_limits<int64_t>::max();
  int64_t last = std::numeric_limits<int64_t>::min();
  const model::SliceTable& slices = trace.slices;
  for (model::SliceId i = 0; i < slices.size(); ++i) {
    ++s.events_by_kind[static_cast<size_t>(slices.kind[i])];
    first = std::min(first, slices.ts_ns[i]);
    last = std::max(last, slices.end_ns(i));
  }
  for (int64_t ts : trace.counters.ts_ns) {
    first = std::min(first, ts);
    last = std::max(last, ts);
  }
  for (int64_t ts : trace.memory.ts_ns) {
    first = std::min(first, ts);
    last = std::max(last, ts);
  }
  s.events_by_kind[static_cast<size_t>(model::EventKind::kCounter)] += trace.counters.size();
  s.events_by_kind[static_cast<size_t>(model::EventKind::kMemoryEvent)] += trace.memory.size();
  if (first <= last) {
    s.start_ns = first;
    s.end_ns = last;
    s.span_ns = last - first;
  }

  std::vector<uint64_t> samples(trace.tracks.size(), 0);
  for (model::TrackId t : trace.counters.track) ++samples[t];
  for (model::TrackId t = 0; t < trace.tracks.size(); ++t) {
    const model::Track& track = trace.tracks[t];
    ++s.tracks_by_kind[static_cast<size_t>(track.kind)];
    TrackSummary ts;
    ts.id = t;
    ts.kind = track.kind;
    ts.pid = RawIdText(trace, track.pid);
    ts.tid = RawIdText(trace, track.tid);
    ts.process_name = trace.str(track.process_name);
    ts.thread_name = trace.str(track.thread_name);
    ts.device_id = track.device_id;
    ts.stream_id = track.stream_id;
    ts.slices = track.slice_count();
    ts.counter_samples = samples[t];
    s.tracks.push_back(std::move(ts));
  }
  for (model::FlowKind k : trace.flows.kind) ++s.flows_by_kind[static_cast<size_t>(k)];
  for (const model::Step& step : trace.steps) s.step_ids.push_back(step.id);

  for (size_t i = 0; i < model::kLoadStatCount; ++i) {
    const auto stat = static_cast<model::LoadStat>(i);
    const uint64_t count = trace.load_stats.Get(stat);
    if (count == 0) continue;
    const model::LoadStatInfo& info = model::GetLoadStatInfo(stat);
    s.load_stats.push_back(
        {std::string(info.name), count, info.severity, std::string(info.description)});
  }
  s.warnings = LoadWarnings(trace);
  return s;
}

std::vector<std::string> LoadWarnings(const model::Trace& trace) {
  std::vector<std::string> out;
  for (size_t i = 0; i < model::kLoadStatCount; ++i) {
    const auto stat = static_cast<model::LoadStat>(i);
    const uint64_t count = trace.load_stats.Get(stat);
    const model::LoadStatInfo& info = model::GetLoadStatInfo(stat);
    // Truncation has its own message, with the byte offset.
    if (count == 0 || info.severity != model::StatSeverity::kWarning ||
        stat == model::LoadStat::kTruncated)
      continue;
    out.push_back(
        fmt::format("{}: {} {} ({})", trace.info.path, count, info.description, info.name));
  }
  for (const std::string& w : trace.load_stats.warnings()) out.push_back(w);
  return out;
}

}  // namespace perfdx::analysis
