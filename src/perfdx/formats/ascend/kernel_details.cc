#include "perfdx/formats/ascend/kernel_details.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <unordered_set>
#include <utility>
#include <vector>

#include "perfdx/base/strings.h"

namespace perfdx::formats {

namespace fs = std::filesystem;
using model::AscendData;

namespace {

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

}  // namespace

namespace side_file {

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

}  // namespace side_file

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
  // Tasks looked at per row: a device runs a few dozen tasks within 2 us at
  // most; without a bound, a table whose rows all start at one time linked in
  // rows x tasks (#17).
  constexpr size_t kMaxCandidates = 256;
  for (model::AscendKernel& k : a.kernels.rows) {
    if (k.slice >= 0) continue;
    const bool hccl = trace->str(k.core_type) == "HCCL";
    auto it = std::lower_bound(by_start.begin(), by_start.end(),
                               std::make_pair(k.start_ns - kToleranceNs, model::SliceId{0}));
    int64_t best = -1;
    int best_score = -1;
    const int max_score = 6 + (k.stream_id >= 0 ? 1 : 0);  // nothing after it can beat it
    for (size_t looked = 0; it != by_start.end() && it->first <= k.start_ns + kToleranceNs &&
                            looked < kMaxCandidates && best_score < max_score;
         ++it, ++looked) {
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

}  // namespace perfdx::formats
