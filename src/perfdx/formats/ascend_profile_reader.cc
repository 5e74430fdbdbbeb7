#include "perfdx/formats/ascend_profile_reader.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <functional>
#include <numeric>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>
#include <simdjson.h>

#include "perfdx/base/decimal_time.h"
#include "perfdx/base/strings.h"
#include "perfdx/formats/chrome_classifier.h"
#include "perfdx/model/trace_builder.h"

namespace perfdx::formats {
namespace {

namespace fs = std::filesystem;
using model::AscendData;
using model::StringId;

// Memory sizes in the CSVs: torch_npu divides bytes by 1024² for "MB" and by
// 1024 for "KB" (the DB export holds the same records in bytes).
constexpr double kMiB = 1024.0 * 1024.0;
constexpr double kKiB = 1024.0;
// communication*.json sizes: "MB" is 10^6 bytes there (the sample's "Size
// Distribution" keys are the task sizes / 10^6 exactly).
constexpr double kDecimalMb = 1e6;
constexpr double kNsPerMs = 1e6;

AscendData& Ascend(model::Trace* trace) {
  if (!trace->ascend) trace->ascend.emplace();
  return *trace->ascend;
}

void Unreadable(model::Trace* trace, const std::string& message) {
  trace->load_stats.Add(model::LoadStat::kSideFileUnreadable);
  trace->load_stats.AddWarning(message);
}

StringId Intern(model::Trace* trace, std::string_view s) {
  return trace->strings.Intern(s);
}

// Files of `dir` whose names start with `prefix` and end with `suffix`, by
// name (msprof writes op_summary_{ts}.csv, or op_summary_slice_{n}_{ts}.csv).
std::vector<fs::path> FilesLike(const fs::path& dir, std::string_view prefix,
                                std::string_view suffix) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.starts_with(prefix) && name.ends_with(suffix) && entry.is_regular_file(ec)) {
      out.push_back(entry.path());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Reads one CSV side file; `row` returns false for a row it skipped. Returns
// false when the file does not exist.
using SideRow = std::function<bool(const CsvHeader&, const CsvRow&)>;
bool ReadSideCsv(const fs::path& path, const AscendSideOptions& options, model::Trace* trace,
                 const SideRow& row) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return false;
  model::AscendSourceFile source;
  source.path = path.string();
  CsvStats stats;
  const Status status = ReadCsvFile(
      path.string(), options.limits, options.csv,
      [&](const CsvHeader& h, const CsvRow& r) {
        if (row(h, r)) {
          ++source.rows;
        } else {
          ++source.skipped;
        }
      },
      &stats);
  if (!status.ok())
    Unreadable(trace, fmt::format("{} (rows before it were kept)", status.message()));
  trace->load_stats.Add(model::LoadStat::kSideRowSkipped, source.skipped);
  Ascend(trace).sources.push_back(std::move(source));
  return true;
}

Result<simdjson::dom::element> ParseJsonFile(const fs::path& path, const AscendSideOptions& options,
                                             simdjson::dom::parser& parser) {
  PERFDX_ASSIGN_OR_RETURN(auto source, io::OpenByteSource(path.string(), options.limits));
  PERFDX_ASSIGN_OR_RETURN(std::string text, io::ReadAll(*source, options.max_json_bytes));
  simdjson::dom::element doc;
  const auto error = parser.parse(simdjson::padded_string(text)).get(doc);
  if (error) {
    return InvalidInput(
        fmt::format("{}: not valid JSON ({})", path.string(), simdjson::error_message(error)));
  }
  return doc;
}

// A JSON scalar as text: strings as they are, numbers and booleans as
// written by a minimal printer ("1", "0.5", "true").
std::string ScalarText(simdjson::dom::element e) {
  switch (e.type()) {
    case simdjson::dom::element_type::STRING:
      return std::string(std::string_view(e));
    case simdjson::dom::element_type::INT64:
      return std::to_string(int64_t(e));
    case simdjson::dom::element_type::UINT64:
      return std::to_string(uint64_t(e));
    case simdjson::dom::element_type::DOUBLE:
      return fmt::format("{}", double(e));
    case simdjson::dom::element_type::BOOL:
      return bool(e) ? "true" : "false";
    case simdjson::dom::element_type::NULL_VALUE:
      return "";
    default:
      return simdjson::minify(e);
  }
}

std::optional<double> JsonNumber(simdjson::dom::element e) {
  double d = 0;
  if (e.get(d) == simdjson::SUCCESS) return d;
  int64_t i = 0;
  if (e.get(i) == simdjson::SUCCESS) return static_cast<double>(i);
  uint64_t u = 0;
  if (e.get(u) == simdjson::SUCCESS) return static_cast<double>(u);
  std::string_view s;
  if (e.get(s) == simdjson::SUCCESS) {
    const auto v = ParseDecimalScaled(s, 6);
    if (v) return static_cast<double>(*v) / 1e6;
  }
  return std::nullopt;
}

std::optional<int64_t> JsonInt(simdjson::dom::element e) {
  int64_t i = 0;
  if (e.get(i) == simdjson::SUCCESS) return i;
  uint64_t u = 0;
  if (e.get(u) == simdjson::SUCCESS && u <= static_cast<uint64_t>(INT64_MAX)) {
    return static_cast<int64_t>(u);
  }
  std::string_view s;
  if (e.get(s) == simdjson::SUCCESS) {
    const auto v = ParseDecimalScaled(s, 0);
    if (v) return v;
  }
  double d = 0;
  if (e.get(d) == simdjson::SUCCESS && std::fabs(d) < 9e18) return std::llround(d);
  return std::nullopt;
}

std::optional<bool> JsonBool(simdjson::dom::object o, std::string_view key) {
  bool b = false;
  if (o[key].get(b) == simdjson::SUCCESS) return b;
  return std::nullopt;
}

std::string JsonString(simdjson::dom::object o, std::string_view key) {
  simdjson::dom::element e;
  if (o[key].get(e) != simdjson::SUCCESS) return "";
  return ScalarText(e);
}

int64_t RoundToInt(double v) {
  return std::isfinite(v) && std::fabs(v) < 9e18 ? std::llround(v) : -1;
}

// ---- profiler_info / profiler_metadata.

void ParseProfilerInfo(simdjson::dom::element doc, model::AscendProfilerConfig* c) {
  simdjson::dom::object root;
  if (doc.get(root) != simdjson::SUCCESS) return;
  simdjson::dom::object config;
  if (root["config"].get(config) == simdjson::SUCCESS) {
    simdjson::dom::object common;
    if (config["common_config"].get(common) == simdjson::SUCCESS) {
      simdjson::dom::array activities;
      if (common["activities"].get(activities) == simdjson::SUCCESS) {
        for (simdjson::dom::element a : activities) c->activities.push_back(ScalarText(a));
      }
      c->record_shapes = JsonBool(common, "record_shapes");
      c->profile_memory = JsonBool(common, "profile_memory");
      c->with_stack = JsonBool(common, "with_stack");
      c->with_modules = JsonBool(common, "with_modules");
      c->with_flops = JsonBool(common, "with_flops");
    }
    simdjson::dom::object exp;
    if (config["experimental_config"].get(exp) == simdjson::SUCCESS) {
      c->profiler_level = JsonString(exp, "_profiler_level");
      c->aic_metrics = JsonString(exp, "_aic_metrics");
      c->l2_cache = JsonBool(exp, "_l2_cache");
      c->data_simplification = JsonBool(exp, "_data_simplification");
      simdjson::dom::element export_type;
      if (exp["_export_type"].get(export_type) == simdjson::SUCCESS) {
        simdjson::dom::array list;
        if (export_type.get(list) == simdjson::SUCCESS) {
          for (simdjson::dom::element t : list) c->export_types.push_back(ScalarText(t));
        } else if (!ScalarText(export_type).empty()) {
          c->export_types.push_back(ScalarText(export_type));
        }
      }
    }
  }
  c->torch_npu_version = JsonString(root, "torch_npu_version");
  c->cann_version = JsonString(root, "cann_version");
  simdjson::dom::element rank;
  if (root["rank_id"].get(rank) == simdjson::SUCCESS) c->rank_id = JsonInt(rank);
  simdjson::dom::element end;
  if (root.at_pointer("/end_info/collectionTimeEnd").get(end) == simdjson::SUCCESS) {
    c->collection_end_ns = JsonInt(end);
  }
}

void ParseMetadata(simdjson::dom::element doc, AscendData* a) {
  simdjson::dom::object root;
  if (doc.get(root) != simdjson::SUCCESS) return;
  simdjson::dom::object env;
  if (root["ENV_VARIABLES"].get(env) == simdjson::SUCCESS) {
    for (auto [key, value] : env) a->env_variables[std::string(key)] = ScalarText(value);
  }
  simdjson::dom::object args;
  if (root["distributed_args"].get(args) == simdjson::SUCCESS) {
    for (auto [key, value] : args) a->distributed_args[std::string(key)] = ScalarText(value);
  }
  simdjson::dom::object groups;
  if (root["parallel_group_info"].get(groups) == simdjson::SUCCESS) {
    for (auto [key, value] : groups) {
      model::AscendParallelGroup g;
      g.key = std::string(key);
      simdjson::dom::object o;
      if (value.get(o) == simdjson::SUCCESS) {
        g.name = JsonString(o, "group_name");
        simdjson::dom::element rank;
        if (o["group_rank"].get(rank) == simdjson::SUCCESS)
          g.group_rank = JsonInt(rank).value_or(-1);
        simdjson::dom::array ranks;
        if (o["global_ranks"].get(ranks) == simdjson::SUCCESS) {
          for (simdjson::dom::element r : ranks) {
            if (auto v = JsonInt(r)) g.global_ranks.push_back(*v);
          }
        }
      }
      a->parallel_groups.push_back(std::move(g));
    }
  }
}

// ---- CSV tables.

// Kernel table columns that are not PMU metrics.
bool IsKernelIdentityColumn(std::string_view name) {
  static const std::unordered_set<std::string_view> kNames = {
      "Step Id",          "Device_id",
      "Model ID",         "Model Name",
      "Task ID",          "Stream ID",
      "Infer ID",         "Name",
      "Op Name",          "Type",
      "OP Type",          "OP State",
      "Accelerator Core", "Task Type",
      "Start Time(us)",   "Task Start Time(us)",
      "Duration(us)",     "Task Duration(us)",
      "Wait Time(us)",    "Task Wait Time(us)",
      "Block Dim",        "Block Num",
      "Mix Block Dim",    "Mix Block Num",
      "HF32 Eligible",    "Input Shapes",
      "Input Data Types", "Input Formats",
      "Output Shapes",    "Output Data Types",
      "Output Formats",   "Context ID",
      "Batch ID",         "Subtask ID",
      "Iteration ID"};
  return kNames.contains(name);
}

// Adds a metric column to the table (re-laying out the matrix) if absent.
int EnsureMetric(model::AscendKernelTable* table, const std::string& name) {
  const int existing = table->MetricColumn(name);
  if (existing >= 0) return existing;
  const size_t old_cols = table->metric_names.size();
  const size_t rows = table->rows.size();
  std::vector<double> values(rows * (old_cols + 1), NAN);
  for (size_t r = 0; r < rows; ++r) {
    for (size_t c = 0; c < old_cols; ++c)
      values[r * (old_cols + 1) + c] = table->metric_values[r * old_cols + c];
  }
  table->metric_values.swap(values);
  table->metric_names.push_back(name);
  return static_cast<int>(old_cols);
}

struct KernelColumns {
  int step = -1, device = -1, model = -1, task = -1, stream = -1, context = -1;
  int name = -1, type = -1, state = -1, core = -1, start = -1, dur = -1, wait = -1;
  int block = -1, mix = -1, hf32 = -1;
  int in_shapes = -1, in_dtypes = -1, in_formats = -1;
  int out_shapes = -1, out_dtypes = -1, out_formats = -1;
  struct Metric {
    int csv_column;
    int table_column;
    double factor;
  };
  std::vector<Metric> metrics;
};

KernelColumns FindKernelColumns(const CsvHeader& h, model::AscendKernelTable* table) {
  KernelColumns k;
  k.step = h.Find({"Step Id"});
  k.device = h.Find({"Device_id", "Device ID"});
  k.model = h.Find({"Model ID"});
  k.task = h.Find({"Task ID"});
  k.stream = h.Find({"Stream ID"});
  k.context = h.Find({"Context ID"});
  k.name = h.Find({"Name", "Op Name"});
  k.type = h.Find({"Type", "OP Type"});
  k.state = h.Find({"OP State"});
  k.core = h.Find({"Accelerator Core", "Task Type"});
  k.start = h.Find({"Start Time(us)", "Task Start Time(us)"});
  k.dur = h.Find({"Duration(us)", "Task Duration(us)"});
  k.wait = h.Find({"Wait Time(us)", "Task Wait Time(us)"});
  k.block = h.Find({"Block Dim", "Block Num"});
  k.mix = h.Find({"Mix Block Dim", "Mix Block Num"});
  k.hf32 = h.Find({"HF32 Eligible"});
  k.in_shapes = h.Find({"Input Shapes"});
  k.in_dtypes = h.Find({"Input Data Types"});
  k.in_formats = h.Find({"Input Formats"});
  k.out_shapes = h.Find({"Output Shapes"});
  k.out_dtypes = h.Find({"Output Data Types"});
  k.out_formats = h.Find({"Output Formats"});
  for (size_t c = 0; c < h.size(); ++c) {
    const std::string& raw = h.names()[c];
    if (raw.empty() || IsKernelIdentityColumn(raw)) continue;
    double factor = 1;
    const std::string name = CanonicalMetricName(raw, false, &factor);
    k.metrics.push_back({static_cast<int>(c), EnsureMetric(table, name), factor});
  }
  return k;
}

model::AscendOpState ParseOpState(std::string_view s) {
  const std::string l = AsciiLower(s);
  if (l == "static") return model::AscendOpState::kStatic;
  if (l == "dynamic") return model::AscendOpState::kDynamic;
  return model::AscendOpState::kUnknown;
}

int8_t ParseYesNo(std::string_view s) {
  const std::string l = AsciiLower(s);
  if (l == "yes" || l == "true") return 1;
  if (l == "no" || l == "false") return 0;
  return -1;
}

void ReadKernelCsv(const fs::path& path, const AscendSideOptions& options, model::Trace* trace) {
  model::AscendKernelTable& table = Ascend(trace).kernels;
  const CsvHeader* seen_header = nullptr;
  KernelColumns k;
  ReadSideCsv(path, options, trace, [&](const CsvHeader& h, const CsvRow& r) {
    if (seen_header != &h) {
      k = FindKernelColumns(h, &table);
      seen_header = &h;
    }
    const std::string_view name = r.Text(k.name);
    const auto start = r.MicrosToNanos(k.start);
    const auto dur = r.MicrosToNanos(k.dur);
    if (name.empty() || !start || !dur || *dur < 0) return false;
    model::AscendKernel row;
    row.step_id = r.Int(k.step).value_or(-1);
    row.device_id = static_cast<int32_t>(r.Int(k.device).value_or(-1));
    row.model_id = r.Int(k.model).value_or(-1);
    row.task_id = r.Int(k.task).value_or(-1);
    row.stream_id = r.Int(k.stream).value_or(-1);
    row.context_id = r.Int(k.context).value_or(-1);
    row.name = Intern(trace, name);
    row.op_type = Intern(trace, r.Text(k.type));
    row.core_type = Intern(trace, r.Text(k.core));
    row.start_ns = *start;
    row.dur_ns = *dur;
    row.wait_ns = r.MicrosToNanos(k.wait).value_or(-1);
    row.block_dim = r.Int(k.block).value_or(-1);
    row.mix_block_dim = r.Int(k.mix).value_or(-1);
    row.op_state = ParseOpState(r.Text(k.state));
    row.hf32_eligible = ParseYesNo(r.Text(k.hf32));
    row.input_shapes = Intern(trace, r.Unquoted(k.in_shapes));
    row.input_dtypes = Intern(trace, r.Text(k.in_dtypes));
    row.input_formats = Intern(trace, r.Text(k.in_formats));
    row.output_shapes = Intern(trace, r.Unquoted(k.out_shapes));
    row.output_dtypes = Intern(trace, r.Text(k.out_dtypes));
    row.output_formats = Intern(trace, r.Text(k.out_formats));
    table.rows.push_back(row);
    table.metric_values.resize(table.rows.size() * table.metric_names.size(), NAN);
    double* values =
        table.metric_values.data() + (table.rows.size() - 1) * table.metric_names.size();
    for (const KernelColumns::Metric& m : k.metrics) {
      if (auto v = r.Double(m.csv_column)) values[m.table_column] = *v * m.factor;
    }
    return true;
  });
}

int32_t DeviceOf(const CsvRow& r, int column) {
  return ParseAscendDevice(r.Text(column)).value_or(-1);
}

// "Total Allocated(MB)" or msprof's "Total Allocated(KB)": the column and
// the factor to bytes.
std::pair<int, double> SizeColumn(const CsvHeader& h, std::string_view stem) {
  const std::string mb = std::string(stem) + "(MB)";
  const std::string kb = std::string(stem) + "(KB)";
  const int c_mb = h.Find({mb});
  if (c_mb >= 0) return {c_mb, kMiB};
  const int c_kb = h.Find({kb});
  if (c_kb >= 0) return {c_kb, kKiB};
  return {-1, 1};
}

void ReadMemoryRecords(const fs::path& path, const AscendSideOptions& options,
                       model::Trace* trace) {
  AscendData& a = Ascend(trace);
  ReadSideCsv(path, options, trace, [&](const CsvHeader& h, const CsvRow& r) {
    const int component = h.Find({"Component"});
    const auto ts = r.MicrosToNanos(h.Find({"Timestamp(us)"}));
    if (r.Text(component).empty() || !ts) return false;
    const auto [alloc_col, alloc_f] = SizeColumn(h, "Total Allocated");
    const auto [res_col, res_f] = SizeColumn(h, "Total Reserved");
    const auto [act_col, act_f] = SizeColumn(h, "Total Active");
    model::AscendMemoryRecord m;
    m.component = Intern(trace, r.Text(component));
    m.ts_ns = *ts;
    m.allocated_bytes = r.Scaled(alloc_col, alloc_f).value_or(-1);
    m.reserved_bytes = r.Scaled(res_col, res_f).value_or(-1);
    m.active_bytes = r.Scaled(act_col, act_f).value_or(-1);
    m.stream_ptr = r.Int(h.Find({"Stream Ptr"})).value_or(-1);
    m.device_id = DeviceOf(r, h.Find({"Device Type", "Device", "Device_id"}));
    a.memory_records.push_back(m);
    return true;
  });
}

void ReadOperatorMemory(const fs::path& path, const AscendSideOptions& options,
                        model::Trace* trace) {
  AscendData& a = Ascend(trace);
  ReadSideCsv(path, options, trace, [&](const CsvHeader& h, const CsvRow& r) {
    const std::string_view name = r.Text(h.Find({"Name"}));
    const auto [size_col, size_f] = SizeColumn(h, "Size");
    const auto size = r.Scaled(size_col, size_f);
    const auto alloc = r.MicrosToNanos(h.Find({"Allocation Time(us)"}));
    if (name.empty() || !size || !alloc) return false;
    auto bytes = [&](std::string_view stem) {
      const auto [c, f] = SizeColumn(h, stem);
      return r.Scaled(c, f).value_or(-1);
    };
    model::AscendOperatorMemory m;
    m.name = Intern(trace, name);
    m.size_bytes = *size;
    m.allocation_ns = *alloc;
    m.release_ns = r.MicrosToNanos(h.Find({"Release Time(us)"})).value_or(-1);
    m.active_release_ns = r.MicrosToNanos(h.Find({"Active Release Time(us)"})).value_or(-1);
    m.duration_ns = r.MicrosToNanos(h.Find({"Duration(us)"})).value_or(-1);
    m.active_duration_ns = r.MicrosToNanos(h.Find({"Active Duration(us)"})).value_or(-1);
    m.allocation_allocated_bytes = bytes("Allocation Total Allocated");
    m.allocation_reserved_bytes = bytes("Allocation Total Reserved");
    m.allocation_active_bytes = bytes("Allocation Total Active");
    m.release_allocated_bytes = bytes("Release Total Allocated");
    m.release_reserved_bytes = bytes("Release Total Reserved");
    m.release_active_bytes = bytes("Release Total Active");
    m.stream_ptr = r.Int(h.Find({"Stream Ptr"})).value_or(-1);
    m.device_id = DeviceOf(r, h.Find({"Device Type", "Device", "Device_id"}));
    a.operator_memory.push_back(m);
    return true;
  });
}

void ReadModuleMemory(const fs::path& path, const AscendSideOptions& options, model::Trace* trace) {
  AscendData& a = Ascend(trace);
  ReadSideCsv(path, options, trace, [&](const CsvHeader& h, const CsvRow& r) {
    const std::string_view component = r.Text(h.Find({"Component"}));
    const auto ts = r.MicrosToNanos(h.Find({"Timestamp(us)"}));
    const auto [res_col, res_f] = SizeColumn(h, "Total Reserved");
    const auto reserved = r.Scaled(res_col, res_f);
    if (component.empty() || !ts || !reserved) return false;
    model::AscendModuleMemory m;
    m.component = Intern(trace, component);
    m.ts_ns = *ts;
    m.reserved_bytes = *reserved;
    int device = h.Find({"Device"});
    if (device < 0) device = h.Find({"Device_id"});
    m.device_id = DeviceOf(r, device);
    a.module_memory.push_back(m);
    return true;
  });
}

void ReadApiStatistic(const fs::path& path, const AscendSideOptions& options, model::Trace* trace) {
  AscendData& a = Ascend(trace);
  ReadSideCsv(path, options, trace, [&](const CsvHeader& h, const CsvRow& r) {
    const std::string_view name = r.Text(h.Find({"API Name"}));
    const auto total = r.MicrosToNanos(h.Find({"Time(us)"}));
    const auto count = r.Int(h.Find({"Count"}));
    if (name.empty() || !total || !count) return false;
    model::AscendApiStatistic s;
    s.device_id = DeviceOf(r, h.Find({"Device_id"}));
    s.level = Intern(trace, r.Text(h.Find({"Level"})));
    s.name = Intern(trace, name);
    s.total_ns = *total;
    s.count = *count;
    s.avg_ns = r.MicrosToNanos(h.Find({"Avg(us)"})).value_or(-1);
    s.min_ns = r.MicrosToNanos(h.Find({"Min(us)"})).value_or(-1);
    s.max_ns = r.MicrosToNanos(h.Find({"Max(us)"})).value_or(-1);
    s.variance = r.Double(h.Find({"Variance"})).value_or(NAN);
    a.api_statistics.push_back(s);
    return true;
  });
}

void ReadOpStatistic(const fs::path& path, const AscendSideOptions& options, model::Trace* trace) {
  AscendData& a = Ascend(trace);
  ReadSideCsv(path, options, trace, [&](const CsvHeader& h, const CsvRow& r) {
    const std::string_view type = r.Text(h.Find({"OP Type", "Op Type"}));
    const auto count = r.Int(h.Find({"Count"}));
    const auto total = r.MicrosToNanos(h.Find({"Total Time(us)"}));
    if (type.empty() || !count || !total) return false;
    model::AscendOpStatistic s;
    s.device_id = DeviceOf(r, h.Find({"Device_id"}));
    s.op_type = Intern(trace, type);
    s.core_type = Intern(trace, r.Text(h.Find({"Core Type"})));
    s.count = *count;
    s.total_ns = *total;
    s.min_ns = r.MicrosToNanos(h.Find({"Min Time(us)"})).value_or(-1);
    s.avg_ns = r.MicrosToNanos(h.Find({"Avg Time(us)"})).value_or(-1);
    s.max_ns = r.MicrosToNanos(h.Find({"Max Time(us)"})).value_or(-1);
    s.ratio_pct = r.Double(h.Find({"Ratio(%)"})).value_or(NAN);
    a.op_statistics.push_back(s);
    return true;
  });
}

void ReadAiCpu(const fs::path& path, const AscendSideOptions& options, model::Trace* trace) {
  AscendData& a = Ascend(trace);
  ReadSideCsv(path, options, trace, [&](const CsvHeader& h, const CsvRow& r) {
    const std::string_view node = r.Text(h.Find({"Node", "Op Name"}));
    const auto ts = r.MicrosToNanos(h.Find({"Timestamp(us)"}));
    if (node.empty() || !ts) return false;
    model::AscendAiCpuOp op;
    op.device_id = DeviceOf(r, h.Find({"Device_id"}));
    op.ts_ns = *ts;
    op.node = Intern(trace, node);
    op.compute_ns = r.MicrosToNanos(h.Find({"Compute_time(us)"})).value_or(-1);
    op.memcpy_ns = r.MicrosToNanos(h.Find({"Memcpy_time(us)"})).value_or(-1);
    op.task_ns = r.MicrosToNanos(h.Find({"Task_time(us)"})).value_or(-1);
    op.dispatch_ns = r.MicrosToNanos(h.Find({"Dispatch_time(us)"})).value_or(-1);
    op.total_ns = r.MicrosToNanos(h.Find({"Total_time(us)"})).value_or(-1);
    op.stream_id = r.Int(h.Find({"Stream ID", "Stream Id"})).value_or(-1);
    op.task_id = r.Int(h.Find({"Task ID", "Task Id"})).value_or(-1);
    a.ai_cpu_ops.push_back(op);
    return true;
  });
}

void ReadL2Cache(const fs::path& path, const AscendSideOptions& options, model::Trace* trace) {
  AscendData& a = Ascend(trace);
  ReadSideCsv(path, options, trace, [&](const CsvHeader& h, const CsvRow& r) {
    const auto task = r.Int(h.Find({"Task Id", "Task ID"}));
    if (!task) return false;
    model::AscendL2Cache l;
    l.stream_id = r.Int(h.Find({"Stream Id", "Stream ID"})).value_or(-1);
    l.task_id = *task;
    l.hit_rate = r.Double(h.Find({"Hit Rate"})).value_or(NAN);
    l.victim_rate = r.Double(h.Find({"Victim Rate"})).value_or(NAN);
    l.op_name = Intern(trace, r.Text(h.Find({"Op Name"})));
    a.l2_cache.push_back(l);
    return true;
  });
}

void ReadOperatorDetails(const fs::path& path, const AscendSideOptions& options,
                         model::Trace* trace) {
  AscendData& a = Ascend(trace);
  ReadSideCsv(path, options, trace, [&](const CsvHeader& h, const CsvRow& r) {
    const std::string_view name = r.Text(h.Find({"Name"}));
    if (name.empty()) return false;
    model::AscendOperatorDetail d;
    d.name = Intern(trace, name);
    d.input_shapes = Intern(trace, r.Text(h.Find({"Input Shapes"})));
    d.call_stack = Intern(trace, r.Text(h.Find({"Call Stack"})));
    d.host_self_ns = r.MicrosToNanos(h.Find({"Host Self Duration(us)"})).value_or(-1);
    d.host_total_ns = r.MicrosToNanos(h.Find({"Host Total Duration(us)"})).value_or(-1);
    d.device_self_ns = r.MicrosToNanos(h.Find({"Device Self Duration(us)"})).value_or(-1);
    d.device_total_ns = r.MicrosToNanos(h.Find({"Device Total Duration(us)"})).value_or(-1);
    d.device_self_aicore_ns =
        r.MicrosToNanos(h.Find({"Device Self Duration With AICore(us)"})).value_or(-1);
    d.device_total_aicore_ns =
        r.MicrosToNanos(h.Find({"Device Total Duration With AICore(us)"})).value_or(-1);
    a.operator_details.push_back(d);
    return true;
  });
}

void ReadStepTraceTime(const fs::path& path, const AscendSideOptions& options,
                       model::Trace* trace) {
  AscendData& a = Ascend(trace);
  ReadSideCsv(path, options, trace, [&](const CsvHeader& h, const CsvRow& r) {
    const auto computing = r.MicrosToNanos(h.Find({"Computing"}));
    if (!computing) return false;
    auto us = [&](std::string_view column) {
      return r.MicrosToNanos(h.Find({column})).value_or(-1);
    };
    model::ReportedStepTrace s;
    s.device_id = DeviceOf(r, h.Find({"Device_id"}));
    s.step = std::string(r.Text(h.Find({"Step"})));
    s.computing_ns = *computing;
    s.communication_not_overlapped_ns = us("Communication(Not Overlapped)");
    s.overlapped_ns = us("Overlapped");
    s.communication_ns = us("Communication");
    s.free_ns = us("Free");
    s.stage_ns = us("Stage");
    s.bubble_ns = us("Bubble");
    s.communication_not_overlapped_exclude_receive_ns =
        us("Communication(Not Overlapped and Exclude Receive)");
    s.preparing_ns = us("Preparing");
    a.profiler_reported.step_trace.push_back(s);
    return true;
  });
}

// ---- communication.json / communication_matrix.json.

int64_t MsToNs(simdjson::dom::element e) {
  const auto v = JsonNumber(e);
  return v ? RoundToInt(*v * kNsPerMs) : -1;
}

model::ReportedCommOp ParseCommOp(std::string_view key, simdjson::dom::object info) {
  model::ReportedCommOp op;
  const size_t at = key.rfind('@');
  op.op_name = std::string(key.substr(0, at));
  if (at != std::string_view::npos) op.group = std::string(key.substr(at + 1));
  simdjson::dom::object time;
  if (info["Communication Time Info"].get(time) == simdjson::SUCCESS) {
    for (auto [name, value] : time) {
      if (name == "Start Timestamp(us)") {
        const auto us = JsonNumber(value);
        if (us) op.start_ns = RoundToInt(*us * 1000.0);
      } else if (name == "Elapse Time(ms)") {
        op.elapse_ns = MsToNs(value);
      } else if (name == "Transit Time(ms)") {
        op.transit_ns = MsToNs(value);
      } else if (name == "Wait Time(ms)") {
        op.wait_ns = MsToNs(value);
      } else if (name == "Synchronization Time(ms)") {
        op.synchronization_ns = MsToNs(value);
      } else if (name == "Idle Time(ms)") {
        op.idle_ns = MsToNs(value);
      } else if (name == "Wait Time Ratio") {
        op.wait_ratio = JsonNumber(value).value_or(NAN);
      } else if (name == "Synchronization Time Ratio") {
        op.synchronization_ratio = JsonNumber(value).value_or(NAN);
      }
    }
  }
  simdjson::dom::object bandwidth;
  if (info["Communication Bandwidth Info"].get(bandwidth) == simdjson::SUCCESS) {
    for (auto [transport, value] : bandwidth) {
      simdjson::dom::object t;
      if (value.get(t) != simdjson::SUCCESS) continue;
      model::ReportedTransportBandwidth b;
      b.transport = std::string(transport);
      simdjson::dom::element e;
      if (t["Transit Size(MB)"].get(e) == simdjson::SUCCESS) {
        b.transit_bytes = RoundToInt(JsonNumber(e).value_or(NAN) * kDecimalMb);
      }
      if (t["Transit Time(ms)"].get(e) == simdjson::SUCCESS) b.transit_ns = MsToNs(e);
      if (t["Bandwidth(GB/s)"].get(e) == simdjson::SUCCESS) {
        b.bandwidth_gbps = JsonNumber(e).value_or(NAN);
      }
      if (t["Large Packet Ratio"].get(e) == simdjson::SUCCESS) {
        b.large_packet_ratio = JsonNumber(e).value_or(NAN);
      }
      simdjson::dom::object dist;
      if (t["Size Distribution"].get(dist) == simdjson::SUCCESS) {
        for (auto [size, counts] : dist) {
          model::ReportedTransportBandwidth::Packets p;
          p.packet_bytes = ParseDecimalScaled(size, 6).value_or(-1);
          simdjson::dom::array pair;
          if (counts.get(pair) == simdjson::SUCCESS && pair.size() >= 2) {
            p.count = JsonInt(pair.at(0).value()).value_or(0);
            p.transit_ns = MsToNs(pair.at(1).value());
          }
          b.size_distribution.push_back(p);
        }
      }
      op.bandwidth.push_back(std::move(b));
    }
  }
  return op;
}

bool IsCommOpInfo(simdjson::dom::object o) {
  simdjson::dom::element e;
  return o["Communication Time Info"].get(e) == simdjson::SUCCESS ||
         o["Communication Bandwidth Info"].get(e) == simdjson::SUCCESS;
}

// torch_npu: {step: {"p2p"|"collective": {op@group: info}}}; msprof's
// analyze/communication.json: {op@group: info} (no steps).
void ParseCommunication(simdjson::dom::element doc, model::AscendProfilerReported* out) {
  simdjson::dom::object root;
  if (doc.get(root) != simdjson::SUCCESS) return;
  auto add_ops = [&](std::string_view step, bool p2p, simdjson::dom::object ops) {
    for (auto [key, value] : ops) {
      simdjson::dom::object info;
      if (value.get(info) != simdjson::SUCCESS || !IsCommOpInfo(info)) continue;
      model::ReportedCommOp op = ParseCommOp(key, info);
      op.step = std::string(step);
      op.p2p = p2p;
      out->communication.push_back(std::move(op));
    }
  };
  for (auto [key, value] : root) {
    simdjson::dom::object o;
    if (value.get(o) != simdjson::SUCCESS) continue;
    if (IsCommOpInfo(o)) {
      model::ReportedCommOp op = ParseCommOp(key, o);
      out->communication.push_back(std::move(op));
      continue;
    }
    for (std::string_view kind : {"p2p", "collective"}) {
      simdjson::dom::object ops;
      if (o[kind].get(ops) == simdjson::SUCCESS) add_ops(key, kind == "p2p", ops);
    }
  }
}

void ParseCommunicationMatrix(simdjson::dom::element doc, model::AscendProfilerReported* out) {
  simdjson::dom::object root;
  if (doc.get(root) != simdjson::SUCCESS) return;
  for (auto [step, value] : root) {
    simdjson::dom::object by_kind;
    if (value.get(by_kind) != simdjson::SUCCESS) continue;
    for (std::string_view kind : {"p2p", "collective"}) {
      simdjson::dom::object ops;
      if (by_kind[kind].get(ops) != simdjson::SUCCESS) continue;
      for (auto [op_key, links_value] : ops) {
        simdjson::dom::object links;
        if (links_value.get(links) != simdjson::SUCCESS) continue;
        const size_t at = op_key.rfind('@');
        for (auto [link, info_value] : links) {
          simdjson::dom::object info;
          if (info_value.get(info) != simdjson::SUCCESS) continue;
          model::ReportedCommLink l;
          l.step = std::string(step);
          l.p2p = kind == "p2p";
          l.op_key = std::string(op_key.substr(0, at));
          if (at != std::string_view::npos) l.group = std::string(op_key.substr(at + 1));
          const size_t dash = link.find('-');
          if (dash != std::string_view::npos) {
            l.src_rank = ParseDecimalScaled(link.substr(0, dash), 0).value_or(-1);
            l.dst_rank = ParseDecimalScaled(link.substr(dash + 1), 0).value_or(-1);
          }
          l.transport = JsonString(info, "Transport Type");
          simdjson::dom::element e;
          if (info["Transit Size(MB)"].get(e) == simdjson::SUCCESS) {
            l.transit_bytes = RoundToInt(JsonNumber(e).value_or(NAN) * kDecimalMb);
          }
          if (info["Transit Time(ms)"].get(e) == simdjson::SUCCESS) l.transit_ns = MsToNs(e);
          if (info["Bandwidth(GB/s)"].get(e) == simdjson::SUCCESS) {
            l.bandwidth_gbps = JsonNumber(e).value_or(NAN);
          }
          l.op_name = JsonString(info, "Op Name");
          out->communication_matrix.push_back(std::move(l));
        }
      }
    }
  }
}

// Reads one JSON side file with `parse`; false when the file is absent.
bool ReadSideJson(const fs::path& path, const AscendSideOptions& options, model::Trace* trace,
                  const std::function<void(simdjson::dom::element)>& parse) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return false;
  simdjson::dom::parser parser;
  auto doc = ParseJsonFile(path, options, parser);
  if (!doc.ok()) {
    Unreadable(trace, doc.status().message());
    return true;
  }
  parse(*doc);
  Ascend(trace).sources.push_back({path.string(), 1, 0});
  return true;
}

