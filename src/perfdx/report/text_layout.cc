#include "perfdx/report/text_layout.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <set>

#include <fmt/format.h>

namespace perfdx::report {
namespace {

struct Glyph {
  size_t bytes = 1;  // the code point's or the escape sequence's length
  size_t width = 1;  // display columns
};

struct Range {
  char32_t first;
  char32_t last;
};

// East Asian Wide and Fullwidth blocks (Unicode's EastAsianWidth W and F).
constexpr Range kWide[] = {
    {0x1100, 0x115F},   {0x231A, 0x231B},   {0x2329, 0x232A},   {0x23E9, 0x23EC},
    {0x2E80, 0x303E},   {0x3041, 0x33FF},   {0x3400, 0x4DBF},   {0x4E00, 0x9FFF},
    {0xA000, 0xA4CF},   {0xAC00, 0xD7A3},   {0xF900, 0xFAFF},   {0xFE30, 0xFE4F},
    {0xFF00, 0xFF60},   {0xFFE0, 0xFFE6},   {0x1F300, 0x1F64F}, {0x1F900, 0x1F9FF},
    {0x20000, 0x2FFFD}, {0x30000, 0x3FFFD},
};
// Combining marks and zero-width characters.
constexpr Range kZero[] = {
    {0x0300, 0x036F}, {0x200B, 0x200F}, {0x20D0, 0x20FF}, {0xFE00, 0xFE0F}, {0xFE20, 0xFE2F},
};

bool In(const Range* begin, const Range* end, char32_t c) {
  return std::any_of(begin, end, [c](const Range& r) { return c >= r.first && c <= r.last; });
}

// The glyph starting at s[i]: an ANSI escape sequence (ESC [ ... final byte)
// is zero columns; an invalid byte is one column on its own.
Glyph GlyphAt(std::string_view s, size_t i) {
  const auto b = static_cast<unsigned char>(s[i]);
  if (b == 0x1B && i + 1 < s.size() && s[i + 1] == '[') {
    size_t j = i + 2;
    while (j < s.size() && !(s[j] >= 0x40 && s[j] <= 0x7E)) ++j;
    return {std::min(j + 1, s.size()) - i, 0};
  }
  if (b < 0x80) return {1, b < 0x20 || b == 0x7F ? size_t{0} : size_t{1}};
  size_t n = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1;
  if (n == 1 || i + n > s.size()) return {1, 1};
  char32_t c = b & (0x7F >> n);
  for (size_t k = 1; k < n; ++k) {
    const auto cont = static_cast<unsigned char>(s[i + k]);
    if ((cont & 0xC0) != 0x80) return {1, 1};
    c = (c << 6) | (cont & 0x3F);
  }
  if (In(std::begin(kZero), std::end(kZero), c)) return {n, 0};
  return {n, In(std::begin(kWide), std::end(kWide), c) ? size_t{2} : size_t{1}};
}

// The start of each glyph of `s`, and its width.
std::vector<std::pair<size_t, size_t>> Glyphs(std::string_view s) {
  std::vector<std::pair<size_t, size_t>> out;
  for (size_t i = 0; i < s.size();) {
    const Glyph g = GlyphAt(s, i);
    out.emplace_back(i, g.width);
    i += g.bytes;
  }
  return out;
}

// The columns kept at the end when `width` columns hold a shortened name.
size_t DefaultTail(size_t width) {
  return width <= 1 ? 0 : (width - 1) * 2 / 5;
}

// Two shortened names read differently when what lies between their common
// start and common end spans a few characters, not one ('>' against '}').
bool DiffersEnough(std::string_view a, std::string_view b) {
  constexpr size_t kMinDifference = 4;
  size_t prefix = 0;
  while (prefix < a.size() && prefix < b.size() && a[prefix] == b[prefix]) ++prefix;
  size_t suffix = 0;
  while (suffix < a.size() - prefix && suffix < b.size() - prefix &&
         a[a.size() - 1 - suffix] == b[b.size() - 1 - suffix]) {
    ++suffix;
  }
  return std::max(a.size(), b.size()) - prefix - suffix >= kMinDifference;
}

size_t WordEnd(std::string_view text, size_t i) {
  while (i < text.size() && text[i] != ' ' && text[i] != '\n') ++i;
  return i;
}

bool IsDigit(char c) {
  return c >= '0' && c <= '9';
}

// The units of units.h (and "%"), with the punctuation that may follow.
bool IsUnit(std::string_view word) {
  while (!word.empty() && (word.back() == ',' || word.back() == ';' || word.back() == ')' ||
                           word.back() == '.' || word.back() == ':')) {
    word.remove_suffix(1);
  }
  constexpr std::string_view kUnits[] = {"ns",  "µs",  "ms",  "s",    "B", "KiB",
                                         "MiB", "GiB", "TiB", "GB/s", "%"};
  return std::find(std::begin(kUnits), std::end(kUnits), word) != std::end(kUnits);
}

}  // namespace

size_t DisplayWidth(std::string_view s) {
  size_t w = 0;
  for (size_t i = 0; i < s.size();) {
    const Glyph g = GlyphAt(s, i);
    w += g.width;
    i += g.bytes;
  }
  return w;
}

std::string Printable(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    const auto b = static_cast<unsigned char>(c);
    if (b < 0x20 || b == 0x7F) c = ' ';
  }
  return out;
}

