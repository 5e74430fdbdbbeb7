// msprof's PROF_* folder: the side files beside its timeline
// (mindstudio_profiler_output/op_summary_*.csv, op_statistic_*, api_statistic_*,
// npu_module_mem_*, aicpu_*; analyze/communication*.json) and the device
// description (device_{id}/info.json.{id}) that the torch_npu / MindSpore
// folders and the DB export hold too.
#pragma once

#include <string>

#include "perfdx/formats/ascend/side_file.h"
#include "perfdx/model/trace.h"

namespace perfdx::formats {

// An msprof PROF_* folder whose timeline (msprof_*.json) is already in *trace.
void ReadMsprofFiles(const std::string& prof_dir, const AscendSideOptions& options,
                     model::Trace* trace);

// device_{id}/info.json.{id} of every PROF_* folder in (or being) `dir`:
// AI Core and vector core counts, AI Core frequency.
void ReadMsprofDeviceInfo(const std::string& dir, const AscendSideOptions& options,
                          model::Trace* trace);

}  // namespace perfdx::formats