void SetDeviceFromData(model::Trace* trace) {
  AscendData& a = Ascend(trace);
  if (a.device.device_id >= 0) return;
  for (const model::AscendKernel& k : a.kernels.rows) {
    if (k.device_id >= 0) {
      a.device.device_id = k.device_id;
      return;
    }
  }
  for (const model::AscendMemoryRecord& m : a.memory_records) {
    if (m.device_id >= 0) {
      a.device.device_id = m.device_id;
      return;
    }
  }
  for (const model::Track& t : trace->tracks) {
    if (t.device_id >= 0 && model::IsDeviceTrack(t.kind)) {
      a.device.device_id = t.device_id;
      return;
    }
  }
}

// Rank-wide facts the generic RankInfo carries too.
void FillRankInfo(model::Trace* trace) {
  const AscendData& a = *trace->ascend;
  if (!trace->info.world_size) {
    if (auto w = a.DistributedInt("world_size")) trace->info.world_size = w;
  }
  if (!trace->info.rank && a.config.rank_id) trace->info.rank = a.config.rank_id;
  if (!a.device.chip.empty()) trace->info.device_name = a.device.chip;
}

}  // namespace

bool ParseProfilerMetadataJson(std::string_view json, model::AscendData* ascend) {
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  if (parser.parse(simdjson::padded_string(json)).get(doc) != simdjson::SUCCESS) return false;
  ParseMetadata(doc, ascend);
  return true;
}

