// The what-if replay: the rank's steps re-timed on its dependency graph
// (replay_graph.h), unchanged or with fixes applied.
//
// The model, in one sweep over the measured timeline:
//   - host work keeps its measured length; every host thread moves by one
//     shared offset, which changes only where the host waited for the device
//     (a sync returns `sync_return_ns` after the op it awaited ends, or after
//     its own cost `sync_floor_ns`, whichever is later; a sync that found the
//     device idle keeps its measured length) and where a removed span ends;
//   - a device op starts when its launch, its stream predecessor and any
//     op it waited for allow: launch start + `launch_latency_ns`, previous
//     end + `queue_gap_ns`; it keeps its length unless a fix changes it;
//   - a step's window is rebuilt from the replayed times by the rule of
//     steps.h (marker extended to the end of the device work it launched).
// The same medians apply to every op, so the unchanged replay does not
// reproduce the trace by construction: its error per step is the check of
// the model (ReplayCheck), and a gain is the replay with a fix minus the
// replay without, so the model's own bias cancels.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "perfdx/analysis/replay_graph.h"
#include "perfdx/analysis/steps.h"
#include "perfdx/base/status.h"

namespace perfdx::analysis {

// Fixes applied to the graph before replaying (combinable).
struct WhatIf {
  bool remove_data_loading = false;        // DataLoader iterations take no time
  bool remove_layout_conversions = false;  // layout-conversion kernels take no time
  // Each step's dispatch takes no time: the host time from its first launch
  // to its last, less the syncs, data loading and `kept_host_ns` inside, as
  // when the step is captured and replayed as one graph (CUDA graphs,
  // torch.compile's "reduce-overhead", graph mode on Ascend). Its ops then
  // run back to back.
  bool remove_launch_overhead = false;
  // Nothing waits for a collective: no op, sync or blocking copy is held by
  // one (an op queued behind one on its stream goes after what came before
  // it), as in a pipelined schedule whose collectives feed the next step
  // (DDP's bucketed all-reduce, FSDP prefetch, TorchRec's sparse-dist
  // pipeline). The collectives keep their own dependencies and lengths, and
  // a step still ends after the ones it launched: what it buys is the
  // exposed communication that compute can run beside.
  bool remove_communication_wait = false;
  double fp32_matrix_speedup = 1;    // FP32 CUDA-core matrix ops run this much faster
  double matrix_speedup = 1;         // all matrix ops (after the FP32 factor)
  double communication_speedup = 1;  // collectives
  // Host time that takes none: [start, end) on the measured clock (a
  // finding's gaps: logging, sleeps; its host-side calls).
  std::vector<std::pair<int64_t, int64_t>> removed_host_ns;
  // With remove_launch_overhead: host time the dispatch removal keeps,
  // [start, end) on the measured clock: the host side of the gaps the
  // analysis gives a cause other than dispatch (a recurring gap's own work,
  // a long one inside one operator, untraced host code: advisor's
  // NonDispatchHostNs). A captured graph removes the dispatch, not work the
  // trace does not show to be dispatch. Alone it changes nothing.
  std::vector<std::pair<int64_t, int64_t>> kept_host_ns;
  bool identity() const {
    return !remove_data_loading && !remove_layout_conversions && !remove_launch_overhead &&
           !remove_communication_wait && removed_host_ns.empty() && fp32_matrix_speedup == 1 &&
           matrix_speedup == 1 && communication_speedup == 1;
  }
  // "remove data-loading, speedup fp32-matrix=2.5" (the CLI's own spelling).
  std::string Describe() const;
};

// Both fixes at once (the removals of both; each class at the larger of its
// two factors): what two findings' fixes buy together.
WhatIf Combined(const WhatIf& a, const WhatIf& b);

// The spellings `perfdx whatif` takes: --remove data-loading |
// layout-conversion | launch-overhead | communication-wait; --speedup fp32-matrix=F | matrix=F |
// communication=F, F a factor in (0, 1000] (below 1: a slowdown).
Status AddRemoval(std::string_view what, WhatIf* what_if);
Status AddSpeedup(std::string_view spec, WhatIf* what_if);

struct ReplayedStep {
  int64_t id = 0;
  int64_t measured_ns = 0;  // the step window as analysed (steps.h)
  int64_t replayed_ns = 0;  // the same window on replayed times
  double error() const {    // signed, of the measured step
    return measured_ns > 0
               ? static_cast<double>(replayed_ns - measured_ns) / static_cast<double>(measured_ns)
               : 0;
  }
};

struct ReplayRun {
  std::vector<ReplayedStep> steps;  // the analysed steps the graph holds
  int64_t measured_mean_ns = 0;
  int64_t replayed_mean_ns = 0;
};

// Replays `steps` (the analysed windows: their ids and measured lengths).
ReplayRun Replay(const ReplayGraph& graph, const std::vector<StepWindow>& steps,
                 const WhatIf& what_if);

// The unchanged replay against the measured steps.
struct ReplayCheck {
  bool available = false;
  std::string why_not;  // when not available
  ReplayRun run;
  double median_abs_error = 0;  // over steps, of |replayed - measured| / measured
  double max_abs_error = 0;
  ReplayParams params;
  uint64_t inferred_waits = 0;
  // Gains under this share of the step are within the model's error.
  bool reliable() const { return available && median_abs_error <= kReliableError; }
  static constexpr double kReliableError = 0.05;
};

// The analysed steps' windows rebuilt from the graph's measured times by
// the rule the replay uses (replayed_ns): equal to steps.h's windows when
// the graph holds what they stand on (the test of that rule).
std::vector<ReplayedStep> RebuiltWindows(const ReplayGraph& graph,
                                         const std::vector<StepWindow>& steps);

ReplayCheck CheckReplay(const ReplayGraph& graph, const std::vector<StepWindow>& steps,
                        bool complete_steps);
// The check of an unchanged replay made otherwise (the joint replay of a job).
ReplayCheck CheckOfRun(const ReplayGraph& graph, ReplayRun unchanged);

// A collective this rank shares with other ranks, in the joint replay of a
// job (cluster/joint_replay.h): it ends when its last rank has arrived and
// the transfer is done, not after its own measured length (which holds the
// wait for the others as it was).
struct CollectiveJoin {
  int32_t op = kNoNode;     // the collective's device op in this rank's graph
  int64_t transfer_ns = 0;  // its length once every rank has arrived (fix applied)
  // On this rank's replayed clock: the last rank's arrival + transfer.
  int64_t end_floor_ns = std::numeric_limits<int64_t>::min();
};

struct JoinedRun {
  ReplayRun run;
  std::vector<int64_t> arrival_ns;  // per join: the collective's replayed start
};

// Replays `steps` with the joins' collectives timed as they say.
JoinedRun ReplayJoined(const ReplayGraph& graph, const std::vector<StepWindow>& steps,
                       const WhatIf& what_if, const std::vector<CollectiveJoin>& joins);

// One step with a fix: measured, replayed unchanged and with the fix, and
// the prediction (measured - (replayed - with_fix)).
struct PredictedStep {
  int64_t id = 0;
  int64_t measured_ns = 0;
  int64_t replayed_ns = 0;
  int64_t with_fix_ns = 0;
  int64_t predicted_ns = 0;
};

// What a fix buys, predicted: the unchanged replay minus the replay with it,
// per step (mean), and the measured mean step less that.
struct Prediction {
  bool available = false;
  std::string what_if;            // WhatIf::Describe()
  int64_t gain_ns_per_step = 0;   // >= 0 for every fix here
  int64_t predicted_step_ns = 0;  // measured mean - gain
  double gain_share = 0;          // of the measured mean step
  double replay_error = 0;        // the check's median error
  bool within_model_error = false;
  // The gain exceeds the upper bound it stands beside (a finding's own
  // time): the fix removes time the finding does not count (longer gaps,
  // the host running ahead into the next step). Set by whoever holds the
  // bound (the advisor).
  bool beyond_upper_bound = false;
  // The fix replayed is one remedy among those the finding shows (exposed
  // communication hidden under compute, where shortening it is another):
  // the prediction stands beside the upper bound, not for the finding's
  // gain (its ranking and severity). Set by the advisor.
  bool one_remedy = false;
  // Where the fix's factor is uncertain, the same fix at the low end of its
  // factor (`what_if` is the high end): the gain is then a range.
  bool has_range = false;
  std::string low_what_if;
  int64_t low_gain_ns_per_step = 0;
  double low_gain_share = 0;
  std::vector<PredictedStep> steps;  // per analysed step (`perfdx whatif` prints them)
  // A device-side fix (kernels faster or gone) where the host holds the
  // step: what the fix adds once the host's dispatch and data loading take
  // no time as well, i.e. the replay with all three minus the replay with
  // the host's two removed (PredictBeyondHost). Set only where that exceeds
  // the gain above by more than the model's error and 1% of the step.
  bool has_beyond_host = false;
  int64_t beyond_host_gain_ns_per_step = 0;
  double beyond_host_gain_share = 0;
  // What removing the host's two alone saves (the baseline above).
  int64_t host_alone_gain_ns_per_step = 0;
  double host_alone_gain_share = 0;
};

// The prediction of `what_if` from its replay (`fixed`, none: it could not
// be replayed) against the unchanged one.
Prediction PredictionOf(const ReplayCheck& check, const WhatIf& what_if,
                        const std::optional<ReplayRun>& fixed);

// With `low`, the same fix at the low end of its factor: the gain's range.
Prediction Predict(const ReplayGraph& graph, const std::vector<StepWindow>& steps,
                   const ReplayCheck& check, const WhatIf& what_if,
                   const std::optional<WhatIf>& low = std::nullopt);

// Does the fix act on the device's work only (kernels faster or removed)?
// Such a fix buys nothing while the host (its dispatch, its data loading)
// sets the step.
bool DeviceSideOnly(const WhatIf& what_if);

// What holds the host in the replay: each step's dispatch and its data
// loading, both taking no time (the baseline of PredictBeyondHost; the
// advisor scopes its dispatch removal to the rank, advisor::ScopedToRank).
WhatIf HostRemoved();

// For a device-side fix, fills `p`'s beyond-host gain: the replay with the
// fix and `host_removed` (HostRemoved) against the replay with
// `host_removed` alone (`host_only`, that replay's prediction).
void PredictBeyondHost(const ReplayGraph& graph, const std::vector<StepWindow>& steps,
                       const ReplayCheck& check, const WhatIf& what_if, const WhatIf& host_removed,
                       const Prediction& host_only, Prediction* p);

}  // namespace perfdx::analysis
