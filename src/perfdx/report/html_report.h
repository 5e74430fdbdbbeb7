// `perfdx analyze --format html`: the analyze report as one self-contained
// HTML page (inline CSS, inline SVG charts, a few lines of inline JS to sort
// tables; a Content-Security-Policy that lets nothing load). It formats the
// AnalyzeReport — the data the JSON contract holds — and computes nothing:
// every number on the page is a field of the report, and every string from a
// trace is HTML-escaped. Deterministic: the same report gives the same bytes.
#pragma once

#include <string>

#include "perfdx/report/analyze_report.h"

namespace perfdx::report {

std::string RenderAnalyzeHtml(const AnalyzeReport& report);
// The same page to `sink`, section by section.
void RenderAnalyzeHtml(const AnalyzeReport& report, TextSink& sink);

}  // namespace perfdx::report