std::optional<int32_t> ParseAscendDevice(std::string_view text) {
  std::string_view t = TrimCell(text);
  const size_t colon = t.find_first_of(": ");
  if (colon != std::string_view::npos) t = t.substr(colon + 1);
  if (t.empty() || t.size() > 6) return std::nullopt;
  int32_t v = 0;
  for (char c : t) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + (c - '0');
  }
  return v;
}

std::string CanonicalMetricName(std::string_view raw, bool values_in_ns, double* factor) {
  *factor = 1;
  std::string name = AsciiLower(TrimCell(raw));
  std::string unit;
  const size_t open = name.rfind('(');
  if (open != std::string::npos && !name.empty() && name.back() == ')') {
    unit = name.substr(open + 1, name.size() - open - 2);
    name.resize(open);
  }
  while (!name.empty() && name.back() == ' ') name.pop_back();
  for (char& c : name) {
    if (c == ' ' || c == '-' || c == '/') c = '_';
  }
  if (unit == "us") {
    *factor = 1000;
    name += "_ns";
  } else if (unit == "ns") {
    name += "_ns";
  } else if (unit == "ms") {
    *factor = 1e6;
    name += "_ns";
  } else if (unit == "%") {
    name += "_pct";
  } else if (unit == "gb/s") {
    name += "_gbps";
  } else if (unit == "mb/s") {
    name += "_mbps";
  } else if (!unit.empty()) {
    for (char& c : unit) {
      if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    }
    name += "_" + unit;
  } else if (values_in_ns && name.ends_with("_time")) {
    name += "_ns";  // the DB's PMU times are ns
  }
  // kernel_details' "aicore_time(us)" / "aiv_time(us)" are the DB's
  // aic_total_time / aiv_total_time.
  if (name == "aicore_time_ns") name = "aic_total_time_ns";
  if (name == "aiv_time_ns") name = "aiv_total_time_ns";
  return name;
}

