#include "perfdx/formats/chrome/trace_splice.h"

#include <cstdint>
#include <memory>

#include <fmt/format.h>

namespace perfdx::formats {
namespace {

constexpr size_t kChunkBytes = 1 << 20;
constexpr std::string_view kEventsKey = "traceEvents";

bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

// A byte-level walk of the JSON structure: strings (with escapes) and
// nesting, enough to find where the event array closes. Values are not
// validated: the importer judges the events; this only has to find the
// bracket that ends their array.
class Splicer {
 public:
  Splicer(std::string_view events, std::string& out) : events_(events), out_(out) {}

  // Consumes one chunk; `offset` is the byte offset of its first byte.
  Status Feed(const char* data, size_t size, uint64_t offset, const std::string& path) {
    size_t copied = 0;
    for (size_t i = 0; i < size; ++i) {
      const char c = data[i];
      if (in_string_) {
        if (escape_) {
          escape_ = false;
        } else if (c == '\\') {
          escape_ = true;
        } else if (c == '"') {
          in_string_ = false;
        } else if (depth_ == 1 && key_.size() <= kEventsKey.size()) {
          key_ += c;
        }
        continue;
      }
      if (IsSpace(c)) continue;
      if (!started_) {
        started_ = true;
        if (c == '[') {
          array_depth_ = 1;  // the array format: the whole document is the array
        } else if (c != '{' && !(c == '\xEF' || c == '\xBB' || c == '\xBF')) {
          return InvalidInput(fmt::format("{}: at byte {}: not a JSON trace", path, offset + i));
        } else if (c != '{') {
          started_ = false;  // a UTF-8 byte-order mark
          continue;
        }
      }
      if (array_depth_ > 0 && depth_ >= array_depth_ && c != ']') has_events_ = true;
      switch (c) {
        case '"':
          in_string_ = true;
          if (depth_ == 1) key_.clear();
          break;
        case ':':
          if (depth_ == 1) after_key_ = key_ == kEventsKey;
          break;
        case '[':
        case '{':
          ++depth_;
          if (c == '[' && depth_ == 2 && after_key_ && array_depth_ == 0) array_depth_ = 2;
          after_key_ = false;
          break;
        case ']':
        case '}':
          if (c == ']' && depth_ == array_depth_ && !done_) {
            // The event array closes here: copy up to it, add the events.
            out_.append(data + copied, i - copied);
            copied = i;
            if (!events_.empty()) {
              if (has_events_) out_ += ',';
              out_ += '\n';
              out_.append(events_);
              out_ += '\n';
            }
            done_ = true;
          }
          --depth_;
          break;
        case ',':
          if (depth_ == 1) after_key_ = false;
          break;
        default:
          break;
      }
    }
    out_.append(data + copied, size - copied);
    return Status::Ok();
  }

  bool done() const { return done_; }
  bool found_array() const { return array_depth_ > 0; }

 private:
  std::string_view events_;
  std::string& out_;
  bool started_ = false;
  bool in_string_ = false;
  bool escape_ = false;
  int64_t depth_ = 0;
  int64_t array_depth_ = 0;  // the depth inside the event array; 0 until found
  bool after_key_ = false;   // the value being read is that of "traceEvents"
  bool has_events_ = false;
  bool done_ = false;
  std::string key_;  // the last string read at depth 1 (its first bytes)
};

}  // namespace

Status SpliceEvents(io::ByteSource& in, std::string_view events, std::string& out) {
  Splicer splicer(events, out);
  // Not zero-filled: every byte read is written first.
  const auto chunk = std::make_unique_for_overwrite<char[]>(kChunkBytes);
  uint64_t offset = 0;
  for (;;) {
    PERFDX_ASSIGN_OR_RETURN(const size_t n, in.Read(chunk.get(), kChunkBytes));
    if (n == 0) break;
    PERFDX_RETURN_IF_ERROR(splicer.Feed(chunk.get(), n, offset, in.path()));
    offset += n;
  }
  // A stream that could not be read to its end (corrupt or cut compressed
  // data) cannot come back whole: its tail would be dropped without a word,
  // even where the event array closed before it. How much such a stream
  // yields also depends on the sizes it is read in (the fuzzer found a zstd
  // stream giving 2.00 MiB to one reader and 2.25 MiB to another).
  if (in.truncated()) {
    return InvalidInput(fmt::format("{}: at byte {}: {}; the trace cannot be written back whole",
                                    in.path(), offset, in.truncation()));
  }
  if (!splicer.done()) {
    if (!splicer.found_array()) {
      return InvalidInput(
          fmt::format("{}: at byte {}: no \"traceEvents\" array in this trace", in.path(), offset));
    }
    return InvalidInput(
        fmt::format("{}: at byte {}: the file ends before its event array is closed (a trace cut "
                    "short: its last event cannot be kept whole)",
                    in.path(), offset));
  }
  return Status::Ok();
}

}  // namespace perfdx::formats
