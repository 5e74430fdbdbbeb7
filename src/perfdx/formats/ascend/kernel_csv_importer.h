// A kernel_details.csv / op_summary_*.csv named on its own: a kernel-only trace.
#pragma once

#include "perfdx/base/status.h"
#include "perfdx/formats/ascend/side_file.h"
#include "perfdx/io/discovery.h"
#include "perfdx/model/trace.h"

namespace perfdx::formats {

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

}  // namespace perfdx::formats
