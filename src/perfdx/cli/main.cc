// perfdx: performance diagnosis for AI training profiles.
#include <exception>

#include <CLI/CLI.hpp>

#include "perfdx/base/allocator.h"
#include "perfdx/cli/analyze_command.h"
#include "perfdx/cli/annotate_command.h"
#include "perfdx/cli/baseline_command.h"
#include "perfdx/cli/bind_command.h"
#include "perfdx/cli/check_command.h"
#include "perfdx/cli/common.h"
#include "perfdx/cli/config_command.h"
#include "perfdx/cli/diff_command.h"
#include "perfdx/cli/doctor_command.h"
#include "perfdx/cli/info_command.h"
#include "perfdx/cli/summarize_command.h"
#include "perfdx/cli/whatif_command.h"
#include "perfdx/version.h"

int main(int argc, char** argv) {
  using perfdx::cli::kExitBadInput;
  perfdx::base::KeepLargeBlocksOutOfTheHeap();
  CLI::App app{"perfdx " PERFDX_VERSION
               " — performance diagnosis for AI training on Ascend NPUs and NVIDIA GPUs"};
  app.name("perfdx");
  app.set_version_flag("--version", PERFDX_VERSION);
  app.require_subcommand(1);
  int exit_code = 0;
  perfdx::cli::RegisterInfoCommand(app, &exit_code);
  perfdx::cli::RegisterAnalyzeCommand(app, &exit_code);
  perfdx::cli::RegisterWhatIfCommand(app, &exit_code);
  perfdx::cli::RegisterAnnotateCommand(app, &exit_code);
  perfdx::cli::RegisterSummarizeCommand(app, &exit_code);
  perfdx::cli::RegisterConfigCommand(app, &exit_code);
  perfdx::cli::RegisterBaselineCommand(app, &exit_code);
  perfdx::cli::RegisterDiffCommand(app, &exit_code);
  perfdx::cli::RegisterCheckCommand(app, &exit_code);
  perfdx::cli::RegisterDoctorCommand(app, &exit_code);
  perfdx::cli::RegisterBindCommand(app, &exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kExitBadInput;
  } catch (const std::exception& e) {
    // std::bad_alloc: exit 4; anything else escaping a command is a bug: exit 3.
    return perfdx::cli::ReportException(e);
  }
  return exit_code;
}
