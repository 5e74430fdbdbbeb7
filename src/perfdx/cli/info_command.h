#pragma once

#include <CLI/CLI.hpp>

namespace perfdx::cli {

// perfdx info PATH... [--json] [-o FILE]
void RegisterInfoCommand(CLI::App& app, int* exit_code);

}  // namespace perfdx::cli
