// A table of the text report, laid out to a width. When the natural layout
// (each column as wide as its widest cell) is too wide, in this order:
//   1. the name column (at most one, `shrink`) is shortened in the middle,
//      down to kNameColumns (names stay distinct: ShortenDistinct);
//   2. columns are dropped, the lowest `drop` first (0: never dropped);
//   3. the name column is shortened further, down to kMinNameColumns;
//   4. what is still too wide (a width under 40) is cut at the width.
// Columns are two spaces apart, one between two right-aligned columns; a
// column whose cells are all empty is not shown.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace perfdx::report {

struct TextColumn {
  std::string header;
  bool right = false;   // right-aligned (numbers)
  int drop = 0;         // drop order: 1 goes first; 0 is never dropped
  bool shrink = false;  // the name column
};

class TextTable {
 public:
  static constexpr size_t kNameColumns = 28;
  static constexpr size_t kMinNameColumns = 12;

  // `header_line`: a first line of the columns' headers (the headers name
  // dropped columns either way).
  explicit TextTable(std::vector<TextColumn> columns, bool header_line = true)
      : columns_(std::move(columns)), header_line_(header_line) {}
  void AddRow(std::vector<std::string> cells) { rows_.push_back(std::move(cells)); }
  size_t rows() const { return rows_.size(); }

  // The lines (a header line first when the columns have headers), each
  // starting with `indent` spaces and at most `width` columns wide.
  std::vector<std::string> Render(size_t width, size_t indent) const;
  // The headers of the columns the last Render dropped.
  const std::vector<std::string>& dropped() const { return dropped_; }

 private:
  std::vector<TextColumn> columns_;
  bool header_line_;
  std::vector<std::vector<std::string>> rows_;
  mutable std::vector<std::string> dropped_;
};

// "(memset, other left out to fit 60 columns; `where` has them)" for the
// columns the table's last Render dropped; "" when it dropped none.
std::string DroppedColumnsNote(const TextTable& table, size_t width, std::string_view where);

}  // namespace perfdx::report
