// A fast, non-cryptographic 64-bit hash for interning short strings (names,
// categories, argument values). Reads 8 bytes at a time; quality is enough for
// open-addressing tables, and it is not exposed across process boundaries.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <type_traits>

namespace perfdx {

inline uint64_t HashMix(uint64_t x) {
  x ^= x >> 32;
  x *= 0xd6e8feb86659fd93ULL;
  x ^= x >> 32;
  x *= 0xd6e8feb86659fd93ULL;
  x ^= x >> 32;
  return x;
}

inline uint64_t HashBytes(std::string_view s) {
  constexpr uint64_t kMul = 0x9e3779b97f4a7c15ULL;
  uint64_t h = 0x243f6a8885a308d3ULL ^ (s.size() * kMul);
  const char* p = s.data();
  size_t n = s.size();
  while (n >= 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    h = (h ^ w) * kMul;
    h ^= h >> 29;
    p += 8;
    n -= 8;
  }
  if (n > 0) {
    uint64_t w = 0;
    std::memcpy(&w, p, n);
    h = (h ^ w) * kMul;
  }
  return HashMix(h);
}

// A string of up to 16 bytes as two words: its first and last eight bytes
// (overlapping), its first and last four when shorter, its first, middle and
// last byte below four. With the length known, equal words are equal text,
// and the words are read with a few loads whatever the length.
struct ShortWords {
  uint64_t head = 0;
  uint64_t tail = 0;
  friend bool operator==(const ShortWords&, const ShortWords&) = default;
};
inline constexpr size_t kShortWordsMaxBytes = 16;

// `bytes` (up to 8) bytes from p, the first the lowest: one load at run time,
// and a constant expression too (GCC does not merge the byte loop's loads).
constexpr uint64_t LoadLittleEndian(const char* p, size_t bytes) {
  uint64_t w = 0;
  if constexpr (std::endian::native == std::endian::little) {
    if (!std::is_constant_evaluated()) {
      std::memcpy(&w, p, bytes);
      return w;
    }
  }
  for (size_t i = 0; i < bytes; ++i) w |= uint64_t{static_cast<uint8_t>(p[i])} << (8 * i);
  return w;
}

// Longer text gives its first and last eight bytes, which only tell it
// apart from text of its length with a compare of the middle too.
constexpr ShortWords ShortWordsOf(std::string_view s) {
  ShortWords w;
  const char* p = s.data();
  const size_t n = s.size();
  if (n >= 8) {
    w.head = LoadLittleEndian(p, 8);
    w.tail = LoadLittleEndian(p + n - 8, 8);
  } else if (n >= 4) {
    w.head = LoadLittleEndian(p, 4) | (LoadLittleEndian(p + n - 4, 4) << 32);
  } else if (n > 0) {
    w.head = uint64_t{static_cast<uint8_t>(p[0])} |
             (uint64_t{static_cast<uint8_t>(p[n / 2])} << 8) |
             (uint64_t{static_cast<uint8_t>(p[n - 1])} << 16);
  }
  return w;
}

// A slot for (words, length) in a table of 2^bits slots.
constexpr size_t ShortWordsSlot(const ShortWords& w, size_t length, unsigned bits) {
  const uint64_t h = (w.head ^ (w.tail * 0x9e3779b97f4a7c15ULL) ^ length) * 0xff51afd7ed558ccdULL;
  return static_cast<size_t>(h >> (64 - bits));
}

}  // namespace perfdx
