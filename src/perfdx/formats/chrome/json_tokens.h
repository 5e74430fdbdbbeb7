// The structural tokens of one JSON text, walked directly (issue #13).
//
// simdjson's stage 1 finds every structural character and the first byte of
// every scalar and string; its On-Demand front end then walks them with a
// general iterator that checks depth, error state and consumption at every
// field (about 60 instructions a field, the largest part of decoding an
// event). The event decoder needs less: an object's fields in order, a
// field's key bytes, a value's first byte and its raw token, strings, and the
// text of an array. JsonTokens runs the same stage 1 (the active SIMD
// implementation, with its UTF-8 validation and unclosed-string check) and
// gives exactly that over the index. The implementation object is
// simdjson's internal API (public members of dom_parser_implementation, as
// of the 3.0 Debian packages); JsonTokensTest compares every walk with
// On-Demand's, the check to run on a simdjson upgrade.
//
// It mirrors what On-Demand makes of the same text, so that decoding does not
// depend on which one read it: a raw token runs to the next token's first
// byte (trailing whitespace included), a container's text to the first byte
// after it, a skipped value counts brackets of either kind, and a string is
// unescaped by the implementation's own parse_string. Where On-Demand would
// fail (a key that is not a string, a missing ':' or ',', a value starting
// with ':', ',', '}' or ']', the text ending inside a value) it fails too.
//
//   JsonTokens tokens;
//   if (tokens.Index(buf, len) != SUCCESS) ...   // buf readable to len + padding
//   simdjson::error_code error = simdjson::SUCCESS;
//   uint32_t end = tokens.ForEachField(
//       0, [&](const char* key, uint32_t value, uint32_t* value_end) { ... }, &error);
//   if (end == JsonTokens::kBad) ...             // error says why, where f did
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <simdjson.h>

#include "perfdx/formats/chrome/json_scanner.h"

namespace perfdx::formats {

// The first byte of a JSON number (On-Demand's json_type::number).
inline bool IsNumberStart(char c) {
  return c == '-' || static_cast<unsigned>(c - '0') <= 9;
}

class JsonTokens {
 public:
  // Returned for a token index where the text is not what was expected.
  static constexpr uint32_t kBad = 0;

  // Stage 1 over buf[0, len); buf must stay readable to len +
  // simdjson::SIMDJSON_PADDING, and alive while tokens and strings are used.
  // Strings decoded before the next Index stay valid until then.
  simdjson::error_code Index(const char* buf, size_t len);

  uint32_t count() const { return count_; }
  // The token's first byte and its offset in the text.
  char At(uint32_t k) const { return buf_[index_[k]]; }
  uint32_t Offset(uint32_t k) const { return index_[k]; }  // k <= count(): the length at count()
  const char* Ptr(uint32_t k) const { return buf_ + index_[k]; }

  // The bytes from token k (< count()) to the next token (trailing whitespace
  // included), as On-Demand's raw_json_token. Stage 1 puts the text's length
  // after the last token.
  std::string_view Token(uint32_t k) const {
    return {buf_ + index_[k], static_cast<size_t>(index_[k + 1] - index_[k])};
  }

  // The index just past the value at k (a whole container), or kBad.
  uint32_t Skip(uint32_t k) const {
    switch (ClassOf(At(k))) {
      case kScalar:
        return k + 1;
      case kOpen:
        return SkipContainer(k);
      default:
        return kBad;
    }
  }

  // The string at k, its escapes resolved: INCORRECT_TYPE if k is not a
  // string, STRING_ERROR for a bad escape.
  [[gnu::always_inline]] simdjson::error_code String(uint32_t k, std::string_view* out) {
    if (At(k) != '"') return simdjson::INCORRECT_TYPE;
    const char* begin = Ptr(k) + 1;
    // The closing quote is the last byte before the next token that is not
    // whitespace (stage 1 rejected an unclosed string).
    const char* end = buf_ + index_[k + 1];
    while (IsJsonSpace(end[-1])) --end;
    --end;
    const size_t n = static_cast<size_t>(end - begin);
    if (!HasBackslash(begin, n)) {
      *out = {begin, n};
      return simdjson::SUCCESS;
    }
    return Unescape(begin, out);
  }

