// `perfdx analyze`'s text report, laid out for a terminal: every line at most
// `width` columns (tables shorten names and drop columns in the order
// text_table.h gives; sentences wrap), names shortened in the middle so that
// distinct names stay distinct, warnings first. The CLI decides the width and
// colour (cli/terminal.h); the renderer only formats.
#pragma once

#include <cstddef>
#include <string>

#include "perfdx/report/analyze_report.h"

namespace perfdx::report {

struct TextOptions {
  // Display columns per line; under kMinTextWidth is laid out at kMinTextWidth.
  int width = 100;
  bool color = false;  // ANSI colours (severity, health status, headings)
  size_t top = 10;     // rows per table (operators, kernels, steps, gap groups), findings per rank
  bool fixes = true;   // the fixes (text, snippet, documentation) under each finding
};
inline constexpr int kMinTextWidth = 40;

std::string RenderAnalyzeText(const AnalyzeReport& report, const TextOptions& options = {});
// The same text to `sink`, rank by rank.
void RenderAnalyzeText(const AnalyzeReport& report, const TextOptions& options, TextSink& sink);

}  // namespace perfdx::report
