#pragma once

#include <cstdint>
#include <vector>

#include "perfdx/model/trace.h"

namespace perfdx::model {

// Trace::InnermostSliceAt for a series of times on one track: the same
// answers, by a sweep that keeps the open slices, for O(1) amortised per time
// when the times do not decrease (each slice is entered and left once).
// InnermostSliceAt walks up the nesting, O(depth) per time: gaps x depth on
// a staircase of nested slices that each end before the next time (#17).
// A time before the previous one is answered by InnermostSliceAt.
class InnermostSliceCursor {
 public:
  InnermostSliceCursor(const Trace& trace, TrackId track);

  // The deepest slice of the track containing t (ts <= t < end, or an
  // instant at t), or -1 when none does.
  int64_t At(int64_t t_ns);

 private:
  const Trace* trace_;
  TrackId track_;
  uint32_t next_;  // the first slice starting after the latest time asked
  // The slice before next_ and its ancestors (innermost last), less those
  // that ended at or before a time already asked: they hold no later time.
  std::vector<uint32_t> open_;
  bool asked_ = false;
  int64_t latest_ns_ = 0;
};

}  // namespace perfdx::model
