#include "perfdx/advisor/rules/ascend_query.h"

#include <algorithm>

#include "perfdx/advisor/rules/rule_util.h"

namespace perfdx::advisor {
bool KernelInWindow(const model::Trace& trace, const model::AscendKernel& k,
                    const analysis::IntervalSet& window) {
  if (k.slice >= 0)
    return window.Contains(trace.slices.ts_ns[static_cast<model::SliceId>(k.slice)]);
  return k.start_ns >= 0 && window.Contains(k.start_ns);
}

OpStateCounts CountOpStates(const model::Trace& trace, const analysis::IntervalSet& window) {
  OpStateCounts out;
  if (!trace.ascend) return out;
  for (const model::AscendKernel& k : trace.ascend->kernels.rows) {
    if (!KernelInWindow(trace, k, window) || trace.str(k.core_type) == "HCCL") continue;
    if (k.op_state == model::AscendOpState::kDynamic) ++out.dynamic_ops;
    if (k.op_state == model::AscendOpState::kStatic) ++out.static_ops;
    if (k.op_state == model::AscendOpState::kUnknown) ++out.unknown_ops;
  }
  return out;
}

std::vector<model::SliceId> RuntimeCallsNamed(const model::Trace& trace,
                                              const analysis::IntervalSet& window,
                                              std::string_view name, bool prefix) {
  std::vector<model::SliceId> out;
  const model::SliceTable& s = trace.slices;
  for (model::SliceId i = 0; i < s.size(); ++i) {
    if (s.kind[i] != model::EventKind::kRuntimeCall || !window.Contains(s.ts_ns[i])) continue;
    const std::string_view n = trace.slice_name(i);
    if (prefix ? n.substr(0, name.size()) == name : n == name) out.push_back(i);
  }
  return out;
}

std::string_view KernelTaskType(const model::Trace& trace, const model::AscendKernel& k) {
  return trace.str(k.core_type);
}

}  // namespace perfdx::advisor
