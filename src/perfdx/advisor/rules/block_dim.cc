// Operators whose block dim is not a multiple of the core count
// (../shared/docs/ascend-advisor_rules.md, row 10; msprof-analyze
// block_dim_checker): b blocks on n cores run in ceil(b / n) waves, and the
// last wave leaves n - (b mod n) cores idle. For task types AI_CORE,
// AI_VECTOR_CORE and MIX_AIC: n = the AI Core count for AI_CORE (or when
// the vector core count is unknown), else the vector core count; flagged
// when block_dim % n != 0, except MIX_AIC tasks whose mix block dim is a
// multiple of the vector core count. Skipped when no operator is static
// (msprof's pre_check, is_dynamic_shape).
//
// The core counts come only from msprof's device info.json (ai_core_num,
// aiv_num); without them the rule says nothing, as msprof does ("Skip block
// dim checker because of not containing ai core num in info.json"): the
// chip name in the profile ("Ascend910B") does not fix the count (its
// variants differ), and a finding built on a guessed count would flag the
// wrong operators.
//
// Gain: the what-if in which each flagged task's work were spread evenly
// over whole waves: it would take dur x (b / n) / ceil(b / n), saving dur x
// (1 - (b / n) / ceil(b / n)). An upper bound: it assumes the work divides
// freely among blocks.
#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "perfdx/advisor/knobs.h"
#include "perfdx/advisor/rules/rule_util.h"
#include "perfdx/advisor/rules/rules.h"

namespace perfdx::advisor {
namespace {

constexpr size_t kMaxContributors = 10;  // msprof lists the top 10 by duration

class BlockDimRule final : public Rule {
 public:
  std::string_view id() const override { return "block_dim"; }

  void Evaluate(const RuleContext& c, std::vector<Finding>* out) const override {
    const int64_t ai_cores = c.analysis.ascend_profile.ai_core_count;
    const int64_t aiv_cores = c.analysis.ascend_profile.aiv_count;
    if (ai_cores <= 0) return;
    const analysis::AscendOperators& operators = c.analysis.ascend_operators;
    if (operators.op_states.NoStatic()) return;

    uint64_t checked = 0;
    FlaggedTasks flagged;
    for (const analysis::AscendKernelRow& row : operators.kernel_rows) {
      const std::string_view type = row.task_type;
      if (type != "AI_CORE" && type != "AI_VECTOR_CORE" && type != "MIX_AIC") continue;
      if (row.block_dim <= 0 || row.dur_ns <= 0) continue;
      const int64_t cores = (type == "AI_CORE" || aiv_cores <= 0) ? ai_cores : aiv_cores;
      ++checked;
      if (row.block_dim % cores == 0) continue;
      if (type == "MIX_AIC" && aiv_cores > 0 && row.mix_block_dim >= 0 &&
          row.mix_block_dim % aiv_cores == 0)
        continue;
      const double waves = static_cast<double>((row.block_dim + cores - 1) / cores);
      const double used = static_cast<double>(row.block_dim) / static_cast<double>(cores);
      flagged.Add(fmt::format("{} (block dim {} on {} cores)",
                              row.op_type.empty() ? row.name : row.op_type, row.block_dim, cores),
                  row.dur_ns, static_cast<double>(row.dur_ns) * (1.0 - used / waves));
    }
    if (flagged.count == 0 || flagged.longest_ns <= 0) return;

    Finding f;
    f.rule = std::string(id());
    f.category = Category::kOperator;
    f.gain.ns_per_step = PerStep(c, static_cast<int64_t>(flagged.saved_ns));
    f.gain.share = ShareOfStep(c, f.gain.ns_per_step);
    f.severity = PrioritySeverity(f.gain.share);
    f.title = fmt::format(
        "{} of {} operator tasks use a block dim that is not a multiple of the {} AI cores{} ({} "
        "per step); even waves would save up to {} per step",
        flagged.count, checked, ai_cores,
        aiv_cores > 0 ? fmt::format(" / {} vector cores", aiv_cores) : std::string(),
        Ms(PerStep(c, flagged.ns)), Ms(f.gain.ns_per_step));
    f.evidence.metric = "block_dim_mismatch_ns_per_step";
    f.evidence.value = static_cast<double>(PerStep(c, flagged.ns));
    f.evidence.threshold = 0;
    f.evidence.unit = "ns";
    f.evidence.details = {{"mismatched_tasks", static_cast<double>(flagged.count)},
                          {"checked_tasks", static_cast<double>(checked)},
                          {"ai_core_count", static_cast<double>(ai_cores)},
                          {"aiv_count", static_cast<double>(aiv_cores)}};
    f.evidence.contributors = flagged.LargestContributors(kMaxContributors);
    AddTag(&f, "tiling");
    AppendFixes(&f.recommendations, {"aoe_tuning"});
    out->push_back(std::move(f));
  }
};

}  // namespace

const Rule& BlockDim() {
  static const BlockDimRule rule;
  return rule;
}

}  // namespace perfdx::advisor
