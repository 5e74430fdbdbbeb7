// Loading: from what the user typed to one model::Trace per rank.
//
//   LoadOptions options;
//   PERFDX_ASSIGN_OR_RETURN(LoadedTraces loaded, LoadTraces({"run/"}, options));
//
// Inputs are imported in parallel (one thread each, up to `threads`). A file
// that cannot be read at all fails the whole load with a Status naming the
// file and byte offset; damage inside a file is recorded in its load stats.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "perfdx/base/status.h"
#include "perfdx/formats/chrome_json_parser.h"
#include "perfdx/io/byte_source.h"
#include "perfdx/io/discovery.h"
#include "perfdx/model/trace.h"

namespace perfdx::formats {

struct LoadOptions {
  io::ReadLimits limits;
  ChromeJsonOptions json;
  unsigned threads = 0;  // 0: one per hardware thread
  // --framework: replaces the detected framework of every rank.
  std::optional<model::Framework> framework;
};

struct LoadedTraces {
  std::vector<model::Trace> traces;   // ordered by rank, then path
  std::vector<std::string> warnings;  // discovery notes (files skipped)
};

// Imports one Chrome trace event file (Kineto, legacy PyTorch, Ascend
// trace_view), and input.more_trace_paths into the same trace (msprof
// slices). The timeline only: no Ascend side files.
Result<model::Trace> ImportChromeTrace(const io::TraceInput& input, const LoadOptions& options);

// Imports one discovered input by its kind: a Chrome trace file; an Ascend
// profile folder (trace_view.json plus its side files into Trace::ascend);
// an Ascend DB export; an msprof PROF_* folder (msprof_*.json plus
// op_summary_*.csv); a kernel_details.csv / op_summary_*.csv alone (its
// device tasks).
Result<model::Trace> ImportInput(const io::TraceInput& input, const LoadOptions& options);
// The same from an already open source (in-memory inputs, tests).
Result<model::Trace> ImportChromeTraceFrom(io::ByteSource& source, const io::TraceInput& input,
                                           const ChromeJsonOptions& options);

Result<LoadedTraces> LoadTraces(const std::vector<std::string>& paths, const LoadOptions& options);

}  // namespace perfdx::formats
