// In-place repair of text that must be valid UTF-8 before a strict JSON
// parser will take it. Lengths never change, so byte offsets stay true.
#pragma once

#include <cstddef>
#include <string_view>

namespace perfdx {

// Replaces every byte that is not part of a well-formed UTF-8 sequence
// (overlongs, surrogates and code points above U+10FFFF included) by
// `replacement`. Returns the number of bytes replaced.
size_t ReplaceInvalidUtf8(char* data, size_t size, char replacement);

// Replaces raw bytes below 0x20 inside JSON strings by spaces (JSON requires
// them escaped; Kineto has written raw newlines and tabs into names). Returns
// the number replaced.
size_t ReplaceControlCharsInStrings(char* data, size_t size);

// The longest prefix of `s` of at most `max_bytes` bytes that does not end
// inside a UTF-8 sequence (a name cut for display must stay valid text: the
// JSON writer would show the broken sequence as '?').
std::string_view Utf8Prefix(std::string_view s, size_t max_bytes);

}  // namespace perfdx
