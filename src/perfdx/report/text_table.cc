#include "perfdx/report/text_table.h"

#include <algorithm>

#include <fmt/format.h>

#include "perfdx/report/text_layout.h"

namespace perfdx::report {
namespace {

std::string Pad(const std::string& s, size_t width, bool right) {
  const size_t w = DisplayWidth(s);
  if (w >= width) return s;
  const std::string fill(width - w, ' ');
  return right ? fill + s : s + fill;
}

}  // namespace

std::vector<std::string> TextTable::Render(size_t width, size_t indent) const {
  const size_t n = columns_.size();
  const bool headers = header_line_;
  std::vector<size_t> natural(n, 0);
  for (size_t c = 0; c < n; ++c) {
    if (headers) natural[c] = DisplayWidth(columns_[c].header);
    for (const auto& row : rows_) {
      if (c < row.size()) natural[c] = std::max(natural[c], DisplayWidth(row[c]));
    }
  }
  // A column with nothing in it (no kernel flagged) is left out, header and all.
  std::vector<bool> shown(n, true);
  for (size_t c = 0; c < n; ++c) {
    shown[c] = std::any_of(rows_.begin(), rows_.end(),
                           [c](const auto& row) { return c < row.size() && !row[c].empty(); });
  }
  std::vector<size_t> widths = natural;
  auto gap = [&](size_t prev, size_t c) {
    return columns_[prev].right && columns_[c].right ? size_t{1} : size_t{2};
  };
  auto total = [&] {
    size_t t = indent;
    size_t prev = n;
    for (size_t c = 0; c < n; ++c) {
      if (!shown[c]) continue;
      if (prev != n) t += gap(prev, c);
      t += widths[c];
      prev = c;
    }
    return t;
  };
  const auto name_it =
      std::find_if(columns_.begin(), columns_.end(), [](const TextColumn& c) { return c.shrink; });
  const size_t name = static_cast<size_t>(name_it - columns_.begin());
  auto shrink_name = [&](size_t floor) {
    if (name == n || total() <= width) return;
    const size_t excess = total() - width;
    const size_t least = std::min(natural[name], floor);
    widths[name] = widths[name] > least + excess ? widths[name] - excess : least;
  };
  shrink_name(kNameColumns);
  dropped_.clear();
  while (total() > width) {
    size_t victim = n;
    for (size_t c = 0; c < n; ++c) {
      if (shown[c] && columns_[c].drop > 0 &&
          (victim == n || columns_[c].drop < columns_[victim].drop)) {
        victim = c;
      }
    }
    if (victim == n) break;
    shown[victim] = false;
    dropped_.push_back(columns_[victim].header);
    // The name column may take back what the dropped column freed.
    if (name != n) widths[name] = natural[name];
    shrink_name(kNameColumns);
  }
  shrink_name(kMinNameColumns);

  std::vector<std::string> names;
  if (name != n) {
    for (const auto& row : rows_) names.push_back(name < row.size() ? row[name] : "");
    names = ShortenDistinct(names, widths[name]);
  }
  // The last shown column is not padded: no trailing spaces.
  size_t last = n;
  for (size_t c = 0; c < n; ++c)
    if (shown[c]) last = c;
  auto line = [&](auto cell) {
    std::string out(indent, ' ');
    size_t prev = n;
    for (size_t c = 0; c < n; ++c) {
      if (!shown[c]) continue;
      if (prev != n) out.append(gap(prev, c), ' ');
      const std::string text = cell(c);
      out += c == last && !columns_[c].right ? text : Pad(text, widths[c], columns_[c].right);
      prev = c;
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    if (DisplayWidth(out) > width) out = std::string(TakeColumns(out, width));
    return out;
  };
  std::vector<std::string> lines;
  if (headers) {
    lines.push_back(line([&](size_t c) {
      return DisplayWidth(columns_[c].header) > widths[c]
                 ? std::string(TakeColumns(columns_[c].header, widths[c]))
                 : columns_[c].header;
    }));
  }
  for (size_t r = 0; r < rows_.size(); ++r) {
    lines.push_back(line([&](size_t c) -> std::string {
      if (c == name) return names[r];
      return c < rows_[r].size() ? rows_[r][c] : std::string();
    }));
  }
  return lines;
}

std::string DroppedColumnsNote(const TextTable& table, size_t width, std::string_view where) {
  if (table.dropped().empty()) return "";
  std::string names;
  for (const std::string& d : table.dropped()) names += (names.empty() ? "" : ", ") + d;
  return fmt::format("({} left out to fit {} columns; {} has them)", names, width, where);
}

}  // namespace perfdx::report
