// The Ascend operators of the analysed window, as resolved records: the
// kernel-table rows (kernel_details / op_summary / COMPUTE_TASK_INFO) with
// their block dims and busiest PMU pipe, the device compute tasks of the
// timeline with their task type, the operators' shape mode (OP State) and
// the AI Core clock samples. The advisor's operator checks read these
// (../shared/docs/ascend-advisor_rules.md). Empty for a trace that is not
// from an NPU.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "perfdx/analysis/interval_set.h"
#include "perfdx/model/trace.h"

namespace perfdx::analysis {

// "OP State" of the window's kernel rows (HCCL rows aside). msprof-analyze
// (CANN >= 8.0) calls a profile dynamic-shape when no operator is static —
// also when the export records no state at all (the DB export's
// COMPUTE_TASK_INFO has no opState column on CANN 8.0).
struct OpStateCounts {
  uint64_t dynamic_ops = 0;
  uint64_t static_ops = 0;
  uint64_t unknown_ops = 0;  // compute rows without a recorded state
  // Recorded: some operator dynamic, none static.
  bool AllDynamic() const { return dynamic_ops > 0 && static_ops == 0; }
  // msprof's test: operators, and none recorded static.
  bool NoStatic() const { return static_ops == 0 && dynamic_ops + unknown_ops > 0; }
};

// One kernel-table row that starts in the window: its timeline slice's
// start when it has one, else the row's own start time.
struct AscendKernelRow {
  std::string name;
  std::string op_type;    // "MatMulV2", "TransData", ...; "" not recorded
  std::string task_type;  // "AI_CORE", "AI_VECTOR_CORE", "MIX_AIC", "AI_CPU", "HCCL", ...
  int64_t start_ns = -1;  // the row's own start; -1 not recorded
  int64_t dur_ns = -1;
  int64_t block_dim = -1;      // -1 not recorded
  int64_t mix_block_dim = -1;  // -1 not recorded
  // The highest of the row's pipe ratios (vec, mac, scalar, mte1, mte2,
  // mte3, with the aic_, the aiv_ and no prefix: msprof's list), 0 when
  // the row records none of them.
  double busiest_pipe_ratio = 0;
};

// One device compute task of the timeline that starts in the window.
struct AscendComputeTask {
  std::string name;
  std::string task_type;     // its "Task Type" argument; "" when it has none
  std::string input_dtypes;  // its kernel-table row's ("FLOAT16;FLOAT"); "" without one
  int64_t ts_ns = 0;
  int64_t dur_ns = 0;
};

// One sample of the "AI Core Freq" counter: in force from ts_ns to the
// next sample.
struct ClockSample {
  int64_t ts_ns = 0;
  double mhz = 0;
};

struct AscendOperators {
  std::vector<AscendKernelRow> kernel_rows;  // table order
  // The kernel table records pipe ratios (a PipeUtilization profile).
  bool has_pipe_ratios = false;
  OpStateCounts op_states;
  std::vector<AscendComputeTask> compute_tasks;  // slice order
  // Every sample of the trace, not only the window's, by time (a sample
  // taken before the window can be in force inside it).
  std::vector<ClockSample> ai_core_freq;
};

// `window`: the analysis window (RankAnalysis::window_intervals).
AscendOperators CollectAscendOperators(const model::Trace& trace, const IntervalSet& window);

}  // namespace perfdx::analysis
