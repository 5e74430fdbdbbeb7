// What `baseline save`, `check` and `diff` accept as a run, and how each
// becomes a RunRecord:
//   a trace (file or folder, as `perfdx analyze` reads)  analysed on the fly
//   an analyze JSON report (`{"ranks": ...`)              read (report_run.h)
//   a JSON-lines step log (*.jsonl, or step_time_* keys) read (step_log.h)
// Every record gets its provenance here: perfdx version, the input file's
// fingerprint, host name and host description, and the time of reading.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "perfdx/analysis/rank_analysis.h"
#include "perfdx/base/status.h"
#include "perfdx/baseline/record/run_record.h"
#include "perfdx/formats/trace_loader.h"

namespace perfdx::baseline {

enum class InputFormat : uint8_t { kTrace, kReport, kStepLog };
std::string_view InputFormatName(InputFormat format);

struct RunInputOptions {
  formats::LoadOptions load;
  analysis::AnalysisOptions analysis;
  std::optional<int64_t> rank;  // which rank of a multi-rank trace or report; default the first
  int64_t warmup_steps = 0;     // leading steps to drop (compilation, autotuning)
};

// Decides from the path and its first bytes; a folder is a trace.
Result<InputFormat> SniffInput(const std::string& path);

Result<RunRecord> LoadRunInput(const std::string& path, const RunInputOptions& options);

// "fnv1a64:<16 hex digits>" of the file's bytes (FNV-1a, 64 bit: stable
// across versions and machines, so equal fingerprints mean equal inputs).
Result<std::string> FingerprintFile(const std::string& path);

// This machine: {host name, "Linux 6.1.0 x86_64, 16 CPUs"}.
std::pair<std::string, std::string> DescribeHost();

}  // namespace perfdx::baseline
