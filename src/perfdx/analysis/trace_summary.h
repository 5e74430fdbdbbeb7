// What is in a trace: the numbers `perfdx info` reports. Pure function of a
// model::Trace; renderers print it without computing anything.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "perfdx/model/trace.h"

namespace perfdx::analysis {

struct TrackSummary {
  model::TrackId id = 0;
  model::TrackKind kind = model::TrackKind::kHostThread;
  std::string pid;  // as written: a number or text
  std::string tid;
  std::string process_name;
  std::string thread_name;
  int32_t device_id = -1;
  int64_t stream_id = -1;
  uint64_t slices = 0;
  uint64_t counter_samples = 0;
};

struct LoadStatEntry {
  std::string name;
  uint64_t count = 0;
  model::StatSeverity severity = model::StatSeverity::kInfo;
  std::string description;
};

struct TraceSummary {
  // First and last timestamp of any timed record; 0 when there is none.
  int64_t start_ns = 0;
  int64_t end_ns = 0;
  int64_t span_ns = 0;
  uint64_t events = 0;  // every element of the event array
  std::map<std::string, uint64_t> events_by_phase;
  std::array<uint64_t, model::kEventKindCount> events_by_kind{};
  std::array<uint64_t, model::kTrackKindCount> tracks_by_kind{};
  std::array<uint64_t, model::kFlowKindCount> flows_by_kind{};
  std::vector<TrackSummary> tracks;
  std::vector<int64_t> step_ids;
  std::vector<LoadStatEntry> load_stats;  // nonzero counters only
  std::vector<std::string> warnings;      // one line each
};

TraceSummary SummarizeTrace(const model::Trace& trace);

// One line per load-stat warning and per importer warning, naming the file.
std::vector<std::string> LoadWarnings(const model::Trace& trace);

}  // namespace perfdx::analysis
