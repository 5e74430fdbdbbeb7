// The dependency graph of one rank's steps, built once from the trace, that
// the what-if replay (replay.h) runs with and without a fix applied.
//
// What it holds, all as measured (integer ns on the trace's clock):
//   - host spans over every host thread, by start: kernel launches, calls
//     that block on the device (the innermost IsSyncCall slice: the runtime
//     sync inside aten::item), data-loading iterations (top level), and the
//     step markers;
//   - device ops (kernels, copies, fills, collectives) by start, each with
//     the launch that enqueued it (the flows, as steps.h links them), its
//     predecessor on its stream, and where its start is explained by
//     neither, the op on another stream whose end it waited for (an event
//     wait the trace does not record: inferred from the timing);
//   - for each sync, the device op whose completion released it, and for
//     each launch of a copy to or from pageable memory that found its stream
//     busy, the op it waited for (such a call syncs its stream first);
//   - the model's four latencies, each the median of what the trace shows
//     (docs/metrics.md, "Replay"): launch to start on an idle stream, the gap
//     between queued ops, and a sync's return after the device finished or
//     its cost when the device was idle.
// The graph owns no pointer into the trace: it outlives it.
#pragma once

#include <cstdint>
#include <vector>

#include "perfdx/analysis/interval_set.h"
#include "perfdx/analysis/kernel_stats.h"
#include "perfdx/analysis/steps.h"
#include "perfdx/model/trace.h"

namespace perfdx::analysis {

enum class ReplayHostKind : uint8_t { kLaunch, kSync, kDataLoading, kStepMarker };

inline constexpr int32_t kNoNode = -1;

struct ReplayHostSpan {
  int64_t start_ns = 0;
  int64_t end_ns = 0;
  ReplayHostKind kind = ReplayHostKind::kLaunch;
  // kSync: the device op whose end released it (kNoNode: none was running).
  // kLaunch of a blocking copy (pageable memory, copy_names.h) that found
  // its stream busy: the op before the copy on it, whose end the call's
  // stream sync waited for; the call then took `after_awaited_ns` more (the
  // staging and the copy, host-side cost kept as measured).
  int32_t awaited = kNoNode;
  int64_t after_awaited_ns = 0;
};

// What a device op is, for the transforms (from KernelSummary's classes).
enum ReplayOpFlags : uint8_t {
  kReplayFp32Matrix = 1 << 0,        // matrix work in FP32 on the CUDA cores / vector units
  kReplayLayoutConversion = 1 << 1,  // NCHW<->NHWC, TransData, transposes
  kReplayCommunication = 1 << 2,     // collectives
  kReplayMatrix = 1 << 3,            // any matrix work
};

struct ReplayDeviceOp {
  int64_t start_ns = 0;
  int64_t dur_ns = 0;
  uint32_t stream = 0;            // dense stream index
  int32_t launch = kNoNode;       // host span (kLaunch) that enqueued it
  int32_t stream_prev = kNoNode;  // previous op on its stream
  int32_t waits_for = kNoNode;    // inferred cross-stream dependency
  int32_t step = kNoNode;         // index into markers: the step that launched it
  uint8_t flags = 0;
  int64_t end_ns() const { return start_ns + dur_ns; }
};

struct ReplayMarker {
  int64_t id = 0;
  int32_t host = kNoNode;  // its host span (kStepMarker)
};

struct ReplayParams {
  int64_t launch_latency_ns = 0;  // launch call start -> op start, stream idle (< 0: clock skew)
  int64_t queue_gap_ns = 0;       // previous op end -> next op start, op queued
  int64_t sync_return_ns = 0;     // awaited op end -> sync returns
  int64_t sync_floor_ns = 0;      // a blocking sync's own cost
  // How many ops each median came from (0: no sample, the latency is 0).
  uint64_t launch_samples = 0, queue_samples = 0, sync_samples = 0;
};

struct ReplayGraph {
  bool built = false;                  // false: no ProfilerStep markers, nothing to replay
  std::vector<ReplayHostSpan> host;    // by start
  std::vector<int32_t> host_by_end;    // indices into host, by end (the sweep's order)
  std::vector<ReplayDeviceOp> device;  // by start
  // Every marker of the trace, in time order (the excluded tail too: step
  // windows chain through all of them, steps.h).
  std::vector<ReplayMarker> markers;
  // Ops launched outside every step that end before step 0's device work:
  // still draining when it starts (steps.h).
  std::vector<int32_t> drain_ops;
  ReplayParams params;
  // Host time inside framework operators or runtime calls, over all host
  // threads (activity.h: host_framework and host_runtime), set by
  // AnalyzeRank: the dispatch a captured graph removes. Host time between
  // launches outside both (untraced code) is not shown to be dispatch and
  // stays.
  IntervalSet dispatch_cover;
  uint32_t streams = 0;
  uint64_t inferred_waits = 0;  // ops given a cross-stream dependency
  uint64_t collectives = 0;     // device ops flagged kReplayCommunication
  // The device ops' durations and the host spans' lengths, summed
  // (saturating): what the replay lays end to end at most.
  int64_t work_ns = 0;
};

// The most work the replay simulates. Its times are the trace's (-2^61 to
// 2^62 ns) plus the work laid end to end, slowed down at most 1000 times
// (--speedup F, F from 1/1000): 1000 x 2^51 ns < 2^61, so no replayed time,
// nor its difference from any other, passes int64. 2^51 ns is 26 days of
// work: a window of 100 threads and streams busy for 6 hours.
inline constexpr int64_t kMaxReplayedWorkNs = int64_t{1} << 51;

ReplayGraph BuildReplayGraph(const model::Trace& trace, const KernelSummary& kernels);

}  // namespace perfdx::analysis
