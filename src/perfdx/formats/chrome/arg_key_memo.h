// Which arg key a key's text is, remembered per kind of event and position.
//
// A profiler writes the args of every event of a kind in the same order
// (Kineto: a kernel's "queued", "device", "context", "stream", ...), and
// identifying a key from its text (finding its closing quote, hashing it,
// probing model::LookupArgKey's table) cost about 100 instructions a key,
// the largest part of decoding args (issue #13; docs/PERFORMANCE.md). The
// memo keeps, for each row (a hash of the event's phase and category) and
// position in the args object, the spelling last seen there and what the
// table made of it; a key whose bytes are that spelling followed by its
// closing quote is identified by one comparison. A miss costs that
// comparison on top of the lookup, and a collision of two kinds in a row only
// costs misses: what a key is comes from its own bytes, never from the row.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "perfdx/model/arg_key.h"

namespace perfdx::formats {

class ArgKeyMemo {
 public:
  // A key's spelling as written (escapes not resolved, the text before its
  // closing quote) and whether the table keeps it, and as which key.
  // Uninitialised by default: Match or the lookup sets every member (the
  // stores of default values cost each arg of each event).
  struct Identified {
    std::string_view spelling;
    bool known;
    model::ArgKey key;
  };

  static constexpr unsigned kRowBits = 5;
  static constexpr size_t kRows = size_t{1} << kRowBits;
  static constexpr size_t kPositions = 16;    // later positions are not kept
  static constexpr size_t kMaxSpelling = 31;  // nor longer spellings

  // The row of an event's args by its phase and category as decoded so far
  // (both may be empty: a category written after "args"). The kinds of
  // events one Kineto version writes fall in rows of their own
  // (arg_key_memo_test).
  static size_t RowOf(std::string_view phase, std::string_view category) {
    uint64_t h = category.size();
    if (!phase.empty()) h ^= uint64_t{static_cast<unsigned char>(phase[0])} << 8;
    if (!category.empty()) {
      h ^= uint64_t{static_cast<unsigned char>(category.front())} << 16 ^
           uint64_t { static_cast<unsigned char>(category.back()) } << 24 ^
           uint64_t { static_cast<unsigned char>(category[category.size() / 2]) } << 32;
    }
    return static_cast<size_t>((h * 0x9E3779B97F4A7C15ULL) >> (64 - kRowBits));
  }

  // True, with *out, when `raw` (a key's text after its opening quote, in a
  // buffer readable 32 bytes past it, as simdjson's padding makes the
  // document) is the spelling remembered at (row, position) followed by its
  // closing quote.
  bool Match(size_t row, size_t position, const char* raw, Identified* out) const {
    if (position >= kPositions) return false;
    const Entry& e = entries_[row][position];
    uint64_t diff = (Load(raw) ^ e.words[0]) & e.masks[0];
    diff |= (Load(raw + 8) ^ e.words[1]) & e.masks[1];
    if (e.length >= 16) {  // the spelling and its quote run past 16 bytes
      diff |= (Load(raw + 16) ^ e.words[2]) & e.masks[2];
      diff |= (Load(raw + 24) ^ e.words[3]) & e.masks[3];
    }
    if (diff != 0 || e.length == 0) return false;
    *out = {std::string_view(raw, e.length), e.known, e.key};
    return true;
  }

  void Remember(size_t row, size_t position, const Identified& id) {
    const size_t n = id.spelling.size();
    if (position >= kPositions || n == 0 || n > kMaxSpelling) return;
    Entry& e = entries_[row][position];
    char text[kWords * 8] = {};
    std::memcpy(text, id.spelling.data(), n);
    text[n] = '"';
    for (size_t w = 0; w < kWords; ++w) {
      e.words[w] = Load(text + 8 * w);
      // The bytes of the spelling and its quote, n + 1 of them.
      const size_t bytes = std::min<size_t>(8, n + 1 > 8 * w ? n + 1 - 8 * w : 0);
      e.masks[w] = bytes == 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * bytes)) - 1;
    }
    e.length = static_cast<uint8_t>(n);
    e.known = id.known;
    e.key = id.key;
  }

 private:
  static constexpr size_t kWords = 4;  // the spelling and its quote, 32 bytes at most
  static_assert(kMaxSpelling < kWords * 8);

  static uint64_t Load(const char* p) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    return w;
  }

  struct Entry {
    uint64_t words[kWords] = {};
    uint64_t masks[kWords] = {};  // all zero: nothing remembered (length 0)
    uint8_t length = 0;
    bool known = false;
    model::ArgKey key = model::ArgKey::kCount;
  };
  std::array<std::array<Entry, kPositions>, kRows> entries_{};
};

}  // namespace perfdx::formats
