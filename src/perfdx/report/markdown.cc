#include "perfdx/report/markdown.h"

#include <algorithm>

#include "perfdx/report/text_layout.h"

namespace perfdx::report {

std::string MdCell(std::string_view s) {
  std::string out;
  // Control characters as spaces: a newline would end the row.
  for (char c : Printable(s)) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

std::string MdText(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '*':
      case '_':
      case '`':
      case '[':
      case ']':
      case '\\':
        out += '\\';
        out += c;
        break;
      default:
        out += c;
    }
  }
  return MdCell(out);
}

std::string MdCode(std::string_view s) {
  // The longest run of backticks inside sets the fence.
  size_t run = 0;
  size_t longest = 0;
  for (char c : s) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  const std::string fence(longest + 1, '`');
  const bool pad = !s.empty() && (s.front() == '`' || s.back() == '`');
  std::string body = MdCell(s);
  return fence + (pad ? " " : "") + body + (pad ? " " : "") + fence;
}

}  // namespace perfdx::report