std::string_view TakeColumns(std::string_view s, size_t width) {
  size_t w = 0;
  size_t i = 0;
  while (i < s.size()) {
    const Glyph g = GlyphAt(s, i);
    if (w + g.width > width) break;
    w += g.width;
    i += g.bytes;
  }
  return s.substr(0, i);
}

std::string_view TakeLastColumns(std::string_view s, size_t width) {
  const auto glyphs = Glyphs(s);
  size_t w = 0;
  size_t start = s.size();
  for (auto it = glyphs.rbegin(); it != glyphs.rend(); ++it) {
    if (w + it->second > width) break;
    w += it->second;
    start = it->first;
  }
  return s.substr(start);
}

std::string ShortenMiddle(std::string_view s, size_t width) {
  return ShortenMiddle(s, width, DefaultTail(width));
}

std::string ShortenMiddle(std::string_view s, size_t width, size_t tail) {
  if (DisplayWidth(s) <= width) return std::string(s);
  if (width == 0) return {};
  tail = std::min(tail, width - 1);
  const std::string_view head = TakeColumns(s, width - 1 - tail);
  const std::string_view end = TakeLastColumns(s.substr(head.size()), tail);
  std::string out(head);
  out += kEllipsis;
  out += end;
  return out;
}

std::vector<std::string> ShortenDistinct(const std::vector<std::string>& names, size_t width) {
  std::vector<std::string> out;
  out.reserve(names.size());
  for (const std::string& n : names) out.push_back(ShortenMiddle(n, width));
  // Indices of the names whose shortened forms collide with another's (of a
  // different name: the same name twice stays the same). Forms are compared
  // in sorted order, neighbours only: equal forms are neighbours, and so,
  // mostly, are near ones (the same start).
  auto collisions = [&] {
    std::vector<size_t> order(out.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return out[a] < out[b]; });
    std::vector<bool> hit_at(out.size(), false);
    for (size_t k = 1; k < order.size(); ++k) {
      const size_t a = order[k - 1];
      const size_t b = order[k];
      if (names[a] == names[b]) continue;
      const bool shortened = out[a] != names[a] || out[b] != names[b];
      if (out[a] == out[b] || (shortened && !DiffersEnough(out[a], out[b]))) {
        hit_at[a] = hit_at[b] = true;
      }
    }
    std::vector<size_t> hit;
    for (size_t i = 0; i < out.size(); ++i)
      if (hit_at[i]) hit.push_back(i);
    return hit;
  };
  std::vector<size_t> hit = collisions();
  if (hit.empty() || width < 2) return out;
  // A longer end first (a kernel's template arguments and parameters tell
  // kernels apart), down to a start of 8 columns; then a longer start.
  constexpr size_t kMinKept = 8;
  constexpr size_t kContext = 12;
  std::vector<size_t> tails;
  const size_t default_tail = DefaultTail(width);
  for (size_t t = default_tail + 1; t + 1 + std::min(kMinKept, width - 1) <= width; ++t) {
    tails.push_back(t);
  }
  for (size_t t = default_tail; t-- > 0;) tails.push_back(t);
  for (const size_t t : tails) {
    for (size_t i : hit) out[i] = ShortenMiddle(names[i], width, t);
    std::vector<size_t> still = collisions();
    if (still.empty()) {
      // Distinct by a character or so: a few more columns of context, if
      // they keep the names apart.
      const size_t longest_tail = width - 1 - std::min(kMinKept, width - 1);
      const size_t more = t > default_tail ? std::min(t + kContext, longest_tail)
                          : t > kContext   ? t - kContext
                                           : 0;
      std::vector<std::string> before = out;
      for (size_t i : hit) out[i] = ShortenMiddle(names[i], width, more);
      if (!collisions().empty()) out = std::move(before);
      return out;
    }
    // Keep the names this split told apart; retry only the rest.
    if (still.size() < hit.size()) hit = std::move(still);
  }
  for (size_t i : hit) out[i] = ShortenMiddle(names[i], width);
  // Numbered in order of appearance within each form two names share; a
  // form of one name stays as it is ("Stream 0 #1" beside "Stream 2 #1"
  // told nothing more).
  std::set<std::string> forms;
  for (size_t i : hit) forms.insert(out[i]);
  for (const std::string& form : forms) {
    size_t n = 0;
    std::vector<size_t> members;
    for (size_t i : hit)
      if (out[i] == form) members.push_back(i);
    if (members.size() < 2) continue;
    for (size_t i : members) {
      const std::string suffix = fmt::format(" #{}", ++n);
      const size_t room = width > DisplayWidth(suffix) ? width - DisplayWidth(suffix) : 0;
      out[i] = ShortenMiddle(names[i], room, DefaultTail(room)) + suffix;
      if (DisplayWidth(out[i]) > width) out[i] = std::string(TakeLastColumns(out[i], width));
    }
  }
  return out;
}

