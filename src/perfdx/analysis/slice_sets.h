// Interval sets built from the slices of a trace that satisfy a predicate:
// the bridge between model::Trace and the interval algebra.
//
//   IntervalSet compute = SliceIntervals(trace, [&](SliceId i) {
//     return trace.slices.kind[i] == EventKind::kComputeKernel;
//   });
#pragma once

#include <vector>

#include "perfdx/analysis/interval_set.h"
#include "perfdx/model/trace.h"

namespace perfdx::analysis {

// Slices are grouped by track and sorted by start within one (trace.h), so
// each track's run merges linearly and only the runs are unioned.
template <typename Keep>
IntervalSet SliceIntervals(const model::Trace& trace, Keep&& keep) {
  const model::SliceTable& s = trace.slices;
  std::vector<IntervalSet> runs;
  std::vector<Interval> run;
  for (const model::Track& track : trace.tracks) {
    run.clear();
    for (model::SliceId i = track.slice_begin; i < track.slice_end; ++i) {
      if (s.dur_ns[i] > 0 && keep(i)) run.push_back({s.ts_ns[i], s.end_ns(i)});
    }
    if (!run.empty()) runs.push_back(IntervalSet::FromSorted(run));
  }
  return IntervalSet::UnionAll(std::move(runs));
}

// Is slice i on a device track (stream, collective ops, collective tasks)?
inline bool OnDevice(const model::Trace& trace, model::SliceId i) {
  return model::IsDeviceTrack(trace.tracks[trace.slices.track[i]].kind);
}
inline bool OnHost(const model::Trace& trace, model::SliceId i) {
  return trace.tracks[trace.slices.track[i]].kind == model::TrackKind::kHostThread;
}

}  // namespace perfdx::analysis
