// The DB export of torch_npu / MindSpore (ascend_pytorch_profiler_{rank}.db,
// ascend_mindspore_profiler_{rank}.db), imported into the same model as the
// text export.
//
// The importer rebuilds the events trace_view.json would hold — the same
// processes ("Python", "CANN", "Ascend Hardware", "HCCL", "AI Core Freq"),
// threads, names, args and flows — and hands them to the same TraceBuilder
// and ChromeClassifier, so every number downstream is computed by the same
// code from the same kind of events:
//
//   PYTORCH_API (+ STRING_IDS, CONNECTION_IDS)  Python threads: cpu_op,
//       enqueue/dequeue, python_function; flows torch_to_npu, task queue,
//       forward/backward; ProfilerStep#N steps (else STEP_TIME)
//   CANN_API                                   CANN threads (AscendCL@, Node@, Hccl@ ...)
//   TASK (+ COMPUTE_TASK_INFO)                 Ascend Hardware "Stream N" tasks
//   COMMUNICATION_OP                           HCCL "Group N Communication" ops
//   COMMUNICATION_TASK_INFO (+ TASK)           HCCL "Plane k" tasks
//   AICORE_FREQ, NPU_MEM                       counters
// and into Trace::ascend: COMPUTE_TASK_INFO + TASK_PMU_INFO (kernels),
// NPU_INFO, RANK_DEVICE_MAP, META_DATA, MEMORY_RECORD, OP_MEMORY,
// NPU_MODULE_MEM. Tables written by other tools (OVERLAP_ANALYSIS, added by
// MindStudio Insight) and analysis.db are never read: perfdx computes those
// numbers itself. docs/ascend.md has the column-by-column mapping.
#pragma once

#include "perfdx/base/status.h"
#include "perfdx/formats/ascend/side_file.h"
#include "perfdx/io/discovery.h"
#include "perfdx/model/trace.h"

namespace perfdx::formats {

// `input.trace_path` is the .db file; `input.profile_dir` (optional) the
// *_ascend_pt / *_ascend_ms folder holding profiler_info_{rank}.json.
Result<model::Trace> ImportAscendDb(const io::TraceInput& input, const AscendSideOptions& options);

}  // namespace perfdx::formats
