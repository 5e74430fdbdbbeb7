#include "perfdx/cli/config_command.h"

#include <memory>
#include <string>

#include "perfdx/advisor/config.h"
#include "perfdx/cli/common.h"
#include "perfdx/io/output_file.h"

namespace perfdx::cli {
namespace {

struct ConfigOptions {
  bool defaults = false;
  std::string config;
  std::string output;
};

// --defaults prints the built-in thresholds; otherwise the thresholds
// `perfdx analyze` would use here (--config, ./perfdx.toml or the defaults),
// which also checks a config file before a long analysis.
int RunConfig(const ConfigOptions& options) {
  std::string text;
  if (options.defaults) {
    text = advisor::DefaultConfigToml();
  } else {
    auto thresholds = advisor::ResolveThresholds(options.config);
    if (!thresholds.ok()) return ReportError(thresholds.status());
    text = advisor::ConfigToml(*thresholds);
  }
  if (Status s = io::WriteOutputFile(options.output, text); !s.ok()) return ReportError(s);
  return kExitOk;
}

}  // namespace

void RegisterConfigCommand(CLI::App& app, int* exit_code) {
  auto options = std::make_shared<ConfigOptions>();
  CLI::App* command = app.add_subcommand(
      "config", "print the thresholds configuration (perfdx.toml) that analyze uses");
  command->add_flag("--defaults", options->defaults,
                    "print the built-in defaults, with the source of each, as a perfdx.toml");
  command
      ->add_option("--config", options->config,
                   "read this thresholds file instead of ./perfdx.toml")
      ->excludes("--defaults");
  AddOutputOption(command, &options->output);
  command->callback([options, exit_code] { *exit_code = RunConfig(*options); });
}

}  // namespace perfdx::cli
