#pragma once

#include <CLI/CLI.hpp>

namespace perfdx::cli {

// perfdx check NEW --against REF [--max-regression 5%] [--min-improvement 10%]
//              [--format text|json|markdown|junit] [-o FILE] [--save NAME [--tag k=v]...]
// Exit 1 when NEW regressed against REF, 0 when improved or unchanged, 2 on bad input.
void RegisterCheckCommand(CLI::App& app, int* exit_code);

}  // namespace perfdx::cli
