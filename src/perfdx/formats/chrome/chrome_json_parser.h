// Streaming reader for the Chrome trace event format (the JSON written by
// PyTorch Kineto, torch.autograd.profiler, torch_npu and MindSpore).
//
// The file is read in chunks and never held whole. Within a chunk, complete
// events are indexed by simdjson's stage 1 as one array and their tokens
// walked (JsonTokens; the fast path). Where
// that fails — a malformed event, invalid UTF-8, a chunk cut in the wrong
// place — the affected events are re-read one at a time with an exact byte
// scanner (JsonScanner) and, if needed, repaired or skipped. Both paths
// produce the same events; tests run both.
//
// Accepted: {"traceEvents": [...], ...} with other keys before or after the
// array, a bare array with or without its closing ']', trailing commas, a UTF-8
// BOM. Errors (returned Status) only for input that is not a trace at all; a
// damaged event is reported to the sink and skipped.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "perfdx/base/status.h"
#include "perfdx/io/byte_source.h"
#include "perfdx/model/trace_builder.h"

namespace perfdx::formats {

struct ChromeJsonOptions {
  // Small enough that the chunk, simdjson's index of it and the bytes in
  // flight stay a few MiB beside the model (peak RSS of a 33 MB trace: 0.64x
  // its size with 8 MiB chunks, 0.48x with these); no slower on the 1 GB
  // trace, where the per-chunk costs are noise. 1 MiB was tried (2026-12-07):
  // ISA-L copies its 32 KiB window once per call, so 2.3 M instructions
  // fewer on ResNet-50's .gz, but 2 threads took 7% longer on 35 MB traces.
  size_t chunk_bytes = size_t{512} << 10;
  // A single event larger than this is skipped (counted as event_too_large).
  size_t max_event_bytes = size_t{64} << 20;
  // Top-level values other than the event array (deviceProperties, ...).
  size_t max_top_level_value_bytes = size_t{16} << 20;
  // Off: every event goes through the exact scalar path (tests, debugging).
  bool fast_path = true;
  // Threads that decode the fast path's chunks (1: the reader's own). With
  // more, the chunks past the first `parallel_after_bytes` are decoded ahead,
  // each in its own buffer by its own parser, and handed to the sink in file
  // order on the calling thread: the sink sees the same calls, in the same
  // order, as with one thread and the same chunk_bytes. Below
  // the threshold a trace pays for none of the extra buffers (a trace of
  // 30-60 MB keeps its peak RSS under half its size; it loads in 50 ms).
  unsigned decode_threads = 1;
  uint64_t parallel_after_bytes = uint64_t{64} << 20;
  // About how much JSON the input holds, when its size is known (0: not).
  // As much as `parallel_after_bytes` or more: decoding ahead starts at the
  // first chunk, not past the threshold (the threshold's first 64 MiB were
  // decoded on one thread: 6% of a 1 GB trace).
  uint64_t expected_bytes = 0;
};

// Keys of the top-level object other than "traceEvents".
struct TraceEnvelope {
  bool object_form = false;
  bool has_schema_version = false;
  std::optional<int64_t> rank;
  std::optional<int64_t> world_size;
  std::string backend;
  std::optional<int64_t> base_time_ns;
  std::string display_time_unit;
  std::vector<model::DeviceProperties> devices;
};

class ChromeEventSink {
 public:
  virtual ~ChromeEventSink() = default;
  virtual void OnEvent(model::RawEvent& event) = 0;
  // An element of the event array that could not be decoded.
  virtual void OnBadEvent(model::LoadStat why) = 0;
  // Repairs and other notes that do not drop an event.
  virtual void OnStat(model::LoadStat stat) = 0;
  virtual void OnWarning(std::string message) = 0;
};

Status ParseChromeJson(io::ByteSource& source, const ChromeJsonOptions& options,
                       ChromeEventSink& sink, TraceEnvelope* envelope);

}  // namespace perfdx::formats
