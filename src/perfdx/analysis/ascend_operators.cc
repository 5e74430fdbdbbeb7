#include "perfdx/analysis/ascend_operators.h"

#include <algorithm>
#include <string_view>
#include <unordered_map>

#include <fmt/format.h>

namespace perfdx::analysis {
namespace {

using model::SliceId;

constexpr std::string_view kPipes[] = {"vec", "mac", "scalar", "mte1", "mte2", "mte3"};

bool RowInWindow(const model::Trace& trace, const model::AscendKernel& k,
                 const IntervalSet& window) {
  if (k.slice >= 0) return window.Contains(trace.slices.ts_ns[static_cast<SliceId>(k.slice)]);
  return k.start_ns >= 0 && window.Contains(k.start_ns);
}

void CollectKernelRows(const model::Trace& trace, const IntervalSet& window, AscendOperators* out) {
  const model::AscendKernelTable& table = trace.ascend->kernels;
  std::vector<int> pipe_columns;
  for (std::string_view pipe : kPipes) {
    for (std::string_view prefix : {"", "aic_", "aiv_"}) {
      const int col = table.MetricColumn(fmt::format("{}{}_ratio", prefix, pipe));
      if (col >= 0) pipe_columns.push_back(col);
    }
  }
  out->has_pipe_ratios = !table.rows.empty() && !pipe_columns.empty();
  for (size_t k = 0; k < table.rows.size(); ++k) {
    const model::AscendKernel& row = table.rows[k];
    if (!RowInWindow(trace, row, window)) continue;
    const std::string_view type = trace.str(row.core_type);
    if (type != "HCCL") {
      if (row.op_state == model::AscendOpState::kDynamic) ++out->op_states.dynamic_ops;
      if (row.op_state == model::AscendOpState::kStatic) ++out->op_states.static_ops;
      if (row.op_state == model::AscendOpState::kUnknown) ++out->op_states.unknown_ops;
    }
    AscendKernelRow r;
    r.name = std::string(trace.str(row.name));
    r.op_type = std::string(trace.str(row.op_type));
    r.task_type = std::string(type);
    r.start_ns = row.start_ns;
    r.dur_ns = row.dur_ns;
    r.block_dim = row.block_dim;
    r.mix_block_dim = row.mix_block_dim;
    for (int col : pipe_columns)
      r.busiest_pipe_ratio = std::max(r.busiest_pipe_ratio, table.Metric(k, col).value_or(0));
    out->kernel_rows.push_back(std::move(r));
  }
}

void CollectComputeTasks(const model::Trace& trace, const IntervalSet& window,
                         AscendOperators* out) {
  // The kernel-table row of each timeline slice (the last row naming it).
  std::unordered_map<SliceId, const model::AscendKernel*> row_of;
  if (trace.ascend) {
    for (const model::AscendKernel& k : trace.ascend->kernels.rows) {
      if (k.slice >= 0) row_of[static_cast<SliceId>(k.slice)] = &k;
    }
  }
  const model::SliceTable& s = trace.slices;
  for (SliceId i = 0; i < s.size(); ++i) {
    if (s.kind[i] != model::EventKind::kComputeKernel ||
        !model::IsDeviceTrack(trace.tracks[s.track[i]].kind) || !window.Contains(s.ts_ns[i]))
      continue;
    AscendComputeTask task;
    task.name = std::string(trace.slice_name(i));
    task.task_type = std::string(trace.ArgString(i, model::ArgKey::kTaskType).value_or(""));
    if (auto it = row_of.find(i); it != row_of.end())
      task.input_dtypes = std::string(trace.str(it->second->input_dtypes));
    task.ts_ns = s.ts_ns[i];
    task.dur_ns = s.dur_ns[i];
    out->compute_tasks.push_back(std::move(task));
  }
}

void CollectClockSamples(const model::Trace& trace, AscendOperators* out) {
  const model::CounterTable& c = trace.counters;
  for (size_t i = 0; i < c.size(); ++i) {
    const model::Track& track = trace.tracks[c.track[i]];
    if (trace.str(track.thread_name).substr(0, 12) != "AI Core Freq") continue;
    out->ai_core_freq.push_back({c.ts_ns[i], c.value[i]});
  }
  std::sort(out->ai_core_freq.begin(), out->ai_core_freq.end(),
            [](const ClockSample& a, const ClockSample& b) { return a.ts_ns < b.ts_ns; });
}

}  // namespace

AscendOperators CollectAscendOperators(const model::Trace& trace, const IntervalSet& window) {
  AscendOperators out;
  if (trace.ascend) CollectKernelRows(trace, window, &out);
  // Only Ascend device tasks carry a task type and only an NPU has an AI Core clock.
  if (trace.info.device_type != model::DeviceType::kNpu) return out;
  CollectComputeTasks(trace, window, &out);
  CollectClockSamples(trace, &out);
  return out;
}

}  // namespace perfdx::analysis
