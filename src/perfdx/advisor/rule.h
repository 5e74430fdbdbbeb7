// One advisor rule per file under advisor/rules/. A rule reads the analysis
// results and the thresholds and appends Findings; it computes no metric the
// analysis does not already hold, except the what-if gain for its cause.
#pragma once

#include <string_view>
#include <vector>

#include "perfdx/advisor/finding.h"
#include "perfdx/advisor/thresholds.h"
#include "perfdx/analysis/rank_analysis.h"

namespace perfdx::advisor {

struct RuleContext {
  const analysis::RankAnalysis& analysis;
  const Thresholds& thresholds;
  const model::Trace& trace() const { return *analysis.trace; }
  // Mean analysed step time; the denominator of every gain share.
  int64_t step_ns() const { return analysis.step_time.mean_ns > 0 ? analysis.step_time.mean_ns : analysis.window_ns; }
  size_t step_count() const { return analysis.steps.empty() ? 1 : analysis.steps.size(); }
};

class Rule {
 public:
  virtual ~Rule() = default;
  virtual std::string_view id() const = 0;
  virtual void Evaluate(const RuleContext& context, std::vector<Finding>* findings) const = 0;
};

// Every rule, in a fixed order.
const std::vector<const Rule*>& AllRules();

}  // namespace perfdx::advisor
