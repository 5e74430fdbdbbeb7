#pragma once

#include <CLI/CLI.hpp>

namespace perfdx::cli {

// perfdx diff BASE NEW [--format text|json] [-o FILE] [--top N] [--db PATH]
// BASE and NEW: traces, analyze reports, step logs, or library runs.
void RegisterDiffCommand(CLI::App& app, int* exit_code);

}  // namespace perfdx::cli
