#include "perfdx/cli/analyze_command.h"

#include <memory>
#include <optional>

#include <fmt/format.h>

#include "perfdx/advisor/config.h"
#include "perfdx/cli/common.h"
#include "perfdx/cli/progress_bar.h"
#include "perfdx/cli/terminal.h"
#include "perfdx/io/output_file.h"
#include "perfdx/pipeline/analyze.h"
#include "perfdx/report/analyze_report.h"
#include "perfdx/report/html_report.h"
#include "perfdx/report/markdown_report.h"
#include "perfdx/report/text_report.h"

namespace perfdx::cli {
namespace {

struct AnalyzeOptions {
  InputOptions input;
  std::string format = "text";
  std::string output;
  WindowOptions window;
  std::vector<int64_t> ranks;
  bool include_incomplete = false;
  double min_gap_us = 100;
  std::string fail_on;
  std::string config;  // thresholds file; empty: ./perfdx.toml if present
  int64_t top = 10;
  bool no_fixes = false;
  std::string color = "auto";
};

// The report in the format asked for, written to `out` as it is rendered
// (Markdown, bounded in size for a PR comment, whole); the text laid out for
// the terminal it goes to (cli/terminal.h decides, the renderer formats).
void Render(const AnalyzeOptions& options, const report::AnalyzeReport& report,
            const Terminal& terminal, TextSink& out) {
  if (options.format == "json") return report::RenderAnalyzeJson(report, out);
  if (options.format == "html") return report::RenderAnalyzeHtml(report, out);
  const size_t top = static_cast<size_t>(options.top);
  if (options.format == "md") {
    return out.Write(
        report::RenderAnalyzeMarkdown(report, {.top = top, .fixes = !options.no_fixes}));
  }
  const bool to_stdout = options.output.empty() || options.output == "-";
  report::RenderAnalyzeText(
      report,
      {.width = TextWidth(terminal, to_stdout),
       .color =
           UseColor(ParseColorMode(options.color).value_or(ColorMode::kAuto), terminal, to_stdout),
       .top = top,
       .fixes = !options.no_fixes},
      out);
}

int RunAnalyze(const AnalyzeOptions& options) {
  analysis::AnalysisOptions analysis_options;
  analysis_options.include_incomplete = options.include_incomplete;
  analysis_options.min_gap_ns = static_cast<int64_t>(options.min_gap_us * 1000);
  if (Status st = ApplyWindowOptions(options.window, &analysis_options); !st.ok()) {
    return ReportError(st);
  }

  // Before loading traces: a bad config file should fail in a moment, not
  // after minutes of parsing.
  const auto thresholds_or = advisor::ResolveThresholds(options.config);
  if (!thresholds_or.ok()) return ReportError(thresholds_or.status());

  pipeline::AnalyzeRequest request;
  request.paths = options.input.paths;
  request.load = options.input.ToLoadOptions();
  request.analysis = analysis_options;
  request.ranks = options.ranks;
  request.thresholds = *thresholds_or;
  const Terminal terminal = ReadTerminal();
  AttachProgressBar(terminal, &request.load);
  auto report = pipeline::BuildAnalyzeReport(request);
  if (!report.ok()) return ReportError(report.status());
  auto out = io::OutputFile::Open(options.output);
  if (!out.ok()) return ReportError(out.status());
  Render(options, *report, terminal, **out);
  if (Status s = (*out)->Commit(); !s.ok()) return ReportError(s);
  // --fail-on: exit 1 when any finding is at or above that severity.
  if (auto level = advisor::ParseSeverity(options.fail_on)) {
    if (pipeline::HasFindingAtOrAbove(*report, *level)) return kExitFinding;
  }
  return kExitOk;
}

}  // namespace

void RegisterAnalyzeCommand(CLI::App& app, int* exit_code) {
  auto options = std::make_shared<AnalyzeOptions>();
  CLI::App* command = app.add_subcommand(
      "analyze",
      "why is my step slow: health table, timeline gaps and their causes, step phases, "
      "operators, kernels, memory");
  AddInputOptions(command, &options->input);
  AddFormatOptions(command, &options->format, {"text", "json", "md", "html"},
                   "text, json, md (Markdown) or html (one self-contained page: -o report.html)");
  AddOutputOption(command, &options->output);
  AddWindowOptions(command, &options->window);
  command->add_option("--rank", options->ranks, "analyse only these ranks")
      ->check(WholeNumber("--rank", 0, kMaxRank));
  command->add_flag("--include-incomplete", options->include_incomplete,
                    "keep a last step that looks truncated");
  command->add_option("--min-gap-us", options->min_gap_us, "shortest idle gap reported, in µs")
      ->check(FiniteNumber("--min-gap-us", 0, kMaxMinGapUs, /*min_exclusive=*/true))
      ->capture_default_str();
  command
      ->add_option("--fail-on", options->fail_on,
                   "exit 1 if a finding is at or above this severity (for CI)")
      ->check(CLI::IsMember({"info", "warning", "critical"}));
  command->add_option("--config", options->config,
                      "thresholds file (TOML, see `perfdx config --defaults`); default: "
                      "./perfdx.toml if it exists, else the built-in thresholds");
  command
      ->add_option("--top", options->top, "rows per table and findings per rank shown (text, md)")
      ->check(WholeNumber("--top", 1, kMaxCount))
      ->capture_default_str();
  command->add_flag("--no-fixes", options->no_fixes,
                    "leave out the fixes under each finding (text, md)");
  command
      ->add_option("--color", options->color,
                   "colour the text report: auto (on a terminal, unless NO_COLOR is set), never, "
                   "always")
      ->check(CLI::IsMember({"never", "auto", "always"}))
      ->capture_default_str();
  command->callback([options, exit_code] { *exit_code = RunAnalyze(*options); });
}

}  // namespace perfdx::cli