  // Calls f(key, value, &value_end) for each field of the object whose '{'
  // is token k: `key` is the key's text after its opening quote (escapes not
  // resolved, its closing quote after it), `value` the value's first token.
  // f returns an error code to stop; it sets *value_end to the index past the
  // value when it walked a container itself, or leaves it kBad to have it
  // skipped. Returns the index past the object's '}', or kBad.
  template <typename F>
  uint32_t ForEachField(uint32_t k, F&& f, simdjson::error_code* error) {
    // In registers across f, which stores through pointers the compiler
    // cannot tell from these members.
    const char* const buf = buf_;
    const uint32_t* const index = index_;
    const uint32_t count = count_;
    ++k;
    if (k < count && buf[index[k]] == '}') return k + 1;
    for (;;) {
      if (k + 2 >= count || buf[index[k]] != '"' || buf[index[k + 1]] != ':') return kBad;
      const uint32_t value = k + 2;
      const TokenClass value_class = ClassOf(buf[index[value]]);
      if (value_class == kNotAValue) return kBad;
      uint32_t end = kBad;
      if (auto e = f(buf + index[k] + 1, value, &end)) {
        *error = e;
        return kBad;
      }
      if (end == kBad) end = value_class == kScalar ? value + 1 : SkipContainer(value);
      if (end >= count) return kBad;  // kBad is 0, below any value's end
      const char c = buf[index[end]];
      if (c == '}') return end + 1;
      if (c != ',') return kBad;
      k = end + 1;
    }
  }

 private:
  // What a value's first byte makes it: a string or a scalar (one token), a
  // container, or no value (',', ':', '}', ']': On-Demand fails there).
  enum TokenClass : uint8_t { kScalar, kOpen, kNotAValue };
  static TokenClass ClassOf(char c) { return kClasses[static_cast<unsigned char>(c)]; }
  static constexpr auto kClasses = [] {
    std::array<TokenClass, 256> classes{};  // kScalar
    classes['{'] = classes['['] = kOpen;
    classes[','] = classes[':'] = classes['}'] = classes[']'] = kNotAValue;
    return classes;
  }();

  // Past the container whose first token is k, counting brackets of either
  // kind as On-Demand's skip does; kBad if the text ends inside it.
  uint32_t SkipContainer(uint32_t k) const {
    int64_t depth = 1;
    for (++k; k < count_; ++k) {
      depth += kDepthChange[static_cast<unsigned char>(At(k))];
      if (depth == 0) return k + 1;
    }
    return kBad;
  }
  static constexpr auto kDepthChange = [] {
    std::array<int8_t, 256> change{};
    change['{'] = change['['] = 1;
    change['}'] = change[']'] = -1;
    return change;
  }();

  simdjson::error_code Unescape(const char* begin, std::string_view* out);

  // Whether s[0, n) holds a '\\', 16 bytes at a time without a call (memchr
  // was a call for every string of every event). Reads up to 15 bytes past
  // the string: its closing quote and the text's padding are there.
  static bool HasBackslash(const char* s, size_t n) {
#if defined(__SSE2__)
    const __m128i backslash = _mm_set1_epi8('\\');
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
      const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i));
      if (_mm_movemask_epi8(_mm_cmpeq_epi8(bytes, backslash)) != 0) return true;
    }
    if (i == n) return false;
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i));
    const auto found = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(bytes, backslash)));
    return (found & ((1u << (n - i)) - 1)) != 0;
#else
    return std::memchr(s, '\\', n) != nullptr;
#endif
  }

  std::unique_ptr<simdjson::internal::dom_parser_implementation> stage1_;
  const char* buf_ = nullptr;
  size_t len_ = 0;
  const uint32_t* index_ = nullptr;
  uint32_t count_ = 0;
  // Unescaped strings of the current text, end to end.
  std::unique_ptr<char[]> strings_;
  size_t strings_capacity_ = 0;
  size_t strings_used_ = 0;
};

}  // namespace perfdx::formats
