// "What is this path?" — turns the paths a user typed into trace inputs.
//
//   trace.json[.gz|.zst]            one Chrome trace file (Kineto, legacy, Ascend)
//   run/ (rank-0.json.gz, ...)      every trace file below it, one per rank
//   rank0_ascend_pt/, *_ascend_ms/  ASCEND_PROFILER_OUTPUT/trace_view.json, rank
//                                   from profiler_info_{rank}.json
//   a folder of any of these        all of them
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
};

struct TraceInput {
  InputKind kind = InputKind::kChromeTraceFile;
  std::string trace_path;    // the file whose events are read
  std::string profile_dir;   // the *_ascend_pt / *_ascend_ms folder, if any
  std::optional<int64_t> rank_hint;  // from file or folder names, profiler_info
  std::string framework;     // "torch_npu" / "mindspore" for Ascend folders
};

struct Discovery {
  std::vector<TraceInput> inputs;
  std::vector<std::string> warnings;  // things found but not readable as traces
};

// Paths the user named explicitly are always returned (a wrong file is then an
// error when it is read); files met while walking folders are returned only
// when their names and first bytes look like traces.
Result<Discovery> DiscoverInputs(const std::vector<std::string>& paths);

// rank-3.json.gz, rank_3, rank3.pt.trace.json -> 3
std::optional<int64_t> RankFromFileName(const std::string& name);

}  // namespace perfdx::io
