#include "perfdx/host/cpu_list.h"

#include <algorithm>
#include <charconv>
#include <iterator>

#include <fmt/format.h>

namespace perfdx::host {
namespace {

// The kernel's limit is NR_CPUS (8192 on distribution kernels); a range past
// it is a damaged file, not a machine.
constexpr int kMaxCpuId = 1 << 16;

bool ParseId(std::string_view s, int* out) {
  if (s.empty()) return false;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && end == s.data() + s.size() && *out >= 0 && *out < kMaxCpuId;
}

}  // namespace

Result<std::vector<int>> ParseCpuList(std::string_view text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ' || text.back() == '\t')) {
    text.remove_suffix(1);
  }
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  std::vector<int> ids;
  if (text.empty()) return ids;
  size_t pos = 0;
  while (pos <= text.size()) {
    const size_t comma = std::min(text.find(',', pos), text.size());
    const std::string_view part = text.substr(pos, comma - pos);
    const size_t dash = part.find('-');
    int first = 0;
    int last = 0;
    const bool ok = dash == std::string_view::npos
                        ? ParseId(part, &first) && (last = first, true)
                        : ParseId(part.substr(0, dash), &first) &&
                              ParseId(part.substr(dash + 1), &last) && first <= last;
    if (!ok) return InvalidInput(fmt::format("not a CPU list: \"{}\"", text));
    for (int id = first; id <= last; ++id) ids.push_back(id);
    pos = comma + 1;
  }
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

std::string FormatCpuList(const std::vector<int>& sorted_ids) {
  std::string out;
  for (size_t i = 0; i < sorted_ids.size();) {
    size_t j = i;
    while (j + 1 < sorted_ids.size() && sorted_ids[j + 1] == sorted_ids[j] + 1) ++j;
    if (!out.empty()) out += ',';
    out += j == i ? fmt::format("{}", sorted_ids[i])
                  : fmt::format("{}-{}", sorted_ids[i], sorted_ids[j]);
    i = j + 1;
  }
  return out;
}

std::vector<int> Intersect(const std::vector<int>& a, const std::vector<int>& b) {
  std::vector<int> out;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

std::vector<int> Subtract(const std::vector<int>& a, const std::vector<int>& b) {
  std::vector<int> out;
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

bool IsSubset(const std::vector<int>& part, const std::vector<int>& whole) {
  return std::includes(whole.begin(), whole.end(), part.begin(), part.end());
}

bool IsContiguous(const std::vector<int>& sorted_ids) {
  return !sorted_ids.empty() &&
         sorted_ids.back() - sorted_ids.front() + 1 == static_cast<int>(sorted_ids.size());
}

}  // namespace perfdx::host
