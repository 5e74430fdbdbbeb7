// Ascend side files: everything in a profile folder besides the timeline,
// read into Trace::ascend (model/ascend.h) after the timeline is built.
//
//   torch_npu / MindSpore  {name}_ascend_pt|_ascend_ms/
//     profiler_info_{rank}.json, profiler_metadata.json
//     ASCEND_PROFILER_OUTPUT/ kernel_details.csv, operator_details.csv,
//       op_statistic.csv, api_statistic.csv, memory_record.csv,
//       operator_memory.csv, npu_module_mem.csv, data_preprocess.csv,
//       l2_cache.csv, step_trace_time.csv*, communication.json*,
//       communication_matrix.json*       (* profiler_reported: cross-checks only)
//     PROF_*/device_*/info.json.*        (AI Core count and frequency)
//   msprof                 PROF_*/mindstudio_profiler_output/
//       op_summary_*.csv, op_statistic_*.csv, api_statistic_*.csv;
//     PROF_*/device_*/info.json.*
//
// Importers only translate: values are converted to ns and bytes, never
// recomputed. Missing files are normal (they depend on the profiler level
// and options); a file that cannot be read is a warning in the load stats and
// the rest is still read; a bad row is skipped and counted.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "perfdx/formats/csv_reader.h"
#include "perfdx/io/byte_source.h"
#include "perfdx/io/discovery.h"
#include "perfdx/model/trace.h"

namespace perfdx::formats {

struct AscendSideOptions {
  io::ReadLimits limits;
  CsvOptions csv;
  uint64_t max_json_bytes = uint64_t{1} << 30;  // profiler_info, communication*.json
};

// A torch_npu (`framework` "torch_npu") or MindSpore ("mindspore") profile
// folder whose timeline is already in *trace.
void ReadAscendProfileFiles(const std::string& profile_dir, std::string_view framework,
                            const AscendSideOptions& options, model::Trace* trace);

// An msprof PROF_* folder whose timeline (msprof_*.json) is already in *trace.
void ReadMsprofFiles(const std::string& prof_dir, const AscendSideOptions& options,
                     model::Trace* trace);

// A kernel_details.csv / op_summary_*.csv on its own (input.trace_path): a
// kernel-only trace. Each row becomes a task on an "Ascend Hardware"
// "Stream N" track (HCCL rows an op on an HCCL group track) with its start,
// duration, name and task type ("Accelerator Core" / "Task Type"), and the
// rows fill Trace::ascend->kernels as in a profile folder, linked to those
// tasks. No host side, no steps: the analysed window is the rows' span.
// InvalidInput when the file lacks the name, task type, start or duration
// column, or has no row.
Result<model::Trace> ImportAscendKernelCsv(const io::TraceInput& input,
                                           const AscendSideOptions& options);

// ---- Pieces shared with the DB importer (ascend_db_importer.cc).

// profiler_info_{rank}.json and profiler_metadata.json of `profile_dir`.
void ReadProfilerInfoFiles(const std::string& profile_dir, const AscendSideOptions& options,
                           model::Trace* trace);

// device_{id}/info.json.{id} of every PROF_* folder in (or being) `dir`:
// AI Core and vector core counts, AI Core frequency.
void ReadMsprofDeviceInfo(const std::string& dir, const AscendSideOptions& options,
                          model::Trace* trace);

// Links every kernel row to the device-stream slice with its start time
// (and stream, when both say), and fills the device's AI Core frequency
// from the "AI Core Freq" counter when nothing else gave it.
void LinkAscendKernels(model::Trace* trace);

// Copies the framework allocator's memory records into Trace::memory so that
// the generic memory analysis applies (docs/ascend.md#memory): the first
// component present of PTA (torch_npu's caching allocator), MindSpore's,
// PTA+GE, GE; each record becomes one memory event carrying the allocator's
// totals, sized by the change of its allocated total.
void CopyAscendMemoryToTrace(model::Trace* trace);

// profiler_metadata.json's content (ENV_VARIABLES, distributed_args,
// parallel_group_info) into `ascend`. The DB export's META_DATA table holds
// the same JSON values and is read through this too, so both exports give
// the same strings. False when `json` is not valid JSON.
bool ParseProfilerMetadataJson(std::string_view json, model::AscendData* ascend);

// A PMU column name in canonical form and the factor its values are
// multiplied by: "aic_mte2_time(us)" -> ("aic_mte2_time_ns", 1000),
// "aicore_time(us)" -> ("aic_total_time_ns", 1000), DB "aic_mac_time" (ns)
// -> ("aic_mac_time_ns", 1), "cube_utilization(%)" -> ("cube_utilization_pct", 1).
std::string CanonicalMetricName(std::string_view raw, bool values_in_ns, double* factor);

// "NPU:0", "npu:3", "0", "NPU 2" -> the device number; nullopt for "host", "CPU".
std::optional<int32_t> ParseAscendDevice(std::string_view text);

}  // namespace perfdx::formats
