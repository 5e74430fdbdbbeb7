#include "perfdx/cli/whatif_command.h"

#include <memory>

#include "perfdx/analysis/replay.h"
#include "perfdx/cli/common.h"
#include "perfdx/cli/progress_bar.h"
#include "perfdx/cli/terminal.h"
#include "perfdx/io/output_file.h"
#include "perfdx/pipeline/analyze.h"
#include "perfdx/report/whatif_report.h"

namespace perfdx::cli {
namespace {

struct WhatIfOptions {
  InputOptions input;
  std::string format = "text";
  std::string output;
  WindowOptions window;
  std::vector<int64_t> ranks;
  std::vector<int64_t> fix_ranks;
  std::vector<std::string> removals;
  std::vector<std::string> speedups;
};

int RunWhatIf(const WhatIfOptions& options) {
  analysis::WhatIf what_if;
  for (const std::string& r : options.removals) {
    if (Status st = analysis::AddRemoval(r, &what_if); !st.ok()) return ReportError(st);
  }
  for (const std::string& s : options.speedups) {
    if (Status st = analysis::AddSpeedup(s, &what_if); !st.ok()) return ReportError(st);
  }
  if (what_if.identity()) {
    return ReportError(InvalidInput("whatif: nothing to change: give --remove or --speedup"));
  }
  pipeline::AnalyzeRequest request;
  if (Status st = ApplyWindowOptions(options.window, &request.analysis); !st.ok()) {
    return ReportError(st);
  }
  request.paths = options.input.paths;
  request.load = options.input.ToLoadOptions();
  request.ranks = options.ranks;
  request.what_if = what_if;
  request.fix_ranks = options.fix_ranks;
  const Terminal terminal = ReadTerminal();
  AttachProgressBar(terminal, &request.load);
  auto report = pipeline::BuildAnalyzeReport(request);
  if (!report.ok()) return ReportError(report.status());
  const bool to_stdout = options.output.empty() || options.output == "-";
  const std::string text =
      options.format == "json"
          ? report::RenderWhatIfJson(*report)
          : report::RenderWhatIfText(*report, static_cast<size_t>(TextWidth(terminal, to_stdout)));
  if (Status s = io::WriteOutputFile(options.output, text); !s.ok()) return ReportError(s);
  return kExitOk;
}

}  // namespace

void RegisterWhatIfCommand(CLI::App& app, int* exit_code) {
  auto options = std::make_shared<WhatIfOptions>();
  CLI::App* command = app.add_subcommand(
      "whatif",
      "replay the steps with fixes applied: the predicted step time, beside how well the replay "
      "reproduces the measured steps");
  AddInputOptions(command, &options->input);
  AddFormatOptions(command, &options->format, {"text", "json"}, "text or json");
  AddOutputOption(command, &options->output);
  AddWindowOptions(command, &options->window);
  command->add_option("--rank", options->ranks, "replay only these ranks")
      ->check(WholeNumber("--rank", 0, kMaxRank));
  command
      ->add_option("--fix-rank", options->fix_ranks,
                   "apply the fixes to these ranks only (a straggler's cause); the job's "
                   "joint replay says what the others gain from it")
      ->check(WholeNumber("--fix-rank", 0, kMaxRank));
  command->add_option(
      "--remove", options->removals,
      "a cause that takes no time: data-loading, layout-conversion, launch-overhead "
      "(each step's dispatch, as if captured in a graph), communication-wait (nothing waits "
      "for a collective)");
  command->add_option("--speedup", options->speedups,
                      "a class of device work made faster: fp32-matrix=F, matrix=F, "
                      "communication=F (F: the factor, 0.001 to 1000; below 1 a slowdown)");
  command->callback([options, exit_code] { *exit_code = RunWhatIf(*options); });
}

}  // namespace perfdx::cli
