#pragma once

#include <CLI/CLI.hpp>

namespace perfdx::cli {

// perfdx annotate PATH [-o annotated.json.gz] [--steps A..B] [--window ...]
void RegisterAnnotateCommand(CLI::App& app, int* exit_code);

}  // namespace perfdx::cli
