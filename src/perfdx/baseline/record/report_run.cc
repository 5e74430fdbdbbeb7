#include "perfdx/baseline/record/report_run.h"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>  // fmt::join
#include <simdjson.h>

#include "perfdx/base/strings.h"
#include "perfdx/baseline/record/inventory.h"
#include "perfdx/baseline/record/trace_run.h"

namespace perfdx::baseline {
namespace {

using simdjson::dom::element;

std::string_view SkipSpace(std::string_view s) {
  while (!s.empty() &&
         (s.front() == ' ' || s.front() == '\n' || s.front() == '\r' || s.front() == '\t')) {
    s.remove_prefix(1);
  }
  return s;
}

// "compute_kernel" (model::EventKindName) -> "kernel" (InventoryKind).
std::string KindFromReport(std::string_view event_kind, std::string_view fallback) {
  for (int k = 0; k < model::kEventKindCount; ++k) {
    const auto kind = static_cast<model::EventKind>(k);
    if (model::EventKindName(kind) == event_kind) {
      const std::string_view mapped = InventoryKind(kind);
      return std::string(mapped.empty() ? fallback : mapped);
    }
  }
  return std::string(fallback);
}

int64_t IntOr(element e, std::string_view key, int64_t fallback) {
  int64_t v = 0;
  return e[key].get_int64().get(v) == simdjson::SUCCESS ? v : fallback;
}

Status ReadRank(element rank, RunRecord& record) {
  std::string_view text;
  if (rank["device"].get_string().get(text) == simdjson::SUCCESS) record.device = std::string(text);
  if (rank["window"].get_string().get(text) == simdjson::SUCCESS) record.window = std::string(text);
  int64_t id = 0;
  if (rank["rank"].get_int64().get(id) == simdjson::SUCCESS) record.rank = id;

  simdjson::dom::array steps;
  if (rank["steps"].get_array().get(steps) != simdjson::SUCCESS) {
    return InvalidInput("rank has no \"steps\" array");
  }
  for (element s : steps) {
    StepSample step;
    if (s["id"].get_int64().get(step.id) != simdjson::SUCCESS ||
        s["dur_ns"].get_int64().get(step.dur_ns) != simdjson::SUCCESS) {
      return InvalidInput("a step lacks \"id\" or \"dur_ns\"");
    }
    simdjson::dom::object breakdown;
    if (s["breakdown_ns"].get_object().get(breakdown) == simdjson::SUCCESS) {
      for (auto [phase, ns] : breakdown) {
        int64_t v = 0;
        if (ns.get_int64().get(v) == simdjson::SUCCESS)
          step.phases_ns.emplace_back(std::string(phase), v);
      }
      std::sort(step.phases_ns.begin(), step.phases_ns.end());
    }
    record.steps.push_back(std::move(step));
  }

  element summary;
  if (rank["summary"].get(summary) == simdjson::SUCCESS) {
    for (std::string_view key : HealthMetricNames()) {
      double v = 0;
      if (summary[key].get_double().get(v) == simdjson::SUCCESS)
        record.metrics[std::string(key)] = v;
    }
  }

  simdjson::dom::array list;
  if (rank["kernels"].get_array().get(list) == simdjson::SUCCESS) {
    for (element k : list) {
      RunItem item;
      if (k["name"].get_string().get(text) != simdjson::SUCCESS) continue;
      item.name = std::string(text);
      std::string_view kind;
      item.kind = KindFromReport(k["kind"].get_string().get(kind) == simdjson::SUCCESS ? kind : "",
                                 "kernel");
      item.count = static_cast<uint64_t>(std::max<int64_t>(0, IntOr(k, "count", 0)));
      item.total_ns = IntOr(k, "total_ns", 0);
      record.items.push_back(std::move(item));
    }
  }
  if (rank["ops"].get_array().get(list) == simdjson::SUCCESS) {
    for (element o : list) {
      RunItem item;
      if (o["name"].get_string().get(text) != simdjson::SUCCESS) continue;
      item.name = std::string(text);
      item.kind = "operator";
      item.count = static_cast<uint64_t>(std::max<int64_t>(0, IntOr(o, "calls", 0)));
      item.total_ns = IntOr(o, "host_total_ns", 0);
      record.items.push_back(std::move(item));
    }
  }
  std::sort(record.items.begin(), record.items.end(), [](const RunItem& a, const RunItem& b) {
    return a.total_ns != b.total_ns ? a.total_ns > b.total_ns : a.name < b.name;
  });
  return Status::Ok();
}

}  // namespace

bool LooksLikeAnalyzeReport(std::string_view head) {
  head = SkipSpace(SkipUtf8Bom(head));
  if (head.empty() || head.front() != '{') return false;
  head = SkipSpace(head.substr(1));
  // Reports before schema 1 start with their ranks.
  if (head.starts_with("\"ranks\"")) return true;
  // Schema 1 names itself among its first keys: {"schema_version": 1,
  // "report": "analyze", ...}; info and check reports name themselves too.
  const size_t key = head.substr(0, 256).find("\"report\"");
  if (key == std::string_view::npos) return false;
  std::string_view rest = SkipSpace(head.substr(key + 8));
  if (rest.empty() || rest.front() != ':') return false;
  return SkipSpace(rest.substr(1)).starts_with("\"analyze\"");
}

Result<RunRecord> ParseAnalyzeReport(std::string_view json, std::optional<int64_t> rank,
                                     const std::string& display_name) {
  json = SkipUtf8Bom(json);
  simdjson::dom::parser parser;
  element doc;
  if (auto error = parser.parse(json.data(), json.size()).get(doc); error != simdjson::SUCCESS) {
    return InvalidInput(fmt::format("{}: not a JSON analyze report: {}", display_name,
                                    simdjson::error_message(error)));
  }
  int64_t schema = 0;
  if (doc["schema_version"].get_int64().get(schema) == simdjson::SUCCESS &&
      schema > kNewestAnalyzeSchema) {
    return InvalidInput(fmt::format(
        "{}: analyze report of schema {}, written by a newer perfdx; this one reads up to {}",
        display_name, schema, kNewestAnalyzeSchema));
  }
  simdjson::dom::array ranks;
  if (doc["ranks"].get_array().get(ranks) != simdjson::SUCCESS || ranks.size() == 0) {
    return InvalidInput(fmt::format("{}: analyze report without ranks", display_name));
  }
  std::optional<element> chosen;
  std::vector<std::string> seen;
  for (element r : ranks) {
    int64_t id = 0;
    const bool has_id = r["rank"].get_int64().get(id) == simdjson::SUCCESS;
    seen.push_back(has_id ? fmt::format("{}", id) : "?");
    if (!rank || (has_id && id == *rank)) {
      chosen = r;
      break;
    }
  }
  if (!chosen) {
    return NotFound(fmt::format("{}: no rank {} in this report (it has {})", display_name, *rank,
                                fmt::join(seen, ", ")));
  }
  RunRecord record;
  record.source = RunSource::kReport;
  record.items_complete = false;
  if (Status s = ReadRank(*chosen, record); !s.ok()) return s.WithContext(display_name);
  if (ranks.size() > 1 && !rank) {
    record.notes.push_back(
        fmt::format("the report has {} ranks; using the first (--rank to choose)", ranks.size()));
  }
  AddStepMetrics(record);
  return record;
}

}  // namespace perfdx::baseline
