#pragma once

#include <CLI/CLI.hpp>

namespace perfdx::cli {

// perfdx whatif PATH... [--remove CAUSE]... [--speedup CLASS=F]...
//                       [--format text|json] [-o FILE] [--steps A..B] [--rank N]
//                       [--fix-rank N]...
//                       [--window steps|all|hta]
void RegisterWhatIfCommand(CLI::App& app, int* exit_code);

}  // namespace perfdx::cli
