// Host synchronizations and small copies, counted per step: the per-step
// `.item()` / `.cpu()` / `.to()` calls that drain the device queue (on an
// accelerator) or pay a dispatch and a tiny copy each (on the CPU).
//
// What counts, by exact operator or API name (ClassifyHostSync):
//   sync   aten::item, aten::_local_scalar_dense, cudaStreamSynchronize,
//          cudaDeviceSynchronize, cudaEventSynchronize, the synchronous
//          cudaMemcpy, their hip* twins, aclrtSynchronizeStream/Device/Event
//          (also under AscendCL@)
//   copy   aten::to, aten::_to_copy, aten::copy_ called by the user, i.e. with
//          no framework operator around them (the aten::to that aten::mul
//          makes of a Python scalar is the mul's business), and small: at
//          most kSmallCopyMaxElements elements when the trace records input
//          shapes, otherwise at most kSmallCopyMaxNs long (a copy of a large
//          tensor takes longer; torch 1.13's legacy export records no shapes)
// Only the outermost such call counts: aten::item -> _local_scalar_dense is
// one sync, aten::to -> _to_copy -> copy_ one copy. The legacy export rounds
// to whole microseconds, so such calls often last 0 or end past their parent
// and nest in nothing: a call that starts where a zero-length framework op
// on its thread starts is taken as nested in it, and a sync or copy call
// that starts within 1 us of the end of the previous one on its thread as
// that one's inner call.
//
// Time: these calls are short and their cost is the code around them (the
// Python loop reading one scalar at a time, the dispatch of each call), so
// calls on one thread that follow each other within kSyncClusterGapNs form a
// cluster, and the time is the clusters' span (first start to last end);
// each call carries an equal part of its cluster's span. call_ns keeps the
// calls' own durations.
//
// Phase, from the call's ancestors: "optimizer" inside optimizer.step(),
// "backward" inside an autograd engine function (its record_function names
// start "autograd::engine::evaluate_function: "), otherwise "forward" (the
// rest of the step body: forward pass, loss, metrics).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "perfdx/analysis/steps.h"
#include "perfdx/model/trace.h"

namespace perfdx::analysis {

inline constexpr int64_t kSmallCopyMaxElements = 4096;  // 16 KiB of FP32
inline constexpr int64_t kSmallCopyMaxNs = 50'000;
inline constexpr int64_t kSyncClusterGapNs = 500'000;

enum class HostSyncClass : uint8_t { kNone, kSync, kCopy };
HostSyncClass ClassifyHostSync(std::string_view name);

// The number of elements of the first tensor in a Kineto "Input Dims" value
// ("[[32, 10], []]" -> 320, "[[]]" -> 1), or -1 when it cannot be read.
int64_t FirstInputElements(std::string_view input_dims);

struct HostSyncOp {
  std::string name;  // the outermost call's name
  HostSyncClass kind = HostSyncClass::kNone;
  uint64_t count = 0;
  int64_t total_ns = 0;  // their part of the cluster spans
};

struct HostSyncPhase {
  std::string phase;  // forward, backward, optimizer
  uint64_t count = 0;
  int64_t total_ns = 0;
};

struct HostSyncSummary {
  // In the analysed steps (the whole trace when it has none).
  uint64_t syncs = 0;
  uint64_t copies = 0;
  int64_t span_ns = 0;                // the clusters' spans
  int64_t sync_call_ns = 0;           // the syncs' own durations
  int64_t copy_call_ns = 0;           // the copies' own durations
  bool shapes_recorded = false;       // some copy had an Input Dims argument
  std::vector<HostSyncOp> ops;        // by total_ns, descending
  std::vector<HostSyncPhase> phases;  // by count, descending
  // Mean start of a call within its step, as a share of the step (0..1);
  // -1 without steps.
  double mean_offset_share = -1;
  std::vector<uint64_t> per_step;                     // calls in each analysed step
  std::vector<std::pair<int64_t, int64_t>> examples;  // [start, end) of the first few
  // Every cluster's [start, end), by start: the host time the fix (reading
  // the values once) removes in the replay (replay.h).
  std::vector<std::pair<int64_t, int64_t>> clusters;
};

// Over `steps` (the analysed ones); the whole trace when it is empty.
HostSyncSummary CountHostSyncs(const model::Trace& trace, const std::vector<StepWindow>& steps);

}  // namespace perfdx::analysis
