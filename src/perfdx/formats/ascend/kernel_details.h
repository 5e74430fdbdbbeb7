// The kernel table: kernel_details.csv (torch_npu / MindSpore) and msprof's
// op_summary_*.csv, one row per device task with its PMU metrics, into
// Trace::ascend->kernels, and the link of each row to its device slice.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "perfdx/formats/ascend/side_file.h"
#include "perfdx/model/trace.h"

namespace perfdx::formats {

// A PMU column name in canonical form and the factor its values are
// multiplied by: "aic_mte2_time(us)" -> ("aic_mte2_time_ns", 1000),
// "aicore_time(us)" -> ("aic_total_time_ns", 1000), DB "aic_mac_time" (ns)
// -> ("aic_mac_time_ns", 1), "cube_utilization(%)" -> ("cube_utilization_pct", 1).
std::string CanonicalMetricName(std::string_view raw, bool values_in_ns, double* factor);

// Links every kernel row to the device-stream slice with its start time
// (and stream, when both say), and fills the device's AI Core frequency
// from the "AI Core Freq" counter when nothing else gave it.
void LinkAscendKernels(model::Trace* trace);

namespace side_file {

// Appends the rows of one kernel_details.csv / op_summary_*.csv.
void ReadKernelCsv(const std::filesystem::path& path, const AscendSideOptions& options,
                   model::Trace* trace);

}  // namespace side_file
}  // namespace perfdx::formats
