// Adds events to a Chrome trace without touching the ones it has: the bytes
// are copied as they are, and the new events go at the end of the event
// array — the "traceEvents" array of the JSON object format, or the top-level
// array of the array format (Ascend's trace_view.json). `perfdx annotate`
// uses it, so that the original events stay byte for byte what the profiler
// wrote.
#pragma once

#include <string>
#include <string_view>

#include "perfdx/base/status.h"
#include "perfdx/io/byte_source.h"

namespace perfdx::formats {

// Appends to `out` the trace read from `in` with `events` (JSON objects
// separated by commas, no brackets; may be empty) added to its event array.
// Fails, naming the file and the byte offset, when the trace has no event
// array or ends before it is closed (a trace cut short cannot be completed
// without dropping its last event).
Status SpliceEvents(io::ByteSource& in, std::string_view events, std::string& out);

}  // namespace perfdx::formats
