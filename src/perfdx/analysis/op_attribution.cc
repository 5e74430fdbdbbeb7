#include "perfdx/analysis/op_attribution.h"

namespace perfdx::analysis {

using model::EventKind;
using model::FlowKind;
using model::SliceId;

int32_t EnclosingFrameworkOp(const model::Trace& trace, SliceId i) {
  for (int32_t s = static_cast<int32_t>(i); s >= 0; s = trace.slices.parent[s]) {
    if (trace.slices.kind[s] == EventKind::kFrameworkOp) return s;
  }
  return -1;
}

OpAttribution AttributeDeviceWork(const model::Trace& trace) {
  OpAttribution out;
  out.launching_op.assign(trace.slices.size(), -1);
  const model::FlowTable& f = trace.flows;
  for (FlowKind preferred : {FlowKind::kOpToDevice, FlowKind::kLaunch}) {
    for (size_t k = 0; k < f.size(); ++k) {
      if (f.kind[k] != preferred) continue;
      const SliceId to = f.to[k];
      if (out.launching_op[to] >= 0) continue;
      if (!model::IsDeviceTrack(trace.tracks[trace.slices.track[to]].kind)) continue;
      out.launching_op[to] = EnclosingFrameworkOp(trace, f.from[k]);
    }
  }
  return out;
}

}  // namespace perfdx::analysis
