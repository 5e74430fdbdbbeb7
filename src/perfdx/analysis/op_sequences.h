// Each host thread's top-level aten / npu operators of the analysed window,
// in time order, as the names the fusion patterns are written in ("add",
// "mul", "softmax": aten:: dropped; npu:: operators keep their full name).
// An aten operator that starts inside the previous one is part of it and
// left out. The Ascend affinity-API check (../shared/docs/
// ascend-advisor_rules.md row 14) searches these for operator sequences
// torch_npu has one fused API for. Empty for a trace that is not from an NPU.
#pragma once

#include <string>
#include <vector>

#include "perfdx/analysis/interval_set.h"
#include "perfdx/model/trace.h"

namespace perfdx::analysis {

struct OpSequences {
  // One sequence per host thread that has any, in track order.
  std::vector<std::vector<std::string>> threads;
};

// `window`: the analysis window (RankAnalysis::window_intervals).
OpSequences CollectOpSequences(const model::Trace& trace, const IntervalSet& window);

}  // namespace perfdx::analysis
