#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "perfdx/base/status.h"
#include "perfdx/baseline/record/run_input.h"

namespace perfdx::cli {

// perfdx baseline save PATH --name NAME [--tag k=v]... | list | show REF | rm REF... |
//                 trend METRIC [--name NAME]          (all: [--db PATH])
void RegisterBaselineCommand(CLI::App& app, int* exit_code);

// Flags shared by save, diff and check for reading a run from a path.
struct RunInputFlags {
  std::string db = ".perfdx/runs.db";
  std::optional<int64_t> rank;
  std::string window = "steps";
  bool include_incomplete = false;
  int64_t warmup_steps = 0;
  uint64_t max_decompressed_bytes = uint64_t{16} << 30;
  double max_compression_ratio = 200.0;

  baseline::RunInputOptions ToOptions() const;
};

// --db (and PERFDX_DB) only.
void AddDbFlag(CLI::App* command, RunInputFlags* flags);
// --db plus the flags that shape a run read from a trace, report or log.
void AddRunInputFlags(CLI::App* command, RunInputFlags* flags);

// "5%", "5" -> 0.05 (a percentage, 0 <= p < 100).
Result<double> ParsePercent(std::string_view text, std::string_view flag);

}  // namespace perfdx::cli
