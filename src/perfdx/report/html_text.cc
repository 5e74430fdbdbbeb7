#include "perfdx/report/html_text.h"

#include <map>

namespace perfdx::report {
namespace {

bool IsContinuation(char c) {
  return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

}  // namespace

std::string EscapeHtml(std::string_view s) {
  std::string out;
  out.reserve(s.size() + s.size() / 8);
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string ShortenMiddle(std::string_view s, size_t max_bytes) {
  constexpr std::string_view kEllipsis = "…";
  if (s.size() <= max_bytes || max_bytes <= kEllipsis.size() + 2) return std::string(s);
  const size_t keep = max_bytes - kEllipsis.size();
  size_t head = keep - keep / 3;  // the start names the kernel; the end its last arguments
  size_t tail = s.size() - (keep - head);
  while (head > 0 && IsContinuation(s[head])) --head;
  while (tail < s.size() && IsContinuation(s[tail])) ++tail;
  return std::string(s.substr(0, head)) + std::string(kEllipsis) + std::string(s.substr(tail));
}

std::vector<std::string> ShortenDistinct(const std::vector<std::string_view>& names,
                                         size_t max_bytes) {
  constexpr size_t kMore = 16;  // bytes added per round to a name that collides
  std::vector<size_t> budget(names.size(), max_bytes);
  std::vector<std::string> out(names.size());
  for (size_t i = 0; i < names.size(); ++i) out[i] = ShortenMiddle(names[i], budget[i]);
  for (bool changed = true; changed;) {
    changed = false;
    // Short form -> the distinct full names that have it.
    std::map<std::string, std::vector<size_t>> by_short;
    for (size_t i = 0; i < names.size(); ++i) by_short[out[i]].push_back(i);
    for (const auto& [short_name, members] : by_short) {
      bool distinct_names = false;
      for (size_t m : members) distinct_names |= names[m] != names[members.front()];
      if (!distinct_names) continue;
      for (size_t m : members) {
        if (out[m].size() >= names[m].size()) continue;  // already whole
        budget[m] += kMore;
        out[m] = ShortenMiddle(names[m], budget[m]);
        changed = true;
      }
    }
  }
  return out;
}

}  // namespace perfdx::report