std::vector<std::string> Wrap(std::string_view text, size_t width, std::string_view first_prefix,
                              size_t indent) {
  std::vector<std::string> lines;
  std::string line(first_prefix);
  size_t line_width = DisplayWidth(line);
  bool line_has_word = false;
  const std::string pad(indent, ' ');
  auto new_line = [&] {
    lines.push_back(std::move(line));
    line = pad;
    line_width = indent;
    line_has_word = false;
  };
  size_t i = 0;
  while (i < text.size()) {
    if (text[i] == ' ') {
      ++i;
      continue;
    }
    if (text[i] == '\n') {
      new_line();
      ++i;
      continue;
    }
    size_t j = WordEnd(text, i);
    // "64 ms" stays on one line: a number and its unit are one word.
    if (j > i && j + 1 < text.size() && text[j] == ' ' && IsDigit(text[j - 1])) {
      const size_t unit_end = WordEnd(text, j + 1);
      if (IsUnit(text.substr(j + 1, unit_end - j - 1))) j = unit_end;
    }
    std::string_view word = text.substr(i, j - i);
    i = j;
    size_t word_width = DisplayWidth(word);
    const size_t gap = line_has_word ? 1 : 0;
    if (line_width + gap + word_width <= width) {
      if (gap) line += ' ';
      line += word;
      line_width += gap + word_width;
      line_has_word = true;
      continue;
    }
    if (line_has_word) new_line();
    // A link wider than the line stays whole on a line of its own, beyond
    // the width: cut, it could be neither clicked nor copied.
    if (word.starts_with("https://") || word.starts_with("http://")) {
      line += word;
      line_width += word_width;
      line_has_word = true;
      continue;
    }
    // A word wider than a whole line is cut across lines; a path after one
    // of its slashes when that keeps most of the line ("…/ASCEND_PROFILER_OUTPUT/"
    // then "trace_view.json", not "…/trace" then "_view.json").
    while (line_width + word_width > width && width > line_width) {
      std::string_view piece = TakeColumns(word, width - line_width);
      if (piece.empty()) break;
      const size_t slash = piece.find_last_of('/');
      if (piece.size() < word.size() && slash != std::string_view::npos &&
          slash + 1 > piece.size() / 2) {
        piece = piece.substr(0, slash + 1);
      }
      line += piece;
      word.remove_prefix(piece.size());
      word_width = DisplayWidth(word);
      new_line();
    }
    line += word;
    line_width += word_width;
    line_has_word = !word.empty();
  }
  if (line_has_word || lines.empty()) lines.push_back(std::move(line));
  return lines;
}

namespace {

// What a line of code still has open where it is cut: the cut must leave
// both halves the same code once pasted, in Python and in the shell alike.
enum class OpenAtCut {
  kNothing,  // a backslash continues the line
  kBracket,  // Python continues a line inside ( [ {; $( ) in the shell
  kComment,  // the rest must start a comment again
  kString,   // no cut: the next line's indent would join the string
};

struct CodeScan {
  OpenAtCut open = OpenAtCut::kNothing;
  int brackets = 0;  // open after `head`, a comment's left out
};

// `head` read from a line's start, `brackets` open before it (by the
// snippet's earlier lines).
CodeScan ScanOpen(std::string_view head, int brackets) {
  char quote = 0;
  for (size_t i = 0; i < head.size(); ++i) {
    const char c = head[i];
    if (quote != 0) {
      if (c == '\\') {
        ++i;
      } else if (c == quote) {
        quote = 0;
      }
    } else if (c == '#') {
      return {OpenAtCut::kComment, brackets};
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '(' || c == '[' || c == '{') {
      ++brackets;
    } else if ((c == ')' || c == ']' || c == '}') && brackets > 0) {
      --brackets;
    }
  }
  if (quote != 0) return {OpenAtCut::kString, brackets};
  return {brackets > 0 ? OpenAtCut::kBracket : OpenAtCut::kNothing, brackets};
}

}  // namespace

