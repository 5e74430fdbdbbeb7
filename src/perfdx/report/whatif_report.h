// `perfdx whatif`: each rank's steps replayed with the user's fixes
// (analysis/replay.h), beside the measured steps and the unchanged replay.
//
// JSON: {"report": "whatif", "perfdx_version", "what_if", "ranks": [{"rank",
//   "path", "replay": {...the analyze report's...}, "prediction": null |
//   {"what_if", "predicted_step_ns", "gain_ns_per_step", "gain_share",
//   "replay_error", "within_model_error", "beyond_upper_bound" (false: no
//   bound here)}, "steps": [{"id", "measured_ns", "replayed_ns",
//   "with_fix_ns", "predicted_ns"}]}], "warnings"}
#pragma once

#include <cstddef>
#include <string>

#include "perfdx/report/analyze_report.h"

namespace perfdx::report {

// The JSON as calls on `out` (the Python module builds objects from it);
// RenderWhatIfJson writes it as text.
void WriteWhatIfReport(const AnalyzeReport& report, ValueSink& out);
std::string RenderWhatIfJson(const AnalyzeReport& report);
std::string RenderWhatIfText(const AnalyzeReport& report, size_t width);

}  // namespace perfdx::report
