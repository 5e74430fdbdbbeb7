#include "perfdx/baseline/record/step_log.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <simdjson.h>

#include "perfdx/base/strings.h"

namespace perfdx::baseline {
namespace {

struct TimeKey {
  std::string_view key;
  double ns_per_unit;
};
constexpr TimeKey kStepTimeKeys[] = {
    {"step_time_s", 1e9}, {"step_time_ms", 1e6}, {"step_time_ns", 1}};

std::string ValueText(simdjson::dom::element value) {
  switch (value.type()) {
    case simdjson::dom::element_type::STRING:
      return std::string(std::string_view(value));
    case simdjson::dom::element_type::INT64:
      return fmt::format("{}", int64_t(value));
    case simdjson::dom::element_type::UINT64:
      return fmt::format("{}", uint64_t(value));
    case simdjson::dom::element_type::DOUBLE:
      return fmt::format("{}", double(value));
    case simdjson::dom::element_type::BOOL:
      return bool(value) ? "true" : "false";
    default:
      return simdjson::to_string(value);
  }
}

// Seconds (or the key's unit) -> ns, refusing what cannot be a duration.
Result<int64_t> ToNs(simdjson::dom::element value, double ns_per_unit, std::string_view key) {
  double v = 0;
  if (value.get_double().get(v) != simdjson::SUCCESS) {
    return InvalidInput(fmt::format("\"{}\" is not a number", key));
  }
  const double ns = v * ns_per_unit;
  constexpr double kMaxNs = 9e18;  // fits int64
  if (!(ns >= 0) || ns > kMaxNs)
    return InvalidInput(fmt::format("\"{}\" is out of range: {}", key, v));
  return static_cast<int64_t>(std::llround(ns));
}

// One parsed line into `record`. `step_index` counts steps so far.
Status ParseLine(simdjson::dom::element line, RunRecord& record, int64_t step_index,
                 bool* is_step) {
  simdjson::dom::object object;
  if (line.get_object().get(object) != simdjson::SUCCESS) return InvalidInput("not a JSON object");
  *is_step = false;
  simdjson::dom::element meta;
  const bool has_meta = object["meta"].get(meta) == simdjson::SUCCESS;
  if (has_meta) {
    simdjson::dom::object entries;
    if (meta.get_object().get(entries) != simdjson::SUCCESS)
      return InvalidInput("\"meta\" is not an object");
    for (auto [key, value] : entries) {
      if (key == "host") {
        record.host = ValueText(value);
      } else {
        SetTag(record, std::string(key), ValueText(value));
      }
    }
  }
  simdjson::dom::element version;
  const bool has_version = object["perfdx_step_log"].get(version) == simdjson::SUCCESS;
  if (has_version) {
    int64_t v = 0;
    if (version.get_int64().get(v) != simdjson::SUCCESS || v < 1) {
      return InvalidInput("\"perfdx_step_log\" is not a format version");
    }
    if (v > kStepLogVersion) {
      return Unsupported(fmt::format("step log format {} is newer than this perfdx reads ({})", v,
                                     kStepLogVersion));
    }
  }

  StepSample step;
  bool have_time = false;
  for (const TimeKey& k : kStepTimeKeys) {
    simdjson::dom::element value;
    if (object[k.key].get(value) != simdjson::SUCCESS) continue;
    if (have_time) return InvalidInput("more than one step_time_* key");
    PERFDX_ASSIGN_OR_RETURN(step.dur_ns, ToNs(value, k.ns_per_unit, k.key));
    if (step.dur_ns <= 0) return InvalidInput(fmt::format("\"{}\" must be positive", k.key));
    have_time = true;
  }
  if (!have_time) {
    if (has_meta || has_version) return Status::Ok();
    return InvalidInput("no step_time_s, step_time_ms or step_time_ns (and not a \"meta\" line)");
  }

  step.id = step_index;
  simdjson::dom::element value;
  if (object["step"].get(value) == simdjson::SUCCESS &&
      value.get_int64().get(step.id) != simdjson::SUCCESS) {
    return InvalidInput("\"step\" is not an integer");
  }
  if (object["samples"].get(value) == simdjson::SUCCESS) {
    if (value.get_double().get(step.samples) != simdjson::SUCCESS || step.samples < 0) {
      return InvalidInput("\"samples\" is not a non-negative number");
    }
  } else if (object["throughput"].get(value) == simdjson::SUCCESS) {
    double per_s = 0;
    if (value.get_double().get(per_s) != simdjson::SUCCESS || per_s < 0) {
      return InvalidInput("\"throughput\" is not a non-negative number");
    }
    step.samples = per_s * static_cast<double>(step.dur_ns) / 1e9;
  }
  if (object["phases_s"].get(value) == simdjson::SUCCESS) {
    simdjson::dom::object phases;
    if (value.get_object().get(phases) != simdjson::SUCCESS)
      return InvalidInput("\"phases_s\" is not an object");
    for (auto [phase, seconds] : phases) {
      PERFDX_ASSIGN_OR_RETURN(int64_t ns, ToNs(seconds, 1e9, phase));
      step.phases_ns.emplace_back(std::string(phase), ns);
    }
    std::sort(step.phases_ns.begin(), step.phases_ns.end());
  }
  record.steps.push_back(std::move(step));
  *is_step = true;
  return Status::Ok();
}

std::string_view FirstLine(std::string_view text) {
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t' || line.front() == '\r')) {
      line.remove_prefix(1);
    }
    if (!line.empty()) return line;
    start = end + 1;
  }
  return {};
}

}  // namespace

