// What the text report's layout takes from the terminal: its width and
// whether to colour. Read from the process once (ReadTerminal), decided by
// pure functions (testable without a terminal).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace perfdx::cli {

// --color: never, auto (stdout is a terminal, TERM is not "dumb" and NO_COLOR
// is unset or empty: https://no-color.org), always (even under NO_COLOR: a
// flag on the command line beats the environment).
enum class ColorMode { kNever, kAuto, kAlways };
std::optional<ColorMode> ParseColorMode(std::string_view text);

struct Terminal {
  std::optional<std::string> columns;   // $COLUMNS
  std::optional<std::string> no_color;  // $NO_COLOR
  std::optional<std::string> term;      // $TERM
  bool stdout_tty = false;
  int stdout_columns = 0;  // the terminal's width (TIOCGWINSZ), 0 if none
  bool stderr_tty = false;
  int stderr_columns = 0;
};
Terminal ReadTerminal();

inline constexpr int kDefaultTextWidth = 100;

// $COLUMNS when it is a whole number from 1 to 10000, else the terminal's
// width when the report goes to it (`to_stdout`), else 100.
int TextWidth(const Terminal& terminal, bool to_stdout);
bool UseColor(ColorMode mode, const Terminal& terminal, bool to_stdout);

}  // namespace perfdx::cli
