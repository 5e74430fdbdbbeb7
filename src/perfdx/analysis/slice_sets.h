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

template <typename Keep>
IntervalSet SliceIntervals(const model::Trace& trace, Keep&& keep) {
  std::vector<Interval> intervals;
  const model::SliceTable& s = trace.slices;
  for (model::SliceId i = 0; i < s.size(); ++i) {
    if (s.dur_ns[i] > 0 && keep(i)) intervals.push_back({s.ts_ns[i], s.end_ns(i)});
  }
  return IntervalSet::FromUnsorted(std::move(intervals));
}

// Is slice i on a device track (stream, collective ops, collective tasks)?
inline bool OnDevice(const model::Trace& trace, model::SliceId i) {
  return model::IsDeviceTrack(trace.tracks[trace.slices.track[i]].kind);
}
inline bool OnHost(const model::Trace& trace, model::SliceId i) {
  return trace.tracks[trace.slices.track[i]].kind == model::TrackKind::kHostThread;
}

}  // namespace perfdx::analysis
