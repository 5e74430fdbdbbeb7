// Laying text out in a terminal's columns: display width, names shortened in
// the middle (distinct names stay distinct), paragraphs wrapped to a width.
//
// Width is counted in display columns: one per UTF-8 code point (box-drawing
// characters, "…", "µ" and "✓" are one), two for East Asian wide and
// full-width characters, none for ANSI escape sequences (colour) and
// combining marks. The report's own characters are all one column wide.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace perfdx::report {

// The ellipsis that marks a cut ("…", one column).
inline constexpr std::string_view kEllipsis = "\xE2\x80\xA6";

size_t DisplayWidth(std::string_view s);

// `s` with every control character (tab, newline, ESC, DEL, ...) as a
// space: names from a trace neither break the layout nor send the terminal
// escape sequences of their own.
std::string Printable(std::string_view s);

// The longest prefix of `s` at most `width` columns wide, never cutting a
// code point or an escape sequence.
std::string_view TakeColumns(std::string_view s, size_t width);
// The longest suffix of `s` at most `width` columns wide.
std::string_view TakeLastColumns(std::string_view s, size_t width);

// `s` at most `width` columns: the start and the end kept, "…" between;
// `tail` columns of the end (the rest of the width goes to the start). The
// default keeps about 60% at the start.
std::string ShortenMiddle(std::string_view s, size_t width);
std::string ShortenMiddle(std::string_view s, size_t width, size_t tail);

// Each name at most `width` columns, shortened in the middle, so that names
// that differ still read differently: names that collide keep a longer end
// (the start shrinks to a few columns) until they differ, else a longer
// start; names that still collide end in " #2", " #3", ... in their order.
std::vector<std::string> ShortenDistinct(const std::vector<std::string>& names, size_t width);

// `text` wrapped at spaces to lines of at most `width` columns: the first
// line starts with `first_prefix`, the others with `indent` spaces. A word
// wider than a line (a path) is cut across lines; nothing is dropped. A link
// (http:// or https://) is never cut: one that does not fit goes whole to a
// line of its own (or stays after the first line's prefix when no word is
// there yet), the one line that may pass the width.
std::vector<std::string> Wrap(std::string_view text, size_t width, std::string_view first_prefix,
                              size_t indent);

// A line of code (Python or shell): kept whole if it fits, else cut at the
// last space that fits where the pasted lines are still the same code, the
// rest indented four more columns: inside brackets as it is, inside a
// comment with the rest starting "# " again, elsewhere after a " \"; never
// inside a string. Without such a space, a name inside brackets is cut
// between its tokens (after a dot, a comma, a bracket or a keyword's '=');
// else a comment is cut where the line is full, and code is left whole past
// the width (a cut word would no longer be the same code).
// `open_brackets`: those the snippet's earlier lines left open (inside them
// a line too wide keeps four spaces of its own indentation).
std::vector<std::string> WrapCode(std::string_view line, size_t width, size_t indent,
                                  int open_brackets = 0);

// Each line of a snippet by WrapCode, with the brackets its earlier lines
// leave open (a call's arguments on lines of their own).
std::vector<std::string> WrapCodeBlock(std::string_view code, size_t width, size_t indent);

// Appends `lines`, each with a newline, to `out`.
void AppendLines(std::string& out, const std::vector<std::string>& lines);

}  // namespace perfdx::report
