#include "perfdx/analysis/device_time.h"

#include "perfdx/analysis/interval_set.h"
#include "perfdx/analysis/slice_sets.h"

namespace perfdx::analysis {

// The definitions, worked out from torch_npu's own output on the level-1
// 2-rank sample (its "Overlap Analysis" events and step_trace_time.csv; the
// per-step numbers reproduce to within 0.02 µs):
//   computing      the union of compute tasks: Ascend AI_CORE, MIX_AIV,
//                  DSA_SQE (and the other kComputeKernel task types), GPU
//                  compute kernels. Not counted: copies (SDMA_SQE,
//                  PCIE_DMA_SQE, Memcpy), HCCL's own SDMA transfers, Notify
//                  Wait, Write Value, EVENT_RECORD/EVENT_WAIT, placeholders.
//   communication  the union of collectives: the HCCL big ops on the
//                  "Group N Communication" tracks (not their plane tasks,
//                  which lie inside them), NCCL/RCCL kernels.
//   not overlapped communication minus computing.
//   free           the gaps inside the step's device span: from the first to
//                  the last computing/communication interval in the step
//                  (torch_npu's E2E; Stage = computing + not overlapped +
//                  free), minus their union. Host gaps before the first and
//                  after the last device task of a step are not free time.
//   preparing      torch_npu's Preparing: the first computing/communication
//                  instant in the step minus the step's start (the
//                  ProfilerStep marker's host start, torch_npu's
//                  FWK_START_TS; perfdx's window starts there unless the
//                  previous step's device work runs past it, see
//                  docs/metrics.md). 0 when the step has no device work.
//   trailing       the step's end minus its last computing/communication
//                  instant (the whole step when it has none): host time
//                  after the device finished. Not in step_trace_time.csv;
//                  it closes the sum preparing + Stage + trailing = step.
// Everything is clipped to the step window.
std::vector<DeviceTime> ComputeDeviceTime(const model::Trace& trace, const StepTimeline& timeline) {
  const IntervalSet computing = SliceIntervals(trace, [&](model::SliceId i) {
    return trace.slices.kind[i] == model::EventKind::kComputeKernel && OnDevice(trace, i);
  });
  const IntervalSet communication = SliceIntervals(trace, [&](model::SliceId i) {
    return trace.slices.kind[i] == model::EventKind::kCollective && OnDevice(trace, i);
  });
  const IntervalSet overlapped = Intersect(computing, communication);
  const IntervalSet busy = Union(computing, communication);

  std::vector<DeviceTime> out;
  out.reserve(timeline.steps.size());
  for (const StepWindow& step : timeline.steps) {
    DeviceTime t;
    t.computing_ns = computing.LengthIn(step.start_ns, step.end_ns);
    t.communication_ns = communication.LengthIn(step.start_ns, step.end_ns);
    t.communication_not_overlapped_ns =
        t.communication_ns - overlapped.LengthIn(step.start_ns, step.end_ns);
    const IntervalSet in_step = busy.Clip(step.start_ns, step.end_ns);
    if (!in_step.empty()) {
      const int64_t first_ns = in_step.intervals().front().start;
      const int64_t last_ns = in_step.intervals().back().end;
      t.free_ns = (last_ns - first_ns) - in_step.TotalLength();
      t.preparing_ns = first_ns - step.start_ns;
      t.trailing_ns = step.end_ns - last_ns;
    } else {
      t.trailing_ns = step.end_ns - step.start_ns;
    }
    out.push_back(t);
  }
  return out;
}

}  // namespace perfdx::analysis
