// model::AscendData — what an Ascend profile holds beyond the timeline.
//
// The timeline itself (tasks, APIs, operators, collectives, flows, steps) is
// in the generic Trace tables, identically for every Ascend source. This
// struct carries the Ascend-only detail the Ascend analyses and rules read:
// per-kernel operator detail and PMU metrics, the device, the profiler's
// configuration, the environment, parallel groups, memory records and the
// profiler's own statistics. Importers fill it (formats/ascend_*); nothing
// here is computed by perfdx.
//
// Units: times and durations are int64 ns, sizes int64 bytes; -1 means "not
// recorded" for every such column. Strings (names, shapes, types) are
// interned in the owning Trace's string pool: read them with trace.str(id).
//
// Sources and the exact column/table each field comes from: docs/ascend.md.
//
//   const model::AscendData* a = trace.ascend ? &*trace.ascend : nullptr;
//   for (size_t k = 0; a && k < a->kernels.rows.size(); ++k) {
//     const model::AscendKernel& row = a->kernels.rows[k];
//     auto mte2 = a->kernels.Metric(k, "aic_mte2_ratio");   // nullopt: not recorded
//   }
#pragma once

#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "perfdx/model/string_pool.h"

namespace perfdx::model {

// "OP State" of kernel_details / opState of COMPUTE_TASK_INFO: whether the
// operator was compiled for static or dynamic shapes.
enum class AscendOpState : uint8_t { kUnknown, kStatic, kDynamic };

// One device task with operator detail: a kernel_details.csv row (torch_npu,
// MindSpore), an op_summary_*.csv row (msprof), or a COMPUTE_TASK_INFO row
// joined to its TASK (DB export).
struct AscendKernel {
  int64_t step_id = -1;    // "Step Id" (text only); -1 when absent
  int32_t device_id = -1;  // "Device_id" (CANN >= 8.3) / TASK.deviceId
  int64_t model_id = -1;   // as written; 4294967295 is the profiler's "no model"
  int64_t stream_id = -1;
  int64_t task_id = -1;
  int64_t context_id = -1;  // FFTS+ sub-task; -1 for N/A
  StringId name = kEmptyString;
  StringId op_type = kEmptyString;  // "Type" / "OP Type" / opType: MatMulV2, TransData, ...
  // "Accelerator Core" / "Task Type" / taskType: AI_CORE, AI_VECTOR_CORE,
  // MIX_AIC, MIX_AIV, AI_CPU, DSA_SQE, HCCL, ...
  StringId core_type = kEmptyString;
  int64_t start_ns = -1;
  int64_t dur_ns = -1;
  int64_t wait_ns = -1;        // "Wait Time(us)" / waitNs: gap after the previous task
  int64_t block_dim = -1;      // "Block Dim" / "Block Num" / blockDim / blockNum
  int64_t mix_block_dim = -1;  // "Mix Block Dim" / "Mix Block Num"
  AscendOpState op_state = AscendOpState::kUnknown;
  int8_t hf32_eligible = -1;  // "HF32 Eligible": 1 YES, 0 NO, -1 not recorded
  // As written: shapes "32,3,224,224;64" (tensors separated by ';'), data
  // types "FLOAT16;FLOAT", formats "NCHW;FRACTAL_Z".
  StringId input_shapes = kEmptyString;
  StringId input_dtypes = kEmptyString;
  StringId input_formats = kEmptyString;
  StringId output_shapes = kEmptyString;
  StringId output_dtypes = kEmptyString;
  StringId output_formats = kEmptyString;
  // The "Ascend Hardware" slice of this task in Trace::slices (same stream
  // and start time), -1 when the timeline has none.
  int64_t slice = -1;
};

// The kernels and their PMU metrics. Metric names are canonical across
// sources: lower case, the unit folded into the name and the value
// converted — "aic_mac_ratio", "aiv_vec_ratio", "aic_mte2_time_ns",
// "aic_total_time_ns" (kernel_details "aicore_time(us)", DB "aic_total_time"),
// "aiv_total_time_ns" ("aiv_time(us)"), "aic_total_cycles",
// "cube_utilization_pct", "aic_l0a_read_bw_gbps". Which metrics exist depends
// on the profile's aic_metrics setting (PipeUtilization,
// ArithmeticUtilization, Memory, ...).
struct AscendKernelTable {
  std::vector<AscendKernel> rows;
  std::vector<std::string> metric_names;
  // rows.size() x metric_names.size(), row-major; NaN = not recorded ("N/A").
  std::vector<double> metric_values;