void ReadProfilerInfoFiles(const std::string& profile_dir, const AscendSideOptions& options,
                           model::Trace* trace) {
  AscendData& a = Ascend(trace);
  const fs::path dir(profile_dir);
  // profiler_info_{rank}.json, or profiler_info.json when not distributed.
  std::vector<fs::path> infos = FilesLike(dir, "profiler_info", ".json");
  for (const fs::path& p : infos) {
    ReadSideJson(p, options, trace,
                 [&](simdjson::dom::element doc) { ParseProfilerInfo(doc, &a.config); });
    break;  // one per folder
  }
  ReadSideJson(dir / "profiler_metadata.json", options, trace,
               [&](simdjson::dom::element doc) { ParseMetadata(doc, &a); });
}

void ReadMsprofDeviceInfo(const std::string& dir, const AscendSideOptions& options,
                          model::Trace* trace) {
  AscendData& a = Ascend(trace);
  std::vector<fs::path> prof_dirs;
  const fs::path root(dir);
  if (root.filename().string().starts_with("PROF_")) prof_dirs.push_back(root);
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(root, ec)) {
    if (entry.is_directory(ec) && entry.path().filename().string().starts_with("PROF_")) {
      prof_dirs.push_back(entry.path());
    }
  }
  for (const fs::path& prof : prof_dirs) {
    for (const auto& dev : fs::directory_iterator(prof, ec)) {
      const std::string dev_name = dev.path().filename().string();
      if (!dev.is_directory(ec) || !dev_name.starts_with("device_")) continue;
      for (const fs::path& info : FilesLike(dev.path(), "info.json", "")) {
        if (info.filename().string().ends_with(".done")) continue;
        ReadSideJson(info, options, trace, [&](simdjson::dom::element doc) {
          simdjson::dom::array devices;
          if (doc["DeviceInfo"].get(devices) != simdjson::SUCCESS || devices.size() == 0) return;
          simdjson::dom::object d;
          if (devices.at(0).get(d) != simdjson::SUCCESS) return;
          simdjson::dom::element e;
          if (d["ai_core_num"].get(e) == simdjson::SUCCESS) {
            a.device.ai_core_count = static_cast<int32_t>(JsonInt(e).value_or(-1));
          }
          if (d["aiv_num"].get(e) == simdjson::SUCCESS) {
            a.device.aiv_count = static_cast<int32_t>(JsonInt(e).value_or(-1));
          }
          if (d["aic_frequency"].get(e) == simdjson::SUCCESS && a.device.aicore_freq_mhz < 0) {
            a.device.aicore_freq_mhz = JsonNumber(e).value_or(-1);
          }
          if (d["id"].get(e) == simdjson::SUCCESS && a.device.device_id < 0) {
            a.device.device_id = static_cast<int32_t>(JsonInt(e).value_or(-1));
          }
        });
        if (a.device.ai_core_count >= 0) return;
      }
    }
  }
}

