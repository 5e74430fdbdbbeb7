#include "perfdx/baseline/record/run_record.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "perfdx/base/statistics.h"

namespace perfdx::baseline {

std::string_view RunSourceName(RunSource source) {
  switch (source) {
    case RunSource::kTrace:
      return "trace";
    case RunSource::kReport:
      return "report";
    case RunSource::kStepLog:
      return "step_log";
  }
  return "trace";
}

std::optional<RunSource> ParseRunSource(std::string_view name) {
  for (RunSource s : {RunSource::kTrace, RunSource::kReport, RunSource::kStepLog}) {
    if (RunSourceName(s) == name) return s;
  }
  return std::nullopt;
}

std::string RunRecord::Label() const {
  if (id > 0) return fmt::format("{} #{}", name, id);
  return input_path;
}

std::vector<double> StepTimesNs(const RunRecord& record) {
  std::vector<double> out;
  out.reserve(record.steps.size());
  for (const StepSample& s : record.steps) out.push_back(static_cast<double>(s.dur_ns));
  return out;
}

void AddStepMetrics(RunRecord& record) {
  std::vector<double> times = StepTimesNs(record);
  record.metrics["steps"] = static_cast<double>(times.size());
  if (times.empty()) return;
  const size_t step_count = times.size();
  const DistributionSummary d = Summarize(std::move(times));
  record.metrics["step_time_median_ns"] = d.median;
  record.metrics["step_time_mean_ns"] = d.mean;
  record.metrics["step_time_p90_ns"] = d.p90;
  record.metrics["step_time_min_ns"] = d.min;
  record.metrics["step_time_max_ns"] = d.max;
  record.metrics["step_time_cv"] = d.cv;

  // Throughput per step (samples / step time), then its median: robust to a
  // slow first step the same way the step-time median is.
  std::vector<double> throughput;
  for (const StepSample& s : record.steps) {
    if (s.samples > 0 && s.dur_ns > 0)
      throughput.push_back(s.samples * 1e9 / static_cast<double>(s.dur_ns));
  }
  if (!throughput.empty()) record.metrics["throughput_median"] = Median(throughput);

  std::map<std::string, double> phase_sum;
  for (const StepSample& s : record.steps) {
    for (const auto& [phase, ns] : s.phases_ns) phase_sum[phase] += static_cast<double>(ns);
  }
  for (const auto& [phase, total] : phase_sum) {
    record.metrics[fmt::format("phase_{}_ns", phase)] = total / static_cast<double>(step_count);
  }
}

bool IsShareMetric(std::string_view key) {
  return key.ends_with("_share") || key == "device_utilization";
}

std::string CanonicalMetricName(std::string_view metric) {
  if (metric == "step_time") return "step_time_median_ns";
  if (metric == "throughput") return "throughput_median";
  return std::string(metric);
}

namespace {

bool IsKeyChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '.' || c == '-';
}

}  // namespace

std::optional<std::pair<std::string, std::string>> ParseTag(std::string_view text) {
  const size_t eq = text.find('=');
  if (eq == std::string_view::npos || eq == 0) return std::nullopt;
  const std::string_view key = text.substr(0, eq);
  const std::string_view value = text.substr(eq + 1);
  if (!std::all_of(key.begin(), key.end(), IsKeyChar)) return std::nullopt;
  if (std::any_of(value.begin(), value.end(), [](char c) { return c >= 0 && c < 0x20; })) {
    return std::nullopt;
  }
  return std::pair{std::string(key), std::string(value)};
}

void SetTag(RunRecord& record, std::string key, std::string value) {
  auto it = std::lower_bound(record.tags.begin(), record.tags.end(), key,
                             [](const auto& tag, const std::string& k) { return tag.first < k; });
  if (it != record.tags.end() && it->first == key) {
    it->second = std::move(value);
  } else {
    record.tags.insert(it, {std::move(key), std::move(value)});
  }
}

bool IsValidRunName(std::string_view name) {
  constexpr size_t kMaxName = 128;
  if (name.empty() || name.size() > kMaxName) return false;
  bool all_digits = true;
  for (char c : name) {
    const bool ok = IsKeyChar(c) || c == ':' || c == '/' || c == '+';
    if (!ok) return false;
    all_digits &= c >= '0' && c <= '9';
  }
  return !all_digits;
}

}  // namespace perfdx::baseline
