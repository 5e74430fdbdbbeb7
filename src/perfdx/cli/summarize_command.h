#pragma once

#include <CLI/CLI.hpp>

namespace perfdx::cli {

// perfdx summarize PATH -o rank.summary [--steps A..B] [--window ...]
void RegisterSummarizeCommand(CLI::App& app, int* exit_code);

}  // namespace perfdx::cli
