// Idle gaps and their host-side causes.
//
// A gap is an interval of at least `min_gap_ns` inside or between analysed
// steps where the compute timeline (activity.h) is idle. Each gap is
// attributed to what the host was doing meanwhile — the first of these that
// covers at least half of the gap:
//   data_loader      inside DataLoader iteration
//   synchronization  blocked in a device sync (aten::item, cudaStreamSynchronize, ...)
//   optimizer_step   inside optimizer.step()
//   launch_overhead  many short runtime calls (host-bound dispatch)
//   framework_op     inside a framework operator (dispatching it)
//   python_function / user_annotation  inside a named function or range
//                    (the user's own code; CPython "<built-in" frames only
//                    wrap framework calls and do not count)
//   untraced         no traced host activity; named after the neighbouring
//                    function when there is one
// and otherwise to whichever of them covers most. Gaps with the same cause at
// the same place (start / middle / end of the step, or between steps) in more
// than half of the steps form a recurring group: the "15 ms after every step"
// pattern.
//
// Apart from the cause, each gap records two pieces of evidence the advisor's
// fixes need (host_activity.h): what the host's Python code or ranges were
// doing when it is logging, printing or file I/O (covering at least half of
// the gap), and a kernel launch call that covers at least half of the gap
// and took kStallFactor times its median length: the host thread was held up
// (preempted, contended) while the device waited.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "perfdx/analysis/activity.h"
#include "perfdx/analysis/steps.h"
#include "perfdx/model/trace.h"

namespace perfdx::analysis {

inline constexpr int64_t kDefaultMinGapNs = 100'000;

struct GapCause {
  std::string kind;     // data_loader, synchronization, ... (see above)
  std::string name;     // the function, op or call; empty when not applicable
  double coverage = 0;  // share of the gap the cause covers, 0..1
};

struct Gap {
  int64_t start_ns = 0;
  int64_t dur_ns = 0;
  int64_t step = -1;  // the step it lies in, or follows when between steps
  bool between_steps = false;
  std::string position;  // "start", "middle", "end" of the step, or "between_steps"
  GapCause cause;
  std::string host_activity;  // "logging", "print", "file_io", or empty
  std::string stalled_call;   // a stalled kernel launch covering the gap, or empty
};

inline constexpr double kStallFactor = 20;

struct GapGroup {
  GapCause cause;  // coverage = mean over the group
  std::string position;
  std::string host_activity;  // of the group's gaps, when all have the same
  uint64_t count = 0;
  uint64_t steps = 0;  // distinct steps with such a gap
  int64_t total_ns = 0;
  int64_t mean_dur_ns = 0;
  int64_t ns_per_step = 0;  // total over all analysed steps
  double share_of_step_time = 0;
};

struct GapAnalysis {
  std::vector<Gap> gaps;            // by start time
  std::vector<GapGroup> recurring;  // by total time, descending
  int64_t total_ns = 0;
  int64_t min_gap_ns = kDefaultMinGapNs;  // the shortest gap counted (--min-gap-us)
  // Distinct steps with a gap that a stalled kernel launch covers.
  std::vector<int64_t> stalled_launch_steps;
};

GapAnalysis FindGaps(const model::Trace& trace, const Activity& activity,
                     const StepTimeline& timeline, int64_t min_gap_ns = kDefaultMinGapNs);

}  // namespace perfdx::analysis
