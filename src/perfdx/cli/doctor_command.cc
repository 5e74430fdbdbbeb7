#include "perfdx/cli/doctor_command.h"

#include <filesystem>
#include <memory>
#include <string>
#include <system_error>

#include <fmt/format.h>

#include "perfdx/cli/common.h"
#include "perfdx/cli/terminal.h"
#include "perfdx/host/doctor.h"
#include "perfdx/io/output_file.h"
#include "perfdx/report/doctor_report.h"

namespace perfdx::cli {
namespace {

struct DoctorOptions {
  bool json = false;
  std::string sysroot = "/";
  std::string fail_on;
  std::string output;
};

int RunDoctor(const DoctorOptions& options) {
  std::error_code ec;
  if (!std::filesystem::is_directory(options.sysroot, ec)) {
    return ReportError(NotFound(fmt::format("{}: not a folder (--sysroot)", options.sysroot)));
  }
  const host::SysRoot root(options.sysroot);
  const host::DoctorReport checks =
      host::RunDoctor(host::MakeDoctorInput(root, host::ProcessEnvironment()));
  const std::string text =
      options.json
          ? report::RenderDoctorJson(checks)
          : report::RenderDoctorText(
                checks, TextWidth(ReadTerminal(), options.output.empty() || options.output == "-"));
  if (Status s = io::WriteOutputFile(options.output, text); !s.ok()) return ReportError(s);
  if (auto level = host::ParseLevel(options.fail_on); level && checks.Worst() >= *level) {
    return kExitFinding;
  }
  return kExitOk;
}

}  // namespace

void RegisterDoctorCommand(CLI::App& app, int* exit_code) {
  auto options = std::make_shared<DoctorOptions>();
  CLI::App* command = app.add_subcommand(
      "doctor",
      "what on this machine slows training: CPU governor, NUMA, huge pages, accelerators and "
      "their IRQs, limits, tools, environment (no root needed)");
  command->add_flag("--json", options->json, "machine-readable output");
  command
      ->add_option("--sysroot", options->sysroot,
                   "read /proc, /sys and /dev under this folder instead of / (a copy of another "
                   "machine's files)")
      ->capture_default_str();
  command
      ->add_option("--fail-on", options->fail_on,
                   "exit 1 if a check is at or above this level (for a job's prolog)")
      ->check(CLI::IsMember({"warning", "critical"}));
  AddOutputOption(command, &options->output);
  command->callback([options, exit_code] { *exit_code = RunDoctor(*options); });
}

}  // namespace perfdx::cli
