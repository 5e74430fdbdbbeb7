#include "perfdx/base/utf8.h"

#include <cstdint>

namespace perfdx {

size_t ReplaceInvalidUtf8(char* data, size_t size, char replacement) {
  auto* s = reinterpret_cast<unsigned char*>(data);
  size_t replaced = 0;
  size_t i = 0;
  while (i < size) {
    const unsigned char c = s[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    size_t len = 0;
    uint32_t min = 0;
    uint32_t cp = 0;
    if (c >= 0xC2 && c <= 0xDF) {
      len = 2, min = 0x80, cp = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
      len = 3, min = 0x800, cp = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      len = 4, min = 0x10000, cp = c & 0x07;
    }
    bool ok = len != 0 && i + len <= size;
    for (size_t k = 1; ok && k < len; ++k) {
      if ((s[i + k] & 0xC0) != 0x80) ok = false;
      cp = (cp << 6) | (s[i + k] & 0x3F);
    }
    if (ok && (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))) ok = false;
    if (ok) {
      i += len;
    } else {
      s[i] = static_cast<unsigned char>(replacement);
      ++replaced;
      ++i;
    }
  }
  return replaced;
}

size_t ReplaceControlCharsInStrings(char* data, size_t size) {
  size_t replaced = 0;
  bool in_string = false;
  for (size_t i = 0; i < size; ++i) {
    const char c = data[i];
    if (!in_string) {
      in_string = c == '"';
      continue;
    }
    if (c == '\\') {
      ++i;  // the escaped byte cannot end the string
      if (i < size && static_cast<unsigned char>(data[i]) < 0x20) {
        data[i] = ' ';
        ++replaced;
      }
    } else if (c == '"') {
      in_string = false;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      data[i] = ' ';
      ++replaced;
    }
  }
  return replaced;
}

std::string_view Utf8Prefix(std::string_view s, size_t max_bytes) {
  if (s.size() <= max_bytes) return s;
  // s[n] is the first byte left out: while it continues a sequence, that
  // sequence started inside the prefix and goes too. A sequence is at most
  // four bytes, so at most three steps back (more continuation bytes are not
  // UTF-8 and are left to ReplaceInvalidUtf8).
  size_t n = max_bytes;
  for (int step = 0; step < 3 && n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80;
       ++step) {
    --n;
  }
  return s.substr(0, n);
}

}  // namespace perfdx
