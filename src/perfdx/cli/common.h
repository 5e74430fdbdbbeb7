// Pieces every perfdx subcommand shares: input options, output writing,
// turning a Status into a message and exit code.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "perfdx/base/status.h"
#include "perfdx/formats/trace_loader.h"

namespace perfdx::cli {

enum ExitCode : int {
  kExitOk = 0,
  kExitFinding = 1,   // a check found a regression, or a finding at/above --fail-on
  kExitBadInput = 2,  // bad input or usage
};

struct InputOptions {
  std::vector<std::string> paths;
  uint64_t max_decompressed_bytes = uint64_t{16} << 30;
  double max_compression_ratio = 200.0;
  unsigned threads = 0;
  bool no_fast_path = false;

  std::string framework;  // --framework: pytorch, torch_npu, mindspore ("" detects)
  formats::LoadOptions ToLoadOptions() const;
};

// Adds PATH... and the reading limits to a subcommand.
void AddInputOptions(CLI::App* command, InputOptions* options);

// Writes `content` to `path` (stdout for "" or "-"). A file is written to a
// temporary name and renamed, so a failure never leaves half a report.
Status WriteOutput(const std::string& path, const std::string& content);

// Prints "perfdx: error: ..." and returns the exit code for `status`.
int ReportError(const Status& status);

}  // namespace perfdx::cli
