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

#include <string>
#include <string_view>

#include "perfdx/formats/ascend/side_file.h"
#include "perfdx/model/trace.h"

namespace perfdx::formats {

// A torch_npu (`framework` "torch_npu") or MindSpore ("mindspore") profile
// folder whose timeline is already in *trace.
void ReadAscendProfileFiles(const std::string& profile_dir, std::string_view framework,
                            const AscendSideOptions& options, model::Trace* trace);

}  // namespace perfdx::formats
