// Finds where one JSON value ends, byte by byte, without building anything.
//
// This is the reference for event boundaries: the fast path (simdjson over
// whole chunks) is only an accelerator whose results must agree with it. The
// scanner is resumable, so a value split across buffer refills is scanned
// once. It checks bracket pairs up to `max_checked_depth` (so `{"a":[}` is an
// error at the `}` instead of swallowing the rest of the file) and beyond that
// only counts depth, so absurd nesting costs no memory and still ends where
// the value ends.
//
//   JsonScanner scanner;            // positioned at the value's first byte
//   size_t consumed = 0;
//   switch (scanner.Scan(buf, len, &consumed)) { ... }
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace perfdx::formats {

class JsonScanner {
 public:
  enum class Outcome {
    kComplete,  // the value ends at *consumed (one past its last byte)
    kNeedMore,  // all bytes consumed, value not finished: call again with more
    kError,     // not JSON at *consumed (mismatched bracket, stray byte)
  };

  explicit JsonScanner(size_t max_checked_depth = 1024) : max_checked_depth_(max_checked_depth) {}

  void Reset();
  // Scans data[0, size). `*consumed` is where the previous call stopped (0 on
  // the first call for this value) and is updated. Bytes before *consumed are
  // not looked at again.
  Outcome Scan(const char* data, size_t size, size_t* consumed);

 private:
  enum class State : uint8_t { kStart, kInString, kEscape, kInScalar, kInContainer };
  State state_ = State::kStart;
  State string_return_ = State::kInContainer;
  std::vector<char> stack_;       // '{' or '[' of the outermost levels
  uint64_t unchecked_depth_ = 0;  // levels nested beyond stack_
  size_t max_checked_depth_;
};

// True for the bytes that may start a JSON scalar (numbers and literals).
inline bool IsScalarStart(char c) {
  return c == '-' || (c >= '0' && c <= '9') || c == 't' || c == 'f' || c == 'n' || c == 'N' ||
         c == 'I';
}

inline bool IsJsonSpace(char c) {
  return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

}  // namespace perfdx::formats