void ReadAscendProfileFiles(const std::string& profile_dir, std::string_view framework,
                            const AscendSideOptions& options, model::Trace* trace) {
  AscendData& a = Ascend(trace);
  a.config.framework = std::string(framework);
  ReadProfilerInfoFiles(profile_dir, options, trace);
  const fs::path out = fs::path(profile_dir) / "ASCEND_PROFILER_OUTPUT";
  ReadKernelCsv(out / "kernel_details.csv", options, trace);
  ReadOperatorDetails(out / "operator_details.csv", options, trace);
  ReadOpStatistic(out / "op_statistic.csv", options, trace);
  ReadApiStatistic(out / "api_statistic.csv", options, trace);
  ReadMemoryRecords(out / "memory_record.csv", options, trace);
  ReadOperatorMemory(out / "operator_memory.csv", options, trace);
  ReadModuleMemory(out / "npu_module_mem.csv", options, trace);
  ReadAiCpu(out / "data_preprocess.csv", options, trace);
  ReadL2Cache(out / "l2_cache.csv", options, trace);
  ReadStepTraceTime(out / "step_trace_time.csv", options, trace);
  ReadSideJson(out / "communication.json", options, trace,
               [&](simdjson::dom::element doc) { ParseCommunication(doc, &a.profiler_reported); });
  ReadSideJson(out / "communication_matrix.json", options, trace, [&](simdjson::dom::element doc) {
    ParseCommunicationMatrix(doc, &a.profiler_reported);
  });
  ReadMsprofDeviceInfo(profile_dir, options, trace);
  SetDeviceFromData(trace);
  LinkAscendKernels(trace);
  CopyAscendMemoryToTrace(trace);
  FillRankInfo(trace);
}

