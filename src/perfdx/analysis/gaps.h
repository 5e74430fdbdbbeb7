// Idle gaps and their host-side causes.
//
// A gap is an interval of at least `min_gap_ns` inside or between analysed
// steps where the compute timeline (activity.h) is idle. Each gap is
// attributed to what the host was doing meanwhile — the first of these that
// covers at least half of the gap:
//   data_loader      inside DataLoader iteration
//   synchronization  blocked in a device sync (aten::item, cudaStreamSynchronize, ...)
//   stalled_call     inside runtime calls that stalled: each took at least
//                    kStallFactor times its name's median (runtime_calls.h:
//                    launches, memory, setup); named after the longest
//   optimizer_step   inside optimizer.step()
//   launch_overhead  many short runtime calls (host-bound dispatch): at
//                    least 8, covering half of the gap outside stalled ones
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
// Apart from the cause, each gap records the evidence the advisor's fixes
// need: what the host's Python code or ranges were doing when it is logging,
// printing or file I/O (host_activity.h, covering at least half of the gap),
// and the stalled runtime calls when they cover at least half of it (a stalled
// launch: the host thread was held up while the device waited, or a first
// launch loading its kernel's module).
#pragma once

#include <cstdint>
#include <map>
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
  // Stalled runtime calls covering at least half of the gap: the longest's
  // name (empty when they cover less), its length and its name's median
  // length over the trace, and the gap's time inside all of them.
  std::string stalled_call;
  int64_t stalled_call_ns = 0;
  int64_t stalled_call_median_ns = 0;
  int64_t stalled_ns = 0;
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

// The idle intervals inside steps too short to list (under min_gap_ns):
// a host-bound step has thousands of them, most of its idle time, so they
// are measured as time by what the host was doing (interval sets over all
// host threads), not given a cause each.
struct ShortGapTotals {
  uint64_t count = 0;
  int64_t total_ns = 0;
  // Host inside framework ops or runtime calls, outside syncs, data loading
  // and optimizer.step(): dispatching the step's work.
  int64_t dispatch_ns = 0;
  // Host inside optimizer.step(), outside syncs and data loading.
  int64_t optimizer_ns = 0;
  // Gaps at least half of which is dispatch or optimizer time.
  uint64_t dispatch_count = 0;
  // dispatch_ns + optimizer_ns by the step the gap lies in (its id): how the
  // dispatch idle varies from step to step (step_jitter).
  std::map<int64_t, int64_t> dispatch_and_optimizer_ns_by_step;
};

struct GapAnalysis {
  std::vector<Gap> gaps;            // by start time
  std::vector<GapGroup> recurring;  // by total time, descending
  int64_t total_ns = 0;
  int64_t min_gap_ns = kDefaultMinGapNs;  // the shortest gap counted (--min-gap-us)
  ShortGapTotals short_gaps;              // inside steps, shorter than min_gap_ns
  // Distinct steps with a gap whose longest stalled call is a kernel launch.
  std::vector<int64_t> stalled_launch_steps;
};

GapAnalysis FindGaps(const model::Trace& trace, const Activity& activity,
                     const StepTimeline& timeline, int64_t min_gap_ns = kDefaultMinGapNs);

}  // namespace perfdx::analysis
