// Pieces every perfdx subcommand shares: input options, output writing,
// turning a Status into a message and exit code.
#pragma once

#include <exception>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "perfdx/analysis/rank_analysis.h"
#include "perfdx/base/status.h"
#include "perfdx/formats/trace_loader.h"
#include "perfdx/pipeline/limits.h"

namespace perfdx::cli {

// The exit codes (README.md, "Exit codes"): a script can tell bad input from
// a bug in perfdx from a machine short of memory.
enum ExitCode : int {
  kExitOk = 0,
  kExitFinding = 1,      // a check found a regression, or a finding at/above --fail-on
  kExitBadInput = 2,     // bad input or usage
  kExitInternal = 3,     // a bug in perfdx (kInternal, or an exception that escaped)
  kExitOutOfMemory = 4,  // an allocation failed (kOutOfMemory, std::bad_alloc)
};

// Bounds of numeric flags (pipeline/limits.h, shared with the Python module).
using pipeline::kMaxCompressionRatio;
using pipeline::kMaxCount;
using pipeline::kMaxMinGapUs;
using pipeline::kMaxRank;
using pipeline::kMaxThreads;

struct InputOptions {
  std::vector<std::string> paths;
  uint64_t max_decompressed_bytes = uint64_t{16} << 30;
  double max_compression_ratio = 200.0;
  unsigned threads = 0;
  bool no_fast_path = false;

  std::string framework;  // --framework: pytorch, torch_npu, mindspore ("" detects)
  formats::LoadOptions ToLoadOptions() const;
};

// Numeric flag values, checked before conversion; a bad one is a usage error
// (exit 2) naming the flag and the value. CLI::Range and CLI::PositiveNumber
// let NaN through (it compares false), and a huge value overflows the integer
// it becomes (--min-gap-us 1e300).
//   FiniteNumber: from `min` (exclusive when `min_exclusive`) to `max`.
//   WholeNumber: an integer from `min` to `max`.
//   UnsignedSize: a byte count without a sign (CLI::AsSizeValue reads "-5" as 2^64 - 5).
CLI::Validator FiniteNumber(const std::string& flag, double min, double max,
                            bool min_exclusive = false);
CLI::Validator WholeNumber(const std::string& flag, int64_t min, int64_t max);
CLI::Validator UnsignedSize(const std::string& flag);

// --steps and --window, as every command that analyses traces takes them.
struct WindowOptions {
  std::string steps;  // "" every step
  std::string window = "steps";
};
void AddWindowOptions(CLI::App* command, WindowOptions* options);
// Sets `analysis`'s window and step range; a bad --steps is the error.
Status ApplyWindowOptions(const WindowOptions& options, analysis::AnalysisOptions* analysis);

// Adds PATH... and the reading limits to a subcommand.
void AddInputOptions(CLI::App* command, InputOptions* options);

// --format (one of `formats`, `help` naming them) and --json, its shorthand
// for --format json.
void AddFormatOptions(CLI::App* command, std::string* format,
                      const std::vector<std::string>& formats = {"text", "json"},
                      const std::string& help = "text or json");
// -o/--output FILE (written by io::OutputFile).
void AddOutputOption(CLI::App* command, std::string* output);

// Prints one line for `status` on stderr and returns its exit code:
// "perfdx: error: ..." (2), "perfdx: internal error: ... (please report)" (3),
// "perfdx: error: out of memory: ..." (4).
int ReportError(const Status& status);
// The same for an exception that reached main (std::bad_alloc: 4, others: 3).
int ReportException(const std::exception& e);

}  // namespace perfdx::cli
