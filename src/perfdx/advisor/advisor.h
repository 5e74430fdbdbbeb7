// Runs every rule over one rank's analysis and returns its findings: ranked
// by gain (largest first; the predicted gain where the fix was replayed, the
// upper bound otherwise), one per cause.
#pragma once

#include <vector>

#include "perfdx/advisor/finding.h"
#include "perfdx/advisor/thresholds.h"
#include "perfdx/analysis/rank_analysis.h"
#include "perfdx/cluster/rank_summary.h"

namespace perfdx::advisor {

// The replays of the fixes run on `threads` threads, this one among them.
std::vector<Finding> RunAdvisor(const analysis::RankAnalysis& analysis,
                                const Thresholds& thresholds, unsigned threads = 1);

// What RunAdvisor does to every finding of a rank once the rules have run,
// in this order: names its rank and path; keeps the fixes for the rank's
// framework whose evidence holds (KeepFixesFor); clamps the gain to the
// step time; merges findings that rest on the same kernels; names the top
// kernels or operators in the title; without complete steps, drops the
// per-step gain and says why (gain.basis); replays the fix of each finding
// that has one (Finding::what_if -> prediction) and, where the replay
// reproduces the steps, lowers a severity the prediction does not support
// (under 5% of the step: not critical; under 1% or within the model's
// error: info).
// A device-side fix's gain beyond the host is measured against
// analysis::HostRemoved scoped to the rank (ScopedToRank, `thresholds`).
void FinishFindings(const analysis::RankAnalysis& analysis, const Thresholds& thresholds,
                    std::vector<Finding>* findings, unsigned threads = 1);

// `fix` as it applies to this rank: a dispatch removal keeps the host time
// the analysis gives another cause (NonDispatchHostNs, rule_util.h). The
// one place the replayed launch-overhead fix is scoped: for
// host_bound_dispatch, the host-bound baseline and `perfdx whatif` alike.
analysis::WhatIf ScopedToRank(analysis::WhatIf fix, const analysis::RankAnalysis& analysis,
                              const Thresholds& thresholds);

// The same for a cross-rank finding, with the rank it names: its fixes,
// the clamp to its step time, no per-step gain without its complete steps.
void FinishClusterFinding(const cluster::RankSummary& rank, Finding* finding);

// Whether the finding's gain is its replayed prediction: there is one, and
// its fix removes the cause rather than being one remedy of it. Else the
// upper bound is the gain (ranking, severity, what the reports lead with).
bool GainIsPredicted(const Finding& f);

// What findings are ranked by: the prediction where GainIsPredicted, else
// the upper bound.
int64_t RankingGainNs(const Finding& f);

// The severity a rule gives its finding: critical when the metric is past the
// band's abnormal limit and the gain is at least 5% of the step (the
// msprof-analyze advisor's "high priority" ratio), warning when it is past
// the healthy limit and the gain is at least 1%, info otherwise.
Severity SeverityFor(const Band& band, double value, double gain_share);

}  // namespace perfdx::advisor
