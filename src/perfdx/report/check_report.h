// `perfdx check`: the verdict in five forms — text for people, JSON for
// tools, a Markdown snippet for a pull-request comment, JUnit XML for CI
// test dashboards, a self-contained HTML page with the two step-time
// distributions. All five say the same thing from one CheckResult.
//
// JSON (keys other tools read):
//   {"schema_version", "report": "check", "perfdx_version", "verdict":
//   "improved|unchanged|regressed", "step_time_ratio", "ci": [low, high],
//    "method": "bootstrap_median_ratio", "confidence", "resamples", "seed",
//    "change", "beyond_noise", "past_threshold",
//    "thresholds": {"max_regression", "min_improvement"},
//    "base": {"label", "steps", "median_step_ns", "throughput"},
//    "new": {...same...}, "summary", "notes": [...]}
#pragma once

#include <string>

#include "perfdx/base/value_sink.h"
#include "perfdx/baseline/compare/check.h"

namespace perfdx::report {

// Raised when a key is removed, renamed or changes meaning.
inline constexpr int kCheckSchemaVersion = 1;

// One sentence: "improved: median step time 177.4 ms -> 126.7 ms (-28.6%, 95% CI ...), ..."
std::string CheckSummary(const baseline::CheckResult& result);

std::string RenderCheckText(const baseline::CheckResult& result);
// The JSON form as calls on `out` (RenderCheckJson: as text).
void WriteCheckResult(const baseline::CheckResult& result, ValueSink& out);
std::string RenderCheckJson(const baseline::CheckResult& result);
std::string RenderCheckMarkdown(const baseline::CheckResult& result);
std::string RenderCheckJunit(const baseline::CheckResult& result);
// One page (html_page.h: nothing loads): the verdict, the table of base and
// new, and the step times of result.base_step_ns / new_step_ns drawn side by
// side on one axis (svg::StripChart "check-distribution").
std::string RenderCheckHtml(const baseline::CheckResult& result);

}  // namespace perfdx::report
