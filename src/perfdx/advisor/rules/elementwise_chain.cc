// Unfused elementwise chains: dozens of tiny mul / add / tanh / ... per step
// run one after the other, each paying its own dispatch (CPU) or launch and
// memory round trip (device); analysis/elementwise_chains.h finds them.
//
// Condition: at least elementwise_chain_min_ops chain members per step and
// the fusable time past elementwise_chain_share of the step. Gain, what-if:
// each chain of k ops fused into one as long as an average member, i.e. the
// chain's span x (k-1)/k — never more than the span it comes from. On a
// trace with device work fusion_candidates already reports repeated short
// kernel sequences, elementwise ones included, with the same what-if: there
// this finding stays info, so the time is not claimed twice.
#include <cmath>

#include <fmt/format.h>

#include "perfdx/advisor/advisor.h"
#include "perfdx/advisor/knobs.h"
#include "perfdx/advisor/rules/rule_util.h"
#include "perfdx/advisor/rules/rules.h"

namespace perfdx::advisor {
namespace {

class ElementwiseChainRule final : public Rule {
 public:
  std::string_view id() const override { return "elementwise_chain"; }

  void Evaluate(const RuleContext& c, std::vector<Finding>* out) const override {
    const analysis::ElementwiseChainSummary& e = c.analysis.elementwise_chains;
    const auto steps = static_cast<double>(c.step_count());
    const double ops_per_step = static_cast<double>(e.ops) / steps;
    if (e.chains == 0 || ops_per_step < c.thresholds.elementwise_chain_min_ops) return;
    const int64_t fusable = e.fusable_ns / static_cast<int64_t>(c.step_count());
    const int64_t span = e.span_ns / static_cast<int64_t>(c.step_count());
    const double share = ShareOfStep(c, fusable);
    const Band& band = c.thresholds.elementwise_chain_share;
    if (advisor::Evaluate(band, share) == HealthStatus::kHealthy) return;

    Finding f;
    f.rule = std::string(id());
    f.category = Category::kOperator;
    f.gain = {fusable, share};
    f.severity = e.on_device ? Severity::kInfo : SeverityFor(band, share, share);
    const std::string sequence =
        e.patterns.empty() ? "" : fmt::format(": {}", e.patterns.front().sequence);
    const double chains_per_step = static_cast<double>(e.chains) / steps;
    f.title = fmt::format(
        "{:.0f} unfused elementwise {} per step in {:.0f} chain{} (longest {}) span {} per step "
        "({} of step time); fused, they would save about {}{}",
        ops_per_step, e.on_device ? "kernels" : "ops", chains_per_step,
        std::lround(chains_per_step) == 1 ? "" : "s", e.longest, Ms(span),
        Pct(ShareOfStep(c, span)), Ms(fusable), sequence);
    f.evidence.metric = "elementwise_chain_share";
    f.evidence.value = share;
    f.evidence.threshold = band.healthy;
    f.evidence.unit = "share";
    f.evidence.details = {{"chain_ops_per_step", ops_per_step},
                          {"chains_per_step", chains_per_step},
                          {"longest_chain", static_cast<double>(e.longest)},
                          {"chain_span_ns_per_step", static_cast<double>(span)},
                          {"chain_op_ns_per_step", static_cast<double>(e.op_ns) / steps}};
    const auto window_ns = static_cast<double>(c.analysis.window_ns);
    for (const analysis::ElementwiseOpCount& op : e.op_names) {
      f.evidence.contributors.push_back(
          {op.name, op.total_ns, window_ns > 0 ? static_cast<double>(op.total_ns) / window_ns : 0});
    }
    KeepLargest(&f.evidence.contributors, 8);
    for (const auto& [start, end] : e.examples) f.evidence.ranges.push_back({start, end});
    AddTag(&f, "fusible");
    f.recommendations = RecommendationsFor("operator_fusion");
    // Fused on the CPU, the chain's ops but one take no host time. On a
    // device, fusion changes kernels and launches: no transform yet.
    if (!e.on_device) {
      analysis::WhatIf fix;
      fix.removed_host_ns = e.fusable_intervals;
      f.what_if = std::move(fix);
    }
    out->push_back(std::move(f));
  }
};

}  // namespace

const Rule& ElementwiseChain() {
  static const ElementwiseChainRule rule;
  return rule;
}

}  // namespace perfdx::advisor