  // Column of a metric, -1 when the profile has no such metric.
  int MetricColumn(std::string_view name) const {
    for (size_t c = 0; c < metric_names.size(); ++c) {
      if (metric_names[c] == name) return static_cast<int>(c);
    }
    return -1;
  }
  std::optional<double> Metric(size_t row, int column) const {
    if (column < 0 || row >= rows.size()) return std::nullopt;
    const double v = metric_values[row * metric_names.size() + static_cast<size_t>(column)];
    if (std::isnan(v)) return std::nullopt;
    return v;
  }
  std::optional<double> Metric(size_t row, std::string_view name) const {
    return Metric(row, MetricColumn(name));
  }
};

// The NPU: what the profile says about the chip.
struct AscendDevice {
  int32_t device_id = -1;
  std::string chip;            // NPU_INFO.name, e.g. "Ascend910B"
  int32_t ai_core_count = -1;  // msprof device info.json "ai_core_num"
  int32_t aiv_count = -1;      // "aiv_num"
  // AI Core frequency: the first sample of the "AI Core Freq" counter /
  // AICORE_FREQ, else info.json "aic_frequency"; -1 unknown.
  double aicore_freq_mhz = -1;
};

// profiler_info_{rank}.json (torch_npu / MindSpore).
struct AscendProfilerConfig {
  std::string framework;                  // "torch_npu", "mindspore", "msprof"
  std::string profiler_level;             // "Level0", "Level1", "Level2", "Level_none"
  std::string aic_metrics;                // "ACL_AICORE_PIPE_UTILIZATION", ...
  std::vector<std::string> export_types;  // "text", "db"
  std::vector<std::string> activities;    // "ProfilerActivity.CPU", ...
  std::optional<bool> record_shapes;
  std::optional<bool> profile_memory;
  std::optional<bool> with_stack;
  std::optional<bool> with_modules;
  std::optional<bool> with_flops;
  std::optional<bool> l2_cache;
  std::optional<bool> data_simplification;
  std::string torch_npu_version;
  std::string cann_version;
  std::optional<int64_t> rank_id;
  std::optional<int64_t> collection_end_ns;  // end_info.collectionTimeEnd
};

// profiler_metadata.json "parallel_group_info" entry: a communication
// group of the framework (torch process group / Megatron dp, tp, pp, ...).
struct AscendParallelGroup {
  std::string key;   // "group_name_19"
  std::string name;  // "pp", "dp", "default_group"
  int64_t group_rank = -1;
  std::vector<int64_t> global_ranks;
};

// memory_record.csv / MEMORY_RECORD: the totals after each allocator event.
struct AscendMemoryRecord {
  // "PTA" (torch_npu caching allocator), "GE" (graph engine), "PTA+GE",
  // "APP" (the whole process, sampled by the driver), MindSpore's own.
  StringId component = kEmptyString;
  int64_t ts_ns = -1;
  int64_t allocated_bytes = -1;
  int64_t reserved_bytes = -1;
  int64_t active_bytes = -1;
  int64_t stream_ptr = -1;
  int32_t device_id = -1;  // "NPU:0" -> 0
};

// operator_memory.csv / OP_MEMORY: one block an operator allocated.
struct AscendOperatorMemory {
  StringId name = kEmptyString;  // aten::empty_strided, cann::...
  int64_t size_bytes = -1;
  int64_t allocation_ns = -1;
  int64_t release_ns = -1;  // -1: not released inside the window
  int64_t active_release_ns = -1;
  int64_t duration_ns = -1;
  int64_t active_duration_ns = -1;
  int64_t allocation_allocated_bytes = -1;  // allocator totals at allocation
  int64_t allocation_reserved_bytes = -1;
  int64_t allocation_active_bytes = -1;
  int64_t release_allocated_bytes = -1;  // allocator totals at release
  int64_t release_reserved_bytes = -1;
  int64_t release_active_bytes = -1;
  int64_t stream_ptr = -1;
  int32_t device_id = -1;
};

// npu_module_mem.csv / NPU_MODULE_MEM: device memory reserved per CANN module.
struct AscendModuleMemory {
  StringId component = kEmptyString;  // SLOG, APP, HCCL, RUNTIME, GE, ...
  int64_t ts_ns = -1;
  int64_t reserved_bytes = -1;
  int32_t device_id = -1;
};

// api_statistic.csv: the profiler's per-API host time aggregate.
struct AscendApiStatistic {
  int32_t device_id = -1;         // "host" -> -1
  StringId level = kEmptyString;  // acl, hccl, node, runtime, model
  StringId name = kEmptyString;
  int64_t total_ns = -1;
  int64_t count = -1;
  int64_t avg_ns = -1;
  int64_t min_ns = -1;
  int64_t max_ns = -1;
  double variance = NAN;  // as written (µs²)
};

// op_statistic.csv: the profiler's per-op-type device time aggregate.
struct AscendOpStatistic {
  int32_t device_id = -1;
  StringId op_type = kEmptyString;
  StringId core_type = kEmptyString;
  int64_t count = -1;
  int64_t total_ns = -1;
  int64_t min_ns = -1;
  int64_t avg_ns = -1;
  int64_t max_ns = -1;
  double ratio_pct = NAN;
};

// data_preprocess.csv (msprof aicpu): AI CPU data-preprocessing ops (GetNext).
struct AscendAiCpuOp {
  int32_t device_id = -1;
  int64_t ts_ns = -1;
  StringId node = kEmptyString;
  int64_t compute_ns = -1;
  int64_t memcpy_ns = -1;
  int64_t task_ns = -1;
  int64_t dispatch_ns = -1;
  int64_t total_ns = -1;
  int64_t stream_id = -1;
  int64_t task_id = -1;
};

// l2_cache.csv: per-task L2 hit and victim rates (0..1).
struct AscendL2Cache {
  int64_t stream_id = -1;
  int64_t task_id = -1;
  double hit_rate = NAN;
  double victim_rate = NAN;
  StringId op_name = kEmptyString;
};

// operator_details.csv: framework operators with the device time the
// profiler attributed to them.
struct AscendOperatorDetail {
  StringId name = kEmptyString;
  StringId input_shapes = kEmptyString;
  StringId call_stack = kEmptyString;  // frames separated by ";\r\n" / ";\n"
  int64_t host_self_ns = -1;
  int64_t host_total_ns = -1;
  int64_t device_self_ns = -1;
  int64_t device_total_ns = -1;
  int64_t device_self_aicore_ns = -1;
  int64_t device_total_aicore_ns = -1;
};

// ---- The profiler's own analyses: for cross-checks only. perfdx computes
// these numbers itself from the tasks (analysis/device_time.h,
// analysis/collectives.h); nothing may read them as a source.

// step_trace_time.csv (analysis.db StepTraceTime is never read).
struct ReportedStepTrace {
  int32_t device_id = -1;
  std::string step;  // "50"; empty without steps
  int64_t computing_ns = -1;
  int64_t communication_not_overlapped_ns = -1;
  int64_t overlapped_ns = -1;
  int64_t communication_ns = -1;
  int64_t free_ns = -1;
  int64_t stage_ns = -1;
  int64_t bubble_ns = -1;
  int64_t communication_not_overlapped_exclude_receive_ns = -1;
  int64_t preparing_ns = -1;
};

// communication.json "Communication Bandwidth Info" of one op and transport.
struct ReportedTransportBandwidth {
  std::string transport;       // "HCCS", "PCIE", "RDMA", "SDMA", "SIO", "UB"
  int64_t transit_bytes = -1;  // "Transit Size(MB)" x 10^6 (decimal MB, as the sample's sizes show)
  int64_t transit_ns = -1;     // "Transit Time(ms)"
  double bandwidth_gbps = NAN;  // "Bandwidth(GB/s)" = MB/ms
  double large_packet_ratio = NAN;
  struct Packets {
    int64_t packet_bytes = -1;  // the "Size Distribution" key (MB) in bytes
    int64_t count = 0;
    int64_t transit_ns = 0;
  };
  std::vector<Packets> size_distribution;
};

// communication.json: one op ("<op name>@<group>") of one step.
struct ReportedCommOp {
  std::string step;     // "step50", "step"
  bool p2p = false;     // under "p2p" rather than "collective"
  std::string op_name;  // hcom_allReduce__586_0_1, or "Total Op Info"
  std::string group;    // the text after '@' (a hashed group id)
  int64_t start_ns = -1;
  int64_t elapse_ns = -1;
  int64_t transit_ns = -1;
  int64_t wait_ns = -1;
  int64_t synchronization_ns = -1;
  int64_t idle_ns = -1;
  double wait_ratio = NAN;
  double synchronization_ratio = NAN;
  std::vector<ReportedTransportBandwidth> bandwidth;
};

// communication_matrix.json: one link of one aggregated op.
struct ReportedCommLink {
  std::string step;
  bool p2p = false;
  std::string op_key;  // "allreduce-top1", "allreduce-total", ...
  std::string group;
  int64_t src_rank = -1;  // local ranks in the group
  int64_t dst_rank = -1;
  std::string transport;  // HCCS, PCIE, RDMA, LOCAL, SIO
  int64_t transit_bytes = -1;
  int64_t transit_ns = -1;
  double bandwidth_gbps = NAN;
  std::string op_name;
};

struct AscendProfilerReported {
  std::vector<ReportedStepTrace> step_trace;
  std::vector<ReportedCommOp> communication;
  std::vector<ReportedCommLink> communication_matrix;
};

// What was read from which side file or table, for `perfdx info` and tests.
struct AscendSourceFile {
  std::string path;      // the file, or "<db>:TABLE"
  uint64_t rows = 0;     // rows kept
  uint64_t skipped = 0;  // rows skipped (malformed, short, missing a required cell)
};

struct AscendData {
  AscendDevice device;
  AscendProfilerConfig config;
  std::map<std::string, std::string> env_variables;  // profiler_metadata ENV_VARIABLES / META_DATA
  // profiler_metadata.json "distributed_args", scalars as text
  // ("tensor_model_parallel_size" -> "1", "sequence_parallel" -> "false").
  std::map<std::string, std::string> distributed_args;
  std::vector<AscendParallelGroup> parallel_groups;

