// A fast, non-cryptographic 64-bit hash for interning short strings (names,
// categories, argument values). Reads 8 bytes at a time; quality is enough for
// open-addressing tables, and it is not exposed across process boundaries.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

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

}  // namespace perfdx