std::vector<std::string> WrapCode(std::string_view line, size_t width, size_t indent,
                                  int open_brackets) {
  constexpr std::string_view kBackslash = " \\";
  constexpr std::string_view kComment = "# ";
  std::vector<std::string> lines;
  std::string pad(indent, ' ');
  // Inside brackets a line's own indentation means nothing (an argument
  // aligned under its call's parenthesis): four spaces do when it is too
  // wide.
  if (open_brackets > 0 && indent + DisplayWidth(line) > width) {
    const size_t spaces = std::min(line.find_first_not_of(' '), line.size());
    if (spaces > 4) line.remove_prefix(spaces - 4);
  }
  const std::string_view whole = line;
  std::string carried;  // "# " when the rest continues a comment
  while (indent + DisplayWidth(carried) + DisplayWidth(line) > width &&
         width > indent + DisplayWidth(carried) + 1 + kBackslash.size()) {
    const size_t room = width - indent - DisplayWidth(carried);
    const std::string_view fits = TakeColumns(line, room);
    const size_t consumed = whole.size() - line.size();
    // The last space that fits where the cut keeps the code what it was; a
    // cut with nothing open needs room for the backslash.
    size_t cut = std::string_view::npos;
    OpenAtCut open = OpenAtCut::kNothing;
    for (size_t at = fits.find_last_of(' '); at != std::string_view::npos && at > 0;
         at = fits.find_last_of(' ', at - 1)) {
      if (fits.find_first_not_of(' ') >= at) break;
      open = ScanOpen(whole.substr(0, consumed + at), open_brackets).open;
      if (open == OpenAtCut::kString) continue;
      if (open == OpenAtCut::kNothing &&
          DisplayWidth(fits.substr(0, at)) + kBackslash.size() > room) {
        continue;
      }
      cut = at;
      break;
    }
    // Without one, a name longer than the line (torch_npu.profiler.
    // ProfilerActivity.CPU at 60 columns) is cut between two of its tokens
    // where brackets are open: after a dot, a comma, an opening bracket or
    // a keyword argument's '='.
    if (cut == std::string_view::npos) {
      for (size_t at = fits.size(); at > 1; --at) {
        const char before = line[at - 1];
        const bool dot = before == '.' && line[at] != '.' && line[at - 2] != '.' &&
                         !std::isdigit(static_cast<unsigned char>(line[at - 2]));
        // After a keyword argument's '=' (not one of == != <= >= += and the like).
        const bool assign =
            before == '=' && line[at] != '=' &&
            std::string_view("=!<>+-*/%&|^:@").find(line[at - 2]) == std::string_view::npos;
        if (!dot && !assign && before != ',' && before != '(' && before != '[' && before != '{') {
          continue;
        }
        if (ScanOpen(whole.substr(0, consumed + at), open_brackets).open != OpenAtCut::kBracket) {
          continue;
        }
        cut = at;
        open = OpenAtCut::kBracket;
        break;
      }
    }
    std::string head = carried;
    if (cut == std::string_view::npos) {
      // No such place: a comment is cut where the line is full (its rest a
      // comment again); code is left whole past the width, as a cut word
      // (a shell variable's long value) would no longer be the same code.
      cut = fits.size();
      open = ScanOpen(whole.substr(0, consumed + cut), open_brackets).open;
      if (open != OpenAtCut::kComment) break;
      head += std::string(fits);
    } else {
      head += std::string(fits.substr(0, cut));
      if (open == OpenAtCut::kNothing) head += kBackslash;
    }
    lines.push_back(pad + head);
    line.remove_prefix(cut);
    while (!line.empty() && line.front() == ' ') line.remove_prefix(1);
    carried = open == OpenAtCut::kComment ? std::string(kComment) : std::string();
    if (lines.size() == 1) {
      indent += 4;
      pad = std::string(indent, ' ');
    }
  }
  lines.push_back(pad + carried + std::string(line));
  return lines;
}

std::vector<std::string> WrapCodeBlock(std::string_view code, size_t width, size_t indent) {
  std::vector<std::string> lines;
  int brackets = 0;
  while (!code.empty()) {
    const size_t eol = code.find('\n');
    const std::string_view line = code.substr(0, eol);
    for (std::string& l : WrapCode(line, width, indent, brackets)) lines.push_back(std::move(l));
    brackets = ScanOpen(line, brackets).brackets;
    if (eol == std::string_view::npos) break;
    code.remove_prefix(eol + 1);
  }
  return lines;
}

void AppendLines(std::string& out, const std::vector<std::string>& lines) {
  for (const std::string& l : lines) {
    out += l;
    out += '\n';
  }
}

}  // namespace perfdx::report
