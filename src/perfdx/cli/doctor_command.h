#pragma once

#include <CLI/CLI.hpp>

namespace perfdx::cli {

// perfdx doctor [--json] [--sysroot DIR] [--fail-on warning|critical] [-o FILE]
void RegisterDoctorCommand(CLI::App& app, int* exit_code);

}  // namespace perfdx::cli
