#include "perfdx/model/slice_cursor.h"

namespace perfdx::model {

InnermostSliceCursor::InnermostSliceCursor(const Trace& trace, TrackId track)
    : trace_(&trace), track_(track), next_(trace.tracks[track].slice_begin) {}

int64_t InnermostSliceCursor::At(int64_t t_ns) {
  if (asked_ && t_ns < latest_ns_) return trace_->InnermostSliceAt(track_, t_ns);
  asked_ = true;
  latest_ns_ = t_ns;
  const SliceTable& s = trace_->slices;
  const Track& track = trace_->tracks[track_];
  while (next_ < track.slice_end && s.ts_ns[next_] <= t_ns) {
    // A slice's parent is the previous slice or one of its ancestors
    // (TraceBuilder::ComputeNesting), and a parent's index is below its
    // children's: what is above the parent here is no ancestor any more.
    const int64_t parent = s.parent[next_];
    while (!open_.empty() && static_cast<int64_t>(open_.back()) > parent) open_.pop_back();
    open_.push_back(next_);
    ++next_;
  }
  if (next_ == track.slice_begin) return -1;
  // Only the last slice starting at or before t can be an instant: every
  // ancestor has a child starting before its end, so a positive duration.
  const uint32_t last = next_ - 1;
  if (s.dur_ns[last] == 0 && s.ts_ns[last] == t_ns) return last;
  // InnermostSliceAt takes the first from the innermost with t < end.
  while (!open_.empty() && s.end_ns(open_.back()) <= t_ns) open_.pop_back();
  return open_.empty() ? -1 : static_cast<int64_t>(open_.back());
}

}  // namespace perfdx::model
