// One measured run, as the run library stores it: where it came from, its
// per-step time distribution, its health metrics, and the operators and
// kernels it ran. Built from a trace, an analyze report or a step log
// (run_input.h); read back from the library (store.h); compared by check.h
// and diff.h.
//
// Metric keys (docs/baseline.md lists them all):
//   step_time_median_ns, step_time_mean_ns, step_time_p90_ns, step_time_min_ns,
//   step_time_max_ns, step_time_cv, steps, throughput_median (samples/s),
//   the analyze report's summary health shares (device_utilization, ...),
//   phase_<phase>_ns (mean per step of each step phase).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace perfdx::baseline {

enum class RunSource : uint8_t {
  kTrace,    // a profiler trace, analysed on the fly
  kReport,   // a `perfdx analyze --format json` report
  kStepLog,  // a JSON-lines step log (step_log.h)
};
std::string_view RunSourceName(RunSource source);
std::optional<RunSource> ParseRunSource(std::string_view name);

struct StepSample {
  int64_t id = 0;      // ProfilerStep#N, or the log's "step"
  int64_t dur_ns = 0;  // wall time of the step
  double samples = 0;  // items the step processed (batch size); 0 when unknown
  // Where the step's time went: the TensorBoard-style step breakdown for
  // traces, the log's own phases for step logs. Sorted by phase name.
  std::vector<std::pair<std::string, int64_t>> phases_ns;
};

// An operator or kernel, aggregated by name over the run's analysis window.
struct RunItem {
  std::string name;
  // operator, runtime, python, kernel, memcpy, memset, collective, sync
  std::string kind;
  uint64_t count = 0;
  int64_t total_ns = 0;  // sum of durations (host time for host kinds)
};

struct RunRecord {
  int64_t id = 0;  // assigned by the library; 0 when not stored
  std::string name;
  std::vector<std::pair<std::string, std::string>> tags;  // sorted by key, keys unique
  int64_t created_unix_s = 0;
  std::string perfdx_version;
  RunSource source = RunSource::kTrace;
  std::string input_path;
  std::string fingerprint;  // "fnv1a64:<hex>" of the input file's bytes
  std::string host;         // host name
  std::string host_info;    // "Linux 6.1.0 x86_64, 16 CPUs"
  std::string device;       // device name from the trace; empty for step logs
  std::optional<int64_t> rank;
  std::string window;  // analysis window of a trace (steps|all|hta); "log" for step logs
  std::vector<StepSample> steps;
  std::map<std::string, double> metrics;
  std::vector<RunItem> items;  // by total time, descending
  // False when `items` is a top-N list (an analyze report keeps the top 50
  // ops and kernels) or empty (step logs): then "added"/"removed" cannot be
  // told from "fell out of the top N", and diff says so.
  bool items_complete = false;
  std::vector<std::string> notes;

  // "name #id", or the input path for a run not in the library.
  std::string Label() const;
};

// The step durations, in ns, as doubles for the statistics.
std::vector<double> StepTimesNs(const RunRecord& record);

// Derives the step-time statistics, throughput and per-phase means from
// `record.steps` into `record.metrics` (overwriting those keys).
void AddStepMetrics(RunRecord& record);

// Is the metric a share of time (0..1)? Its changes are told in percentage
// points, never as a ratio of two shares.
bool IsShareMetric(std::string_view key);

// The metric keys `perfdx baseline trend` accepts as short names.
//   step_time -> step_time_median_ns, throughput -> throughput_median
std::string CanonicalMetricName(std::string_view metric);

// "k=v" -> {"k", "v"}; keys are [A-Za-z0-9_.-]+, values anything printable.
std::optional<std::pair<std::string, std::string>> ParseTag(std::string_view text);

// Sets (or replaces) a tag, keeping tags sorted by key.
void SetTag(RunRecord& record, std::string key, std::string value);

// Run names: 1..128 of [A-Za-z0-9_.:/+-], not all digits (a reference that
// is all digits, or "#" and digits, means a run id).
bool IsValidRunName(std::string_view name);

}  // namespace perfdx::baseline
