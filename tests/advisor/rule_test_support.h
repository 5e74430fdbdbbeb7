// Helpers shared by the advisor rule tests: analyse a trace the way
// `perfdx analyze` does and look findings up.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "perfdx/advisor/advisor.h"
#include "perfdx/advisor/cluster_advisor.h"
#include "perfdx/advisor/finding.h"
#include "perfdx/advisor/thresholds.h"
#include "perfdx/analysis/rank_analysis.h"
#include "perfdx/cluster/cluster_analysis.h"
#include "perfdx/cluster/rank_summary.h"
#include "test_support.h"

namespace perfdx::advisor::testing {

// The job rules over these ranks as `perfdx analyze` runs them: through
// the ranks' summaries and the job's cluster analysis.
inline std::vector<Finding> JobFindings(const std::vector<const analysis::RankAnalysis*>& ranks,
                                        const Thresholds& thresholds) {
  std::vector<cluster::RankSummary> summaries;
  for (const analysis::RankAnalysis* a : ranks) summaries.push_back(cluster::SummarizeRank(*a));
  std::vector<const cluster::RankSummary*> members;
  for (const cluster::RankSummary& s : summaries) members.push_back(&s);
  const cluster::ClusterAnalysis job = cluster::AnalyzeCluster(members, LinkPeaksOf(thresholds));
  return RunClusterAdvisor(job, members, thresholds);
}

// Keeps the trace alive next to the analysis that points into it.
struct Analysed {
  model::Trace trace;
  analysis::RankAnalysis analysis;
  std::vector<Finding> findings;
};

inline std::unique_ptr<Analysed> Analyse(model::Trace trace, const Thresholds& thresholds = {}) {
  auto a = std::make_unique<Analysed>();
  a->trace = std::move(trace);
  a->analysis = analysis::AnalyzeRank(a->trace, {});
  a->findings = RunAdvisor(a->analysis, thresholds);
  return a;
}

inline std::unique_ptr<Analysed> AnalyseJson(const std::string& json,
                                             const Thresholds& thresholds = {}) {
  auto t = perfdx::testing::ImportString(json);
  EXPECT_TRUE(t.ok()) << t.status().message();
  return Analyse(std::move(*t), thresholds);
}

inline const Finding* FindRule(const std::vector<Finding>& findings, std::string_view rule) {
  for (const Finding& f : findings) {
    if (f.rule == rule) return &f;
  }
  return nullptr;
}

// The evidence detail `key` of `f`; a test failure when there is none.
inline double Detail(const Finding& f, std::string_view key) {
  for (const auto& [k, v] : f.evidence.details) {
    if (k == key) return v;
  }
  ADD_FAILURE() << "no detail " << key << " in " << f.rule;
  return -1;
}

}  // namespace perfdx::advisor::testing
