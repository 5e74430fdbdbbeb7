// `perfdx baseline list | show | trend`: text and JSON renderings.
//
// JSON (keys other tools read):
//   list   {"db", "runs": [{"id", "name", "created_unix_s", "created", "source",
//           "input_path", "perfdx_version", "host", "steps", "median_step_ns", "tags": {}}]}
//   show   {"id", "name", "created_unix_s", "created", "perfdx_version", "source",
//           "input_path", "fingerprint", "host", "host_info", "device", "rank",
//           "window", "tags": {}, "metrics": {}, "steps": [{"id", "dur_ns",
//           "samples", "phases_ns": {}}], "items_complete", "items": [{"name",
//           "kind", "count", "total_ns"}], "notes": []}
//   trend  {"metric", "points": [{"run_id", "name", "created_unix_s", "created",
//           "value", "change"}]}   change: relative to the previous point of the same name
#pragma once

#include <string>
#include <vector>

#include "perfdx/baseline/record/run_record.h"
#include "perfdx/baseline/store.h"

namespace perfdx::report {

// 1714566896 -> "2024-05-01 12:34:56Z"
std::string FormatUnixTime(int64_t unix_s);

std::string RenderRunListText(const std::vector<baseline::RunSummary>& runs);
std::string RenderRunListJson(const std::string& db_path,
                              const std::vector<baseline::RunSummary>& runs);

// `top`: items shown in the text form (the JSON has them all).
std::string RenderRunText(const baseline::RunRecord& run, size_t top = 10);
std::string RenderRunJson(const baseline::RunRecord& run);

std::string RenderTrendText(const std::string& metric,
                            const std::vector<baseline::TrendPoint>& points);
std::string RenderTrendJson(const std::string& metric,
                            const std::vector<baseline::TrendPoint>& points);

}  // namespace perfdx::report
