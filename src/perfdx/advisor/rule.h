// One advisor rule per file under advisor/rules/, one line each in the
// registry (rules/rules.h). A rule reads the analysis results and the
// thresholds and appends Findings; it computes no metric the analysis does
// not already hold, except the what-if gain for its cause.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "perfdx/advisor/finding.h"
#include "perfdx/advisor/thresholds.h"
#include "perfdx/analysis/rank_analysis.h"

namespace perfdx::advisor {

// The steps a per-step gain is spread over: those of the analysis window.
// With `--window hta` that is every step but the last (the window's
// metrics cover only those), otherwise the analysed steps.
inline size_t GainStepCount(const analysis::RankAnalysis& a) {
  if (a.window == analysis::AnalysisWindow::kHta && !a.window_steps.empty())
    return a.window_steps.size();
  return a.steps.empty() ? 1 : a.steps.size();
}

// Mean step time of that window; the denominator of every gain share.
inline int64_t GainStepNs(const analysis::RankAnalysis& a) {
  if (a.window == analysis::AnalysisWindow::kHta && !a.window_steps.empty())
    return a.window_ns / static_cast<int64_t>(a.window_steps.size());
  return a.step_time.mean_ns > 0 ? a.step_time.mean_ns : a.window_ns;
}

struct RuleContext {
  const analysis::RankAnalysis& analysis;
  const Thresholds& thresholds;
  // The rank's description (device, framework, world); rules read no
  // other part of the trace.
  const model::RankInfo& info() const { return analysis.info(); }
  int64_t step_ns() const { return GainStepNs(analysis); }
  size_t step_count() const { return GainStepCount(analysis); }
};

class Rule {
 public:
  virtual ~Rule() = default;
  virtual std::string_view id() const = 0;
  virtual void Evaluate(const RuleContext& context, std::vector<Finding>* findings) const = 0;
};

// A rule over the ranks of one job at once (late, slow rank, slow link):
// it reads their analyses only, like a rank's rule.
struct JobRuleContext {
  const std::vector<const analysis::RankAnalysis*>& ranks;
  const Thresholds& thresholds;
};

class JobRule {
 public:
  virtual ~JobRule() = default;
  virtual std::string_view id() const = 0;
  virtual void Evaluate(const JobRuleContext& context, std::vector<Finding>* findings) const = 0;
};

// Every rule, in the registry's order (rules/rules.h).
const std::vector<const Rule*>& AllRules();
const std::vector<const JobRule*>& AllJobRules();

}  // namespace perfdx::advisor
