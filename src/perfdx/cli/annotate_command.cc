#include "perfdx/cli/annotate_command.h"

#include <cstdio>
#include <memory>

#include "perfdx/advisor/config.h"
#include "perfdx/cli/common.h"
#include "perfdx/io/output_file.h"
#include "perfdx/pipeline/annotate.h"

namespace perfdx::cli {
namespace {

struct AnnotateOptions {
  InputOptions input;
  std::string output;
  WindowOptions window;
  double min_gap_us = 100;
  std::string config;
};

int RunAnnotate(const AnnotateOptions& options) {
  pipeline::AnnotateRequest request;
  request.analyze.paths = options.input.paths;
  request.analyze.load = options.input.ToLoadOptions();
  request.analyze.analysis.min_gap_ns = static_cast<int64_t>(options.min_gap_us * 1000);
  if (Status st = ApplyWindowOptions(options.window, &request.analyze.analysis); !st.ok()) {
    return ReportError(st);
  }
  auto thresholds = advisor::ResolveThresholds(options.config);
  if (!thresholds.ok()) return ReportError(thresholds.status());
  request.analyze.thresholds = *thresholds;
  request.gzip = options.output.ends_with(".gz");

  auto annotated = pipeline::AnnotateTrace(request);
  if (!annotated.ok()) return ReportError(annotated.status());
  for (const std::string& w : annotated->warnings) {
    std::fprintf(stderr, "perfdx: warning: %s\n", w.c_str());
  }
  if (Status s = io::WriteOutputFile(options.output, annotated->bytes); !s.ok())
    return ReportError(s);
  return kExitOk;
}

}  // namespace

void RegisterAnnotateCommand(CLI::App& app, int* exit_code) {
  auto options = std::make_shared<AnnotateOptions>();
  CLI::App* command = app.add_subcommand(
      "annotate",
      "the trace with perfdx's tracks added (idle gaps and their causes, data-loading stalls, "
      "exposed communication, each finding's time ranges), for Perfetto UI, chrome://tracing "
      "and MindStudio Insight");
  AddInputOptions(command, &options->input);
  command->add_option("-o,--output", options->output,
                      "the annotated trace (gzip'd when the name ends in .gz; default: stdout)");
  AddWindowOptions(command, &options->window);
  command->add_option("--min-gap-us", options->min_gap_us, "shortest idle gap marked, in µs")
      ->check(FiniteNumber("--min-gap-us", 0, kMaxMinGapUs, /*min_exclusive=*/true))
      ->capture_default_str();
  command->add_option("--config", options->config,
                      "thresholds file (TOML); default: ./perfdx.toml if it exists");
  command->callback([options, exit_code] { *exit_code = RunAnnotate(*options); });
}

}  // namespace perfdx::cli