  AscendKernelTable kernels;
  std::vector<AscendMemoryRecord> memory_records;
  std::vector<AscendOperatorMemory> operator_memory;
  std::vector<AscendModuleMemory> module_memory;
  std::vector<AscendApiStatistic> api_statistics;
  std::vector<AscendOpStatistic> op_statistics;
  std::vector<AscendAiCpuOp> ai_cpu_ops;
  std::vector<AscendL2Cache> l2_cache;
  std::vector<AscendOperatorDetail> operator_details;

  // The memory_record component copied into Trace::memory (the framework's
  // caching allocator: "PTA" for torch_npu); empty when none was.
  std::string memory_component;

  AscendProfilerReported profiler_reported;
  std::vector<AscendSourceFile> sources;

  std::optional<int64_t> DistributedInt(std::string_view key) const {
    auto it = distributed_args.find(std::string(key));
    if (it == distributed_args.end() || it->second.empty()) return std::nullopt;
    int64_t v = 0;
    size_t i = 0;
    const bool negative = it->second[0] == '-';
    if (negative) i = 1;
    if (i == it->second.size()) return std::nullopt;
    for (; i < it->second.size(); ++i) {
      const char c = it->second[i];
      if (c < '0' || c > '9' || v > (INT64_MAX - 9) / 10) return std::nullopt;
      v = v * 10 + (c - '0');
    }
    return negative ? -v : v;
  }
};

}  // namespace perfdx::model
