#pragma once

#include <cstdint>
#include <string_view>
#include <utility>

#include <CLI/CLI.hpp>

#include "perfdx/base/status.h"

namespace perfdx::cli {

// perfdx analyze PATH... [--format text|json] [-o FILE] [--steps A..B] [--rank N]
//                        [--window steps|all|hta] [--include-incomplete]
void RegisterAnalyzeCommand(CLI::App& app, int* exit_code);

// "5..8", "5..", "..8" or "7" -> an inclusive range of step ids.
Result<std::pair<int64_t, int64_t>> ParseStepRange(std::string_view text);

}  // namespace perfdx::cli
