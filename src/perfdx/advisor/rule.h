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
#include "perfdx/cluster/cluster_analysis.h"

namespace perfdx::advisor {

// The denominators of every gain (analysis/rank_analysis.h).
using analysis::GainStepCount;
using analysis::GainStepNs;

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
// it reads the job's cluster analysis and the ranks' summaries only, so
// that traces analysed together and summaries merged (`perfdx analyze
// *.summary`) give the same findings.
struct JobRuleContext {
  const cluster::ClusterAnalysis& cluster;
  const std::vector<const cluster::RankSummary*>& ranks;  // cluster.ranks[m] is ranks[m]'s
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
