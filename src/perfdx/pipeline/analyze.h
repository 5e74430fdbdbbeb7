// `perfdx analyze` as a library call: load the traces, analyse each rank,
// build its health table and findings, group the ranks into jobs and run the
// cross-rank rules per job. The CLI and every other front end call this; none
// repeats the steps.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "perfdx/advisor/finding.h"
#include "perfdx/advisor/thresholds.h"
#include "perfdx/analysis/rank_analysis.h"
#include "perfdx/base/status.h"
#include "perfdx/formats/trace_loader.h"
#include "perfdx/report/analyze_report.h"

namespace perfdx::pipeline {

struct AnalyzeRequest {
  std::vector<std::string> paths;
  formats::LoadOptions load;
  analysis::AnalysisOptions analysis;
  std::vector<int64_t> ranks;  // --rank: only these (empty: every rank)
  advisor::Thresholds thresholds;
};

// The report owns its traces. Fails on input that cannot be read, and when
// `ranks` names no loaded rank.
Result<report::AnalyzeReport> BuildAnalyzeReport(const AnalyzeRequest& request);

// Is any finding, of a rank or across ranks, at or above `level`? (--fail-on)
bool HasFindingAtOrAbove(const report::AnalyzeReport& report, advisor::Severity level);

}  // namespace perfdx::pipeline
