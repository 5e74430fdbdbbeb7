#include "perfdx/cli/info_command.h"

#include <memory>

#include "perfdx/cli/common.h"
#include "perfdx/cli/progress_bar.h"
#include "perfdx/cli/terminal.h"
#include "perfdx/io/output_file.h"
#include "perfdx/report/info_report.h"

namespace perfdx::cli {
namespace {

struct InfoOptions {
  InputOptions input;
  bool json = false;
  std::string output;
};

int RunInfo(const InfoOptions& options) {
  formats::LoadOptions load = options.input.ToLoadOptions();
  AttachProgressBar(ReadTerminal(), &load);
  auto loaded = formats::LoadTraces(options.input.paths, load);
  if (!loaded.ok()) return ReportError(loaded.status());
  const report::InfoReport report = report::BuildInfoReport(loaded->traces, loaded->warnings);
  const std::string text =
      options.json
          ? report::RenderInfoJson(report)
          : report::RenderInfoText(
                report, TextWidth(ReadTerminal(), options.output.empty() || options.output == "-"));
  if (Status s = io::WriteOutputFile(options.output, text); !s.ok()) return ReportError(s);
  return kExitOk;
}

}  // namespace

void RegisterInfoCommand(CLI::App& app, int* exit_code) {
  auto options = std::make_shared<InfoOptions>();
  CLI::App* command = app.add_subcommand("info",
                                         "what each rank's profile holds: format, device, "
                                         "span, steps, tracks, event counts, load warnings");
  AddInputOptions(command, &options->input);
  command->add_flag("--json", options->json, "machine-readable output");
  AddOutputOption(command, &options->output);
  command->callback([options, exit_code] { *exit_code = RunInfo(*options); });
}

}  // namespace perfdx::cli
