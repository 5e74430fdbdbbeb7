// `perfdx analyze` as a library call: load the traces, analyse each rank,
// build its health table and findings, group the ranks into jobs and run the
// cross-rank rules per job. The CLI and every other front end call this; none
// repeats the steps.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "perfdx/advisor/finding.h"
#include "perfdx/advisor/thresholds.h"
#include "perfdx/analysis/rank_analysis.h"
#include "perfdx/base/status.h"
#include "perfdx/cluster/rank_summary.h"
#include "perfdx/formats/trace_loader.h"
#include "perfdx/report/analyze_report.h"

namespace perfdx::pipeline {

struct AnalyzeRequest {
  std::vector<std::string> paths;
  formats::LoadOptions load;
  analysis::AnalysisOptions analysis;
  std::vector<int64_t> ranks;  // --rank: only these (empty: every rank)
  advisor::Thresholds thresholds;
  // Keep each rank's trace in the report, and its analysis's activity sets
  // (annotate reads both). Otherwise each trace is freed as soon as its rank
  // is analysed and advised, on its loader thread, and the activity sets with
  // it (no renderer reads them): memory is bounded by the ranks in flight.
  bool keep_traces = false;
  // `perfdx whatif`: these fixes replayed on every rank (AnalyzeRank::what_if).
  std::optional<analysis::WhatIf> what_if;
  // With what_if: the ranks the fixes apply to (empty: every rank). A job
  // of several ranks is replayed jointly as well (AnalyzeJob::joint_replay),
  // where the others gain only what their wait for these ranks lets them.
  std::vector<int64_t> fix_ranks;
};

// What a user typed for the request's options, as every front end reads it:
// "5..8", "5..", "..8" or "7" -> an inclusive range of step ids (--steps);
// "steps", "all" or "hta" -> the analysis window (--window).
Result<std::pair<int64_t, int64_t>> ParseStepRange(std::string_view text);
std::optional<analysis::AnalysisWindow> ParseAnalysisWindow(std::string_view text);

// Each rank is loaded, analysed and advised on a loader thread (up to
// load.threads at once); the report keeps its traces only if asked. Paths ending in ".summary"
// (`perfdx summarize`'s files; all of the paths, then) are merged as the ranks of one job: the
// report holds that job's cluster section and no rank. Fails on input that cannot be read, and when
// `ranks` names no loaded rank.
Result<report::AnalyzeReport> BuildAnalyzeReport(const AnalyzeRequest& request);

// `perfdx summarize`: the summaries (cluster/rank_summary.h) of the ranks
// `request` loads, in load order.
Result<std::vector<cluster::RankSummary>> SummarizeRanks(const AnalyzeRequest& request);

// Is any finding, of a rank or across ranks, at or above `level`? (--fail-on)
bool HasFindingAtOrAbove(const report::AnalyzeReport& report, advisor::Severity level);

}  // namespace perfdx::pipeline
