#include "perfdx/advisor/rules/trace_query.h"

namespace perfdx::advisor {

bool DeviceSliceIn(const model::Trace& trace, model::SliceId i,
                   const analysis::IntervalSet& window) {
  return model::IsDeviceTrack(trace.tracks[trace.slices.track[i]].kind) &&
         window.Contains(trace.slices.ts_ns[i]);
}

}  // namespace perfdx::advisor
