#include "perfdx/cli/diff_command.h"

#include <memory>
#include <string>

#include "perfdx/baseline/compare/diff.h"
#include "perfdx/cli/baseline_command.h"
#include "perfdx/cli/common.h"
#include "perfdx/cli/terminal.h"
#include "perfdx/io/output_file.h"
#include "perfdx/pipeline/runs.h"
#include "perfdx/report/diff_report.h"

namespace perfdx::cli {
namespace {

struct DiffOptions {
  std::string base;
  std::string current;
  std::string format = "text";
  std::string output;
  size_t top = 15;
};

int RunDiff(const RunInputFlags& flags, const DiffOptions& options) {
  auto diff = pipeline::DiffRunRefs(options.base, options.current, flags.db, flags.ToOptions());
  if (!diff.ok()) return ReportError(diff.status());
  const std::string text =
      options.format == "json"
          ? report::RenderDiffJson(*diff)
          : report::RenderDiffText(
                *diff, options.top,
                TextWidth(ReadTerminal(), options.output.empty() || options.output == "-"));
  if (Status s = io::WriteOutputFile(options.output, text); !s.ok()) return ReportError(s);
  return kExitOk;
}

}  // namespace

void RegisterDiffCommand(CLI::App& app, int* exit_code) {
  auto flags = std::make_shared<RunInputFlags>();
  auto options = std::make_shared<DiffOptions>();
  CLI::App* command = app.add_subcommand(
      "diff",
      "what moved between two runs: metrics, step phases, and operators and kernels added, removed "
      "or changed, by impact per step");
  command
      ->add_option("base", options->base,
                   "the baseline: trace, analyze report, step log, or library run")
      ->required();
  command->add_option("new", options->current, "the run to compare: same kinds as base")
      ->required();
  AddFormatOptions(command, &options->format);
  AddOutputOption(command, &options->output);
  command->add_option("--top", options->top, "rows per list in text (JSON has all)")
      ->check(WholeNumber("--top", 0, kMaxCount))
      ->capture_default_str();
  AddRunInputFlags(command, flags.get());
  command->callback([flags, options, exit_code] { *exit_code = RunDiff(*flags, *options); });
}

}  // namespace perfdx::cli
