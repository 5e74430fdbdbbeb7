// Loading: from what the user typed to one model::Trace per rank.
//
//   LoadOptions options;
//   PERFDX_ASSIGN_OR_RETURN(LoadedTraces loaded, LoadTraces({"run/"}, options));
//
// Inputs are imported in parallel (one thread each, up to `threads`). An input
// that cannot be read at all (bad bytes, a missing or unreadable file, a limit)
// is skipped with a warning naming the file and byte offset, and the others
// are loaded; only when no input can be read does the load fail with that
// Status. Out of memory and internal errors fail the whole load. Damage
// inside a file is recorded in its load stats.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "perfdx/base/status.h"
#include "perfdx/formats/chrome/chrome_json_parser.h"
#include "perfdx/io/byte_source.h"
#include "perfdx/io/discovery.h"
#include "perfdx/model/trace.h"

namespace perfdx::formats {

// How far a load has come, for a front end's progress bar (the library
// prints nothing).
struct LoadProgress {
  size_t input = 0;          // the input's index, in discovery order
  size_t inputs = 0;         // how many inputs the load reads
  std::string_view path;     // the input's trace file or folder
  uint64_t bytes_read = 0;   // of its trace files as stored (compressed bytes for gzip/zstd)
  uint64_t bytes_total = 0;  // their size; 0 when unknown (standard input, a DB export)
  bool done = false;         // the input is loaded, or skipped
};
// Bytes of an input read between two progress calls.
inline constexpr uint64_t kProgressBytes = uint64_t{4} << 20;

struct LoadOptions {
  io::ReadLimits limits;
  ChromeJsonOptions json;
  unsigned threads = 0;  // 0: one per hardware thread
  // --framework: replaces the detected framework of every rank.
  std::optional<model::Framework> framework;
  // Optional: called as an input's Chrome trace files are read (at most once
  // per kProgressBytes) and once when each input is done. Called from the
  // loader threads, several at once: it must be thread-safe, and cheap.
  std::function<void(const LoadProgress&)> progress;
};

struct LoadedTraces {
  std::vector<model::Trace> traces;   // ordered by rank, then path
  std::vector<std::string> warnings;  // discovery notes, inputs skipped (one line each)
  std::vector<Status> failed;         // the inputs skipped, in discovery order
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

// Runs one import and turns an exception into a Status naming `path`:
// std::bad_alloc becomes kOutOfMemory, any other exception kInternal. Each
// loader thread imports through it, since an exception escaping a std::thread
// terminates the process.
Result<model::Trace> ImportGuarded(const std::string& path,
                                   const std::function<Result<model::Trace>()>& import);

Result<LoadedTraces> LoadTraces(const std::vector<std::string>& paths, const LoadOptions& options);

// Loading where each trace is handed on as soon as it is imported, so that
// memory is bounded by the traces in flight (one per loader thread), not by
// the inputs: `consume` runs on the loader thread, for several inputs at
// once, owns the trace and keeps what it needs of it (into a slot of its own
// per input). A Status it returns is the input's, as an import error is (an
// input error skips the input with a warning, any other fails the load); an
// exception it throws becomes a Status, as in ImportGuarded. `threads` is
// how many threads this input may use (its loader thread among them): more
// than one where there are fewer inputs than threads.
using TraceConsumer = std::function<Status(size_t input, model::Trace trace, unsigned threads)>;
struct LoadOutcome {
  std::vector<size_t> consumed;       // the inputs handed on, ordered by rank, then discovery order
  std::vector<std::string> warnings;  // as LoadedTraces::warnings
  std::vector<Status> failed;         // as LoadedTraces::failed
};
Result<LoadOutcome> LoadEachTrace(const std::vector<std::string>& paths, const LoadOptions& options,
                                  const TraceConsumer& consume);

// LoadEachTrace with each trace reduced, on its loader thread, to what the
// caller keeps of it: `reduce` is Result<T>(model::Trace, unsigned threads)
// (an error counts as the input's, as above); the reductions come back ordered by rank, then
// discovery order.
template <typename T>
struct Reduced {
  std::vector<T> items;
  std::vector<std::string> warnings;  // as LoadedTraces::warnings
  std::vector<Status> failed;         // as LoadedTraces::failed
};
template <typename T, typename Reduce>
Result<Reduced<T>> LoadReduced(const std::vector<std::string>& paths, const LoadOptions& options,
                               const Reduce& reduce) {
  std::map<size_t, T> by_input;
  std::mutex by_input_mutex;
  PERFDX_ASSIGN_OR_RETURN(
      LoadOutcome outcome,
      LoadEachTrace(paths, options, [&](size_t i, model::Trace trace, unsigned threads) -> Status {
        PERFDX_ASSIGN_OR_RETURN(T item, reduce(std::move(trace), threads));
        std::lock_guard<std::mutex> lock(by_input_mutex);
        by_input.emplace(i, std::move(item));
        return Status::Ok();
      }));
  Reduced<T> out;
  out.warnings = std::move(outcome.warnings);
  out.failed = std::move(outcome.failed);
  for (size_t i : outcome.consumed) out.items.push_back(std::move(by_input.at(i)));
  return out;
}

}  // namespace perfdx::formats
