// "What is this path?" — turns the paths a user typed into trace inputs.
//
//   trace.json[.gz|.zst]            one Chrome trace file (Kineto, legacy, Ascend)
//   run/ (rank-0.json.gz, ...)      every trace file below it, one per rank
//   rank0_ascend_pt/, *_ascend_ms/  ASCEND_PROFILER_OUTPUT/trace_view.json and its
//                                   side files; without trace_view.json (DB export)
//                                   ascend_{pytorch,mindspore}_profiler_{rank}.db;
//                                   rank from profiler_info_{rank}.json
//   PROF_*/ (msprof)                mindstudio_profiler_output/msprof_*.json and
//                                   op_summary_*.csv; rank from device_*/info.json.*
//   kernel_details.csv, op_summary_*.csv (any .csv named directly)
//                                   a kernel-only trace: the device tasks of the
//                                   table's rows, no host side
//   a folder of any of these        all of them
//   -                               a Chrome trace (gzip/zstd by content) on
//                                   standard input, named <stdin>
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "perfdx/base/status.h"

namespace perfdx::io {

enum class InputKind {
  kChromeTraceFile,  // a Chrome trace event JSON file
  kAscendProfile,    // a torch_npu / MindSpore profile folder (its trace_view.json)
  kAscendDb,         // a torch_npu / MindSpore DB export (ascend_*_profiler_{rank}.db)
  kMsprofProfile,    // an msprof PROF_* folder (mindstudio_profiler_output/msprof_*.json)
  kAscendKernelCsv,  // a kernel_details.csv / op_summary_*.csv named directly: device tasks only
};

struct TraceInput {
  InputKind kind = InputKind::kChromeTraceFile;
  std::string trace_path;  // the file whose events are read (.json, or the .db)
  // Further files of the same timeline (msprof_slice_1_*.json, ...).
  std::vector<std::string> more_trace_paths;
  std::string profile_dir;           // the *_ascend_pt / *_ascend_ms / PROF_* folder, if any
  std::optional<int64_t> rank_hint;  // from file or folder names, profiler_info
  std::string framework;             // "torch_npu" / "mindspore" / "msprof" for Ascend folders
  // `-`: the trace is read from standard input (trace_path is "<stdin>").
  bool from_stdin = false;
};

struct Discovery {
  std::vector<TraceInput> inputs;
  std::vector<std::string> warnings;  // things found but not readable as traces
};

// Bounds on a folder walk (docs/RELIABILITY.md).
struct DiscoveryLimits {
  int max_depth = 4;             // folders below a named one that are searched
  size_t max_entries = 100'000;  // folder entries looked at per named folder
};

// Paths the user named explicitly are always returned (a wrong file is then an
// error when it is read); files met while walking folders are returned only
// when their names and first bytes look like traces. Only regular files and
// folders are read: a pipe, socket or device named is an error, one met while
// walking is skipped with a warning. Walks do not follow links to folders, and
// a file or folder reached twice (two names, a link) is one input, with a warning.
Result<Discovery> DiscoverInputs(const std::vector<std::string>& paths,
                                 const DiscoveryLimits& limits = {});

// rank-3.json.gz, rank_3, rank3.pt.trace.json -> 3
std::optional<int64_t> RankFromFileName(const std::string& name);

}  // namespace perfdx::io