void ReadMsprofFiles(const std::string& prof_dir, const AscendSideOptions& options,
                     model::Trace* trace) {
  AscendData& a = Ascend(trace);
  a.config.framework = "msprof";
  const fs::path out = fs::path(prof_dir) / "mindstudio_profiler_output";
  for (const fs::path& p : FilesLike(out, "op_summary_", ".csv")) ReadKernelCsv(p, options, trace);
  for (const fs::path& p : FilesLike(out, "op_statistic_", ".csv"))
    ReadOpStatistic(p, options, trace);
  for (const fs::path& p : FilesLike(out, "api_statistic_", ".csv"))
    ReadApiStatistic(p, options, trace);
  for (const fs::path& p : FilesLike(out, "npu_module_mem_", ".csv")) {
    ReadModuleMemory(p, options, trace);
  }
  for (const fs::path& p : FilesLike(out, "aicpu_", ".csv")) ReadAiCpu(p, options, trace);
  const fs::path analyze = fs::path(prof_dir) / "analyze";
  ReadSideJson(analyze / "communication.json", options, trace,
               [&](simdjson::dom::element doc) { ParseCommunication(doc, &a.profiler_reported); });
  ReadSideJson(
      analyze / "communication_matrix.json", options, trace,
      [&](simdjson::dom::element doc) { ParseCommunicationMatrix(doc, &a.profiler_reported); });
  ReadMsprofDeviceInfo(prof_dir, options, trace);
  SetDeviceFromData(trace);
  LinkAscendKernels(trace);
  FillRankInfo(trace);
}

