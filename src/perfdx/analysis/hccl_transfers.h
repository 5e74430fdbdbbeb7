// The HCCL operators of the analysed window and the tasks they ran, as
// resolved records, for the Ascend transfer checks (byte alignment,
// ../shared/docs/ascend-advisor_rules.md row 6): each task with its
// transport, link and size as the profiler recorded them, and the operator
// it belongs to. Empty for a trace that is not from an NPU.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "perfdx/analysis/collectives.h"
#include "perfdx/analysis/interval_set.h"
#include "perfdx/model/trace.h"

namespace perfdx::analysis {

// One HCCL operator (a collective on the device) starting in the window,
// or holding a task that does.
struct HcclOp {
  std::string name;  // "hcom_allReduce__586_0_1"
  int64_t start_ns = 0;
  int64_t end_ns = 0;
};

// One HCCL task (a collective's sub-task on the device) starting in the window.
struct HcclTask {
  std::string name;       // "Memcpy", "Reduce_Inline", "Notify_Wait", ...
  std::string transport;  // "SDMA", "RDMA"; "" not recorded
  std::string link;       // "HCCS", "PCIE", "SIO", "ON_CHIP", ...; "" not recorded
  int64_t bytes = 0;      // size(Byte); 0 not recorded
  int64_t ts_ns = 0;
  int64_t dur_ns = 0;
  // Index in HcclTransfers::ops of the operator the task is filed under,
  // by collectives.h's one rule (CollectiveSummary::filed_tasks: the op whose window
  // holds the task's end); -1 when no op holds it.
  int32_t op = -1;
};

struct HcclTransfers {
  std::vector<HcclOp> ops;      // by start
  std::vector<HcclTask> tasks;  // the trace's slice order
};

// `collectives`: the rank's (RankAnalysis::collectives); `window`: the
// analysis window (RankAnalysis::window_intervals).
HcclTransfers CollectHcclTransfers(const model::Trace& trace, const CollectiveSummary& collectives,
                                   const IntervalSet& window);

}  // namespace perfdx::analysis
