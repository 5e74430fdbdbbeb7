// Operators bound by no pipeline (../shared/docs/ascend-advisor_rules.md,
// row 9; msprof-analyze operator_bound_checker): an operator with PMU
// pipeline ratios (PipeUtilization profiles) none of which exceeds
// operator_bound_ratio (0.8, config.ini) keeps none of its vector, cube,
// scalar or memory-transfer pipelines busy — typically a poor tiling or too
// few blocks. Reported when the longest such task takes more than
// operator_no_bound_min_task_ns (20 us, _MIN_TASK_DURATION). Skipped when
// no operator is static (msprof's pre_check, is_dynamic_shape; AOE tunes
// static operators only).
//
// The ratios: vec, mac, scalar, mte1, mte2, mte3 — msprof's list — with
// both the aic_ and the aiv_ prefix (and unprefixed, as older op_summary
// files write them). msprof looks each name up once, with the first prefix
// present, so for a vector operator of a profile that also has aic_ columns
// it reads aic_scalar_ratio / aic_mte2_ratio (0) instead of the aiv_ ones;
// perfdx reads every pipe of both cores, so it flags a subset of msprof's
// operators: those bound by no pipe at all.
//
// Gain: the what-if in which each flagged task became bound by its busiest
// pipeline, i.e. ran that pipe at the bound ratio: the same pipe work in
// dur x max_ratio / bound_ratio, saving dur x (1 - max_ratio /
// bound_ratio). An estimate and an upper bound: tuning may not reach it.
#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "perfdx/advisor/knobs.h"
#include "perfdx/advisor/rules/rule_util.h"
#include "perfdx/advisor/rules/rules.h"

namespace perfdx::advisor {
namespace {

constexpr size_t kMaxContributors = 10;  // msprof writes the top 10 to its tune file

class OperatorNoBoundRule final : public Rule {
 public:
  std::string_view id() const override { return "operator_no_bound"; }

  void Evaluate(const RuleContext& c, std::vector<Finding>* out) const override {
    const analysis::AscendOperators& operators = c.analysis.ascend_operators;
    if (!operators.has_pipe_ratios) return;  // not a PipeUtilization profile
    if (operators.op_states.NoStatic()) return;
    const double bound = c.thresholds.operator_bound_ratio;

    uint64_t measured = 0;
    FlaggedTasks flagged;
    for (const analysis::AscendKernelRow& row : operators.kernel_rows) {
      if (row.dur_ns <= 0) continue;
      const double max_ratio = row.busiest_pipe_ratio;
      if (max_ratio <= 0) continue;  // no ratio data for this task (msprof skips it too)
      ++measured;
      if (max_ratio > bound) continue;
      flagged.Add(row.op_type.empty() ? row.name : row.op_type, row.dur_ns,
                  static_cast<double>(row.dur_ns) * (1.0 - max_ratio / bound));
    }
    if (flagged.count == 0 ||
        static_cast<double>(flagged.longest_ns) <= c.thresholds.operator_no_bound_min_task_ns)
      return;

    Finding f;
    f.rule = std::string(id());
    f.category = Category::kOperator;
    f.gain.ns_per_step = PerStep(c, static_cast<int64_t>(flagged.saved_ns));
    f.gain.share = ShareOfStep(c, f.gain.ns_per_step);
    f.severity = PrioritySeverity(f.gain.share);
    f.title = fmt::format(
        "{} of {} measured operator tasks keep no pipeline above {:.0f}% busy ({} per step, the "
        "longest {:.0f} us); tuning them to the bound would save up to {} per step",
        flagged.count, measured, bound * 100, Ms(PerStep(c, flagged.ns)),
        static_cast<double>(flagged.longest_ns) / 1e3, Ms(f.gain.ns_per_step));
    f.evidence.metric = "unbound_operator_ns_per_step";
    f.evidence.value = static_cast<double>(PerStep(c, flagged.ns));
    f.evidence.threshold = c.thresholds.operator_no_bound_min_task_ns;
    f.evidence.unit = "ns";
    f.evidence.details = {{"unbound_tasks", static_cast<double>(flagged.count)},
                          {"measured_tasks", static_cast<double>(measured)},
                          {"longest_task_ns", static_cast<double>(flagged.longest_ns)},
                          {"bound_ratio", bound}};
    f.evidence.contributors = flagged.LargestContributors(kMaxContributors);
    AddTag(&f, "tiling");
    AppendFixes(&f.recommendations, {"aoe_tuning"});
    out->push_back(std::move(f));
  }
};

}  // namespace

const Rule& OperatorNoBound() {
  static const OperatorNoBoundRule rule;
  return rule;
}

}  // namespace perfdx::advisor
