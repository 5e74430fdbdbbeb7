// String helpers every stage uses. ASCII only: profiler names, categories
// and file names are ASCII, and std::tolower is a locale-aware call per byte.
// Prefix and suffix tests are std::string_view's starts_with / ends_with.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>

namespace perfdx {

constexpr char AsciiLower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c + ('a' - 'A')) : c;
}

inline std::string AsciiLower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = AsciiLower(c);
  return out;
}

// Text without the UTF-8 byte-order mark some editors (Windows Notepad,
// Excel's "UTF-8 CSV") put at its start; JSON and TOML parsers take it for a
// syntax error.
inline std::string_view SkipUtf8Bom(std::string_view s) {
  return s.starts_with("\xEF\xBB\xBF") ? s.substr(3) : s;
}

inline bool Contains(std::string_view s, std::string_view part) {
  return s.find(part) != std::string_view::npos;
}

inline bool EqualsNoCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return AsciiLower(x) == AsciiLower(y);
         });
}

inline bool StartsWithNoCase(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && EqualsNoCase(s.substr(0, prefix.size()), prefix);
}

}  // namespace perfdx