Result<model::Trace> ImportAscendKernelCsv(const io::TraceInput& input,
                                           const AscendSideOptions& options) {
  // The timeline from the rows, first; then the same file through the
  // kernel reader into Trace::ascend, linked to the tasks by start and
  // stream as in a profile folder.
  struct Task {
    std::string name;
    std::string task_type;
    int64_t stream = -1;
    int64_t start_ns = 0;
    int64_t dur_ns = 0;
  };
  std::vector<Task> tasks;
  bool have_columns = false;
  uint64_t records = 0;
  const Status status = ReadCsvFile(
      input.trace_path, options.limits, options.csv,
      [&](const CsvHeader& h, const CsvRow& r) {
        ++records;
        const int name = h.Find({"Name", "Op Name"});
        const int core = h.Find({"Accelerator Core", "Task Type"});
        const int start = h.Find({"Start Time(us)", "Task Start Time(us)"});
        const int dur = h.Find({"Duration(us)", "Task Duration(us)"});
        if (name < 0 || core < 0 || start < 0 || dur < 0) return;
        have_columns = true;
        const auto start_ns = r.MicrosToNanos(start);
        const auto dur_ns = r.MicrosToNanos(dur);
        if (r.Text(name).empty() || !start_ns || !dur_ns || *dur_ns < 0) return;
        tasks.push_back({std::string(r.Text(name)), std::string(r.Text(core)),
                         r.Int(h.Find({"Stream ID"})).value_or(-1), *start_ns, *dur_ns});
      },
      nullptr);
  PERFDX_RETURN_IF_ERROR(status);
  if (!have_columns) {
    return InvalidInput(fmt::format(
        "{}: not a kernel_details.csv / op_summary csv (needs Name, Accelerator Core or Task "
        "Type, Start Time(us) and Duration(us) columns{})",
        input.trace_path, records == 0 ? "; the file has no rows" : ""));
  }
  if (tasks.empty()) {
    return InvalidInput(
        fmt::format("{}: no kernel row with a start and a duration", input.trace_path));
  }

  model::RankInfo info;
  info.path = input.trace_path;
  info.rank = input.rank_hint;
  model::TraceBuilder builder(std::move(info));
  // Process ids of the events this builds; any distinct numbers do.
  constexpr int64_t kHardwarePid = 1;
  constexpr int64_t kHcclPid = 2;
  model::RawEvent e;
  auto meta = [&](std::string_view what, int64_t pid, int64_t tid, std::string_view value) {
    e.Clear();
    e.phase = "M";
    e.name = what;
    e.pid = {.number = pid, .present = true};
    e.tid = {.number = tid, .present = true};
    if (what == "process_labels") {
      e.meta_labels = value;
    } else {
      e.meta_name = value;
    }
    builder.AddEvent(e);
  };
  meta("process_name", kHardwarePid, 0, "Ascend Hardware");
  meta("process_labels", kHardwarePid, 0, "NPU");
  std::unordered_set<int64_t> streams;
  bool hccl = false;
  for (const Task& t : tasks) {
    if (t.task_type == "HCCL") {
      if (!hccl) {
        meta("process_name", kHcclPid, 0, "HCCL");
        meta("process_labels", kHcclPid, 0, "NPU");
        meta("thread_name", kHcclPid, 0, "Group 0 Communication");
        hccl = true;
      }
      continue;
    }
    const int64_t stream = std::max<int64_t>(t.stream, 0);
    if (streams.insert(stream).second) {
      meta("thread_name", kHardwarePid, stream, fmt::format("Stream {}", stream));
    }
  }
  for (const Task& t : tasks) {
    const bool op = t.task_type == "HCCL";
    e.Clear();
    e.phase = "X";
    e.name = t.name;
    e.pid = {.number = op ? kHcclPid : kHardwarePid, .present = true};
    e.tid = {.number = op ? 0 : std::max<int64_t>(t.stream, 0), .present = true};
    e.ts_state = model::FieldState::kOk;
    e.ts_ns = t.start_ns;
    e.dur_state = model::FieldState::kOk;
    e.dur_ns = t.dur_ns;
    if (!op) {
      e.args.push_back({model::ArgKey::kTaskType, model::ArgType::kString, 0, 0, t.task_type});
    }
    builder.AddEvent(e);
  }
  TraceEnvelope envelope;
  ChromeClassifier classifier(envelope);
  PERFDX_ASSIGN_OR_RETURN(model::Trace trace, std::move(builder).Finalize(classifier));
  trace.info.source = model::SourceFormat::kAscendKernelCsv;
  AscendData& a = Ascend(&trace);
  a.config.framework = input.framework;
  ReadKernelCsv(input.trace_path, options, &trace);
  SetDeviceFromData(&trace);
  LinkAscendKernels(&trace);
  FillRankInfo(&trace);
  return trace;
}

