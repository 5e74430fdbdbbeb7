// A run record from a `perfdx analyze --format json` report (the contract in
// report/analyze_report.h): one rank's steps (with breakdown_ns as phases),
// summary health shares, and its ops and kernels. The report keeps only the
// top 50 of each, so the record's items are marked incomplete.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "perfdx/base/status.h"
#include "perfdx/baseline/record/run_record.h"

namespace perfdx::baseline {

// Does this text start like an analyze report (`{"ranks": ...`)?
bool LooksLikeAnalyzeReport(std::string_view head);

// The newest analyze-report schema this reader knows: report::kAnalyzeSchemaVersion
// (baseline may not include report; tests/baseline/record/report_run_test.cc
// checks the two agree). A newer report is refused, an older one read.
inline constexpr int64_t kNewestAnalyzeSchema = 1;

// `rank`: the rank to read; the report's first rank when absent.
Result<RunRecord> ParseAnalyzeReport(std::string_view json, std::optional<int64_t> rank,
                                     const std::string& display_name);

}  // namespace perfdx::baseline