bool LooksLikeStepLog(std::string_view head) {
  // The first line must be a whole JSON object with a step-log key at its
  // top level; a trace's first line is a fragment (or a whole trace without
  // such keys), and a line cut by the end of `head` does not parse.
  const std::string_view line = FirstLine(SkipUtf8Bom(head));
  if (line.empty() || line.front() != '{') return false;
  simdjson::dom::parser parser;
  simdjson::dom::object object;
  if (parser.parse(line.data(), line.size()).get_object().get(object) != simdjson::SUCCESS)
    return false;
  for (std::string_view key : {"step_time_s", "step_time_ms", "step_time_ns", "perfdx_step_log"}) {
    if (object[key].error() == simdjson::SUCCESS) return true;
  }
  return false;
}

Result<RunRecord> ParseStepLog(std::string_view text, const std::string& display_name) {
  RunRecord record;
  record.source = RunSource::kStepLog;
  record.window = "log";
  record.items_complete = false;
  text = SkipUtf8Bom(text);
  simdjson::dom::parser parser;
  size_t start = 0;
  int64_t line_number = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    const bool last = end == std::string_view::npos;
    if (last) end = text.size();
    const std::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++line_number;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;

    simdjson::dom::element element;
    const simdjson::error_code error = parser.parse(line.data(), line.size()).get(element);
    if (error != simdjson::SUCCESS) {
      // A writer killed mid-line leaves an unterminated last line: the run
      // up to there is still good.
      if (last) {
        record.notes.push_back(
            fmt::format("{}: line {} is cut short (the writer stopped mid-line); skipped",
                        display_name, line_number));
        break;
      }
      return InvalidInput(fmt::format("{}: line {}: not JSON: {}", display_name, line_number,
                                      simdjson::error_message(error)));
    }
    bool is_step = false;
    if (Status s = ParseLine(element, record, static_cast<int64_t>(record.steps.size()), &is_step);
        !s.ok()) {
      return Status(s.code(),
                    fmt::format("{}: line {}: {}", display_name, line_number, s.message()));
    }
  }
  if (record.steps.empty())
    return InvalidInput(fmt::format("{}: no steps in this step log", display_name));
  AddStepMetrics(record);
  return record;
}

}  // namespace perfdx::baseline