void LinkAscendKernels(model::Trace* trace) {
  if (!trace->ascend) return;
  AscendData& a = *trace->ascend;
  // Device slices by start time: stream tasks, and HCCL ops for the
  // kernel_details rows of collectives (Accelerator Core "HCCL").
  const model::SliceTable& s = trace->slices;
  std::vector<std::pair<int64_t, model::SliceId>> by_start;
  for (model::SliceId i = 0; i < s.size(); ++i) {
    const model::TrackKind kind = trace->tracks[s.track[i]].kind;
    if (kind != model::TrackKind::kDeviceStream && kind != model::TrackKind::kCommOps) continue;
    by_start.emplace_back(s.ts_ns[i], i);
  }
  std::sort(by_start.begin(), by_start.end());
  // kernel_details rounds HCCL op starts differently from trace_view.json
  // (…241.563 vs …241.564): a start within this much matches when the name
  // does.
  constexpr int64_t kToleranceNs = 1000;
  for (model::AscendKernel& k : a.kernels.rows) {
    if (k.slice >= 0) continue;
    const bool hccl = trace->str(k.core_type) == "HCCL";
    auto it = std::lower_bound(by_start.begin(), by_start.end(),
                               std::make_pair(k.start_ns - kToleranceNs, model::SliceId{0}));
    int64_t best = -1;
    int best_score = -1;
    for (; it != by_start.end() && it->first <= k.start_ns + kToleranceNs; ++it) {
      const model::SliceId i = it->second;
      const model::Track& t = trace->tracks[s.track[i]];
      if ((t.kind == model::TrackKind::kCommOps) != hccl) continue;
      if (k.stream_id >= 0 && t.stream_id >= 0 && t.stream_id != k.stream_id) continue;
      const bool exact = it->first == k.start_ns;
      const bool same_name = trace->slice_name(i) == trace->str(k.name);
      if (!exact && !same_name) continue;
      const int score = (exact ? 4 : 0) + (same_name ? 2 : 0) +
                        (k.stream_id >= 0 && t.stream_id == k.stream_id ? 1 : 0);
      if (score > best_score) {
        best = i;
        best_score = score;
      }
    }
    k.slice = best;
  }
  if (a.device.aicore_freq_mhz < 0) {
    // The first sample of the "AI Core Freq" counter.
    const model::CounterTable& c = trace->counters;
    for (size_t i = 0; i < c.size(); ++i) {
      const model::Track& t = trace->tracks[c.track[i]];
      if ((trace->str(t.thread_name)).starts_with("AI Core Freq")) {
        a.device.aicore_freq_mhz = c.value[i];
        break;
      }
    }
  }
}

void CopyAscendMemoryToTrace(model::Trace* trace) {
  if (!trace->ascend || trace->ascend->memory_records.empty()) return;
  AscendData& a = *trace->ascend;
  // The framework's caching allocator, as Kineto's "[memory]" records are
  // for CUDA: torch_npu's PTA; MindSpore's own component; else the merged
  // and graph-engine views. APP (the whole process, sampled) is never used:
  // it has no allocated total and includes HCCL buffers and the runtime.
  std::string chosen;
  for (std::string_view want : {"PTA", "MindSpore", "MS", "PTA+GE", "GE"}) {
    for (const model::AscendMemoryRecord& m : a.memory_records) {
      if (trace->str(m.component) == want && m.allocated_bytes >= 0) {
        chosen = std::string(want);
        break;
      }
    }
    if (!chosen.empty()) break;
  }
  if (chosen.empty()) return;
  a.memory_component = chosen;
  std::vector<const model::AscendMemoryRecord*> rows;
  for (const model::AscendMemoryRecord& m : a.memory_records) {
    if (trace->str(m.component) == chosen && m.allocated_bytes >= 0) rows.push_back(&m);
  }
  std::stable_sort(rows.begin(), rows.end(),
                   [](const auto* x, const auto* y) { return x->ts_ns < y->ts_ns; });
  model::MemoryEventTable& t = trace->memory;
  std::unordered_map<int32_t, int64_t> previous;  // allocated total per device
  for (const model::AscendMemoryRecord* m : rows) {
    auto [it, first] = previous.try_emplace(m->device_id, m->allocated_bytes);
    t.ts_ns.push_back(m->ts_ns);
    t.bytes.push_back(first ? 0 : m->allocated_bytes - it->second);
    it->second = m->allocated_bytes;
    t.total_allocated.push_back(m->allocated_bytes);
    t.total_reserved.push_back(m->reserved_bytes);
    t.device_id.push_back(static_cast<int16_t>(std::clamp<int32_t>(m->device_id, -1, INT16_MAX)));
    t.device_type.push_back(-1);
    t.addr.push_back(0);
  }
  // Keep the table sorted by time (the model's invariant) if it held events.
  std::vector<uint32_t> order(t.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&t](uint32_t x, uint32_t y) { return t.ts_ns[x] < t.ts_ns[y]; });
  auto permute = [&order](auto& column) {
    auto copy = column;
    for (size_t i = 0; i < order.size(); ++i) column[i] = copy[order[i]];
  };
  permute(t.ts_ns);
  permute(t.bytes);
  permute(t.total_allocated);
  permute(t.total_reserved);
  permute(t.device_id);
  permute(t.device_type);
  permute(t.addr);
}

}  // namespace perfdx::formats
