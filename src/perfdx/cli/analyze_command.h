#pragma once

#include <CLI/CLI.hpp>

namespace perfdx::cli {

// perfdx analyze PATH... [--format text|json] [-o FILE] [--steps A..B] [--rank N]
//                        [--window steps|all|hta] [--include-incomplete]
void RegisterAnalyzeCommand(CLI::App& app, int* exit_code);

}  // namespace perfdx::cli
