#include "perfdx/analysis/op_attribution.h"

#include <vector>

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
  if (f.size() == 0) return out;
  // The innermost framework op at or above each slice, in one pass in index
  // order (parents come first): a walk up from each flow's source was
  // flows x depth on deeply nested traces (#17).
  const model::SliceTable& s = trace.slices;
  std::vector<int32_t> enclosing_op(s.size(), -1);
  for (SliceId i = 0; i < s.size(); ++i) {
    enclosing_op[i] = s.kind[i] == EventKind::kFrameworkOp ? static_cast<int32_t>(i)
                      : s.parent[i] >= 0                   ? enclosing_op[s.parent[i]]
                                                           : -1;
  }
  for (FlowKind preferred : {FlowKind::kOpToDevice, FlowKind::kLaunch}) {
    for (size_t k = 0; k < f.size(); ++k) {
      if (f.kind[k] != preferred) continue;
      const SliceId to = f.to[k];
      if (out.launching_op[to] >= 0) continue;
      if (!model::IsDeviceTrack(trace.tracks[trace.slices.track[to]].kind)) continue;
      out.launching_op[to] = enclosing_op[f.from[k]];
    }
  }
  return out;
}

}  // namespace perfdx::analysis
