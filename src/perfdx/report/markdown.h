// Escaping for the Markdown renderers (GitHub-flavoured: analyze and check).
#pragma once

#include <string>
#include <string_view>

namespace perfdx::report {

// A table cell: '|' would end the cell, a newline the row (every control
// character becomes a space).
std::string MdCell(std::string_view s);
// Running text and table cells: also '<', '>' and '&' (GitHub reads HTML in
// Markdown: "kernel<4, float>" would be a tag) and the characters that start
// emphasis, links or code ('*', '_', '`', '[', ']', '\').
std::string MdText(std::string_view s);
// A name as inline code, fit for a table cell: fenced with more backticks
// than it holds, '|' escaped (GFM reads cells before code spans).
std::string MdCode(std::string_view s);

}  // namespace perfdx::report
