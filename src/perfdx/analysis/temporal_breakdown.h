// HTA's per-rank temporal breakdown and communication/computation overlap
// (../shared/docs/hta-definitions.md §0, §2, §3):
//   span         first to last device event of the window
//   idle         span minus the union of all device events
//   compute      union of computation kernels
//   non_compute  span - compute - idle (communication, memory, other not
//                hidden under compute)
//   comm_comp_overlap = |communication ∩ computation| / |communication|
//
// The window decides which device events count:
//   kSteps  the analysed step windows (events clipped to them; span = the
//           sum of step durations)
//   kAll    every device event in the trace
//   kHta    HTA's own selection: with >= 2 ProfilerStep ids, drop the host
//           events from the start of the last step on, and keep only device
//           events launched (by correlation) from the host events kept.
//           Timestamps finer than 1 us are then rounded as HTA rounds them
//           (start up, end down): over thousands of short kernels the
//           difference exceeds HTA's reporting precision.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "perfdx/analysis/steps.h"
#include "perfdx/model/trace.h"

namespace perfdx::analysis {

enum class AnalysisWindow : uint8_t { kSteps, kAll, kHta };
std::string_view AnalysisWindowName(AnalysisWindow window);

struct TemporalBreakdown {
  int64_t idle_ns = 0;
  int64_t compute_ns = 0;
  int64_t non_compute_ns = 0;
  int64_t span_ns = 0;
  // Each of the three / span_ns: HTA's idle_time_pctg, compute_time_pctg,
  // non_compute_time_pctg as shares.
  double idle_share = 0;
  double compute_share = 0;
  double non_compute_share = 0;
  // |comm ∩ compute| / |comm|; empty when the window has no communication.
  std::optional<double> comm_comp_overlap;
};

TemporalBreakdown ComputeTemporalBreakdown(const model::Trace& trace, AnalysisWindow window,
                                           const StepTimeline& timeline);

}  // namespace perfdx::analysis
