#include "perfdx/report/markdown.h"

#include <algorithm>

namespace perfdx::report {

std::string MdCell(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '|') {
      out += "\\|";
    } else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) {
      out += ' ';  // a newline would end the row; other controls mean nothing here
    } else {
      out += c;
    }
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

std::string HtmlText(std::string_view s) {
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
      case '"':
        out += "&quot;";
        break;
      default:
        out += static_cast<unsigned char>(c) < 0x20 || c == 0x7F ? ' ' : c;
    }
  }
  return out;
}

}  // namespace perfdx::report
