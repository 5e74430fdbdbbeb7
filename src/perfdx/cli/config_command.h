#pragma once

#include <CLI/CLI.hpp>

namespace perfdx::cli {

// perfdx config [--defaults] [--config FILE] [-o FILE]
void RegisterConfigCommand(CLI::App& app, int* exit_code);

}  // namespace perfdx::cli
