// Operators compiled at run time (../shared/docs/ascend-advisor_rules.md,
// rows 8 and 16; msprof-analyze dynamic_shape_checker and
// timeline_op_dispatch_analyzer). msprof's two checks print one fix,
// set_compile_mode(jit_compile=False) with allow_internal_format=False, for
// one cause, so perfdx makes them one finding:
//   - Operator Dispatch: AscendCL@aclopCompileAndExecute calls per step >=
//     op_compile_min_count (20, MAX_OP_COMPILE_NUM);
//   - Dynamic Shape: no operator of the window is static (kernel_details /
//     op_summary "OP State", DB opState; msprof reads "no static operator"
//     also when the export records no state, as the CANN 8.0 DB export
//     does not).
// The fix is printed only where it is real: when the trace shows operators
// compiled at run time. Operators with no static one and no compilation at
// all are the precompiled binary kernels jit_compile=False already selects
// (the default on Atlas A2/A3), so a trace with a host side and no
// compilation gets no finding for it. A kernel table alone
// (kernel_details.csv) has no host side to show compilation: there a
// recorded all-dynamic table is reported as the fact msprof reports, with no
// fix. Not for MindSpore (msprof runs neither check on it).
//
// Gain: the AscendCL@opCompile time per step — the what-if in which no
// operator is compiled while the step runs. Host time, so an upper bound
// on what the step saves (the device may have had queued work meanwhile);
// 0 when the trace records no compilation.
#include <fmt/format.h>

#include "perfdx/advisor/knobs.h"
#include "perfdx/advisor/rules/rule_util.h"
#include "perfdx/advisor/rules/rules.h"
#include "perfdx/base/saturating.h"

namespace perfdx::advisor {
namespace {

class DynamicShapeRule final : public Rule {
 public:
  std::string_view id() const override { return "dynamic_shape"; }

  void Evaluate(const RuleContext& c, std::vector<Finding>* out) const override {
    if (c.info().device_type != model::DeviceType::kNpu) return;
    if (c.analysis.ascend_profile.framework == "mindspore") return;
    const analysis::OpStateCounts& states = c.analysis.ascend_operators.op_states;
    const analysis::HostCalls& host = c.analysis.host_calls;
    const std::vector<analysis::HostCall> compiles =
        host.Of(analysis::HostCallKind::kOpCompileAndExecute);
    const std::vector<analysis::HostCall> compile_parts =
        host.Of(analysis::HostCallKind::kOpCompile);
    const double steps = static_cast<double>(c.step_count());
    const double compiles_per_step = static_cast<double>(compiles.size()) / steps;
    const bool many_compiles = compiles_per_step >= c.thresholds.op_compile_min_count;
    const bool runtime_compilation = !compiles.empty() || !compile_parts.empty();
    const bool dynamic =
        runtime_compilation ? states.NoStatic() : !host.host_recorded && states.AllDynamic();
    if (!dynamic && !many_compiles) return;

    int64_t compile_ns = 0;
    for (const analysis::HostCall& call : compile_parts)
      base::AddSaturating(compile_ns, call.dur_ns);

    Finding f;
    f.rule = std::string(id());
    f.category = Category::kOperator;
    f.gain.ns_per_step = PerStep(c, compile_ns);
    f.gain.share = ShareOfStep(c, f.gain.ns_per_step);
    f.severity = PrioritySeverity(f.gain.share);
    const std::string compiled =
        fmt::format("{:.0f} operator compilations per step (aclopCompileAndExecute, {} compiling)",
                    compiles_per_step, Ms(f.gain.ns_per_step));
    if (dynamic) {
      const std::string ops =
          states.dynamic_ops > 0
              ? fmt::format("All {} operators are dynamic-shape", states.dynamic_ops)
              : fmt::format("None of {} operators is recorded static", states.unknown_ops);
      f.title =
          runtime_compilation
              ? fmt::format("{}, and {}", ops, compiled)
              : fmt::format("{}; no run-time compilation can be seen (kernel table only)", ops);
    } else {
      f.title = fmt::format("{} (>= {:.0f})", compiled, c.thresholds.op_compile_min_count);
    }
    f.evidence.metric = many_compiles ? "op_compiles_per_step" : "dynamic_operator_share";
    f.evidence.value = many_compiles ? compiles_per_step : 1.0;
    f.evidence.threshold = many_compiles ? c.thresholds.op_compile_min_count : 1.0;
    f.evidence.unit = many_compiles ? "count" : "share";
    f.evidence.details = {{"dynamic_ops", static_cast<double>(states.dynamic_ops)},
                          {"static_ops", static_cast<double>(states.static_ops)},
                          {"unknown_state_ops", static_cast<double>(states.unknown_ops)},
                          {"op_compiles_per_step", compiles_per_step},
                          {"compile_ns_per_step", static_cast<double>(f.gain.ns_per_step)}};
    for (const analysis::HostCall& call : compiles) {
      if (f.evidence.ranges.size() == 5) break;
      f.evidence.ranges.push_back({call.ts_ns, call.end_ns()});
    }
    if (runtime_compilation) AddTag(&f, "runtime_compilation");
    if (runtime_compilation) AppendFixes(&f.recommendations, {"jit_compile_off"});
    out->push_back(std::move(f));
  }
};

}  // namespace

const Rule& DynamicShape() {
  static const DynamicShapeRule rule;
  return rule;
}

}  // namespace perfdx::advisor
