#include "perfdx/cli/terminal.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <charconv>
#include <cstdlib>

namespace perfdx::cli {
namespace {

std::optional<std::string> Env(const char* name) {
  const char* v = std::getenv(name);
  if (v == nullptr) return std::nullopt;
  return std::string(v);
}

int Columns(int fd) {
  struct winsize ws {};
  if (::ioctl(fd, TIOCGWINSZ, &ws) != 0) return 0;
  return ws.ws_col;
}

}  // namespace

std::optional<ColorMode> ParseColorMode(std::string_view text) {
  if (text == "never") return ColorMode::kNever;
  if (text == "auto") return ColorMode::kAuto;
  if (text == "always") return ColorMode::kAlways;
  return std::nullopt;
}

Terminal ReadTerminal() {
  Terminal t;
  t.columns = Env("COLUMNS");
  t.no_color = Env("NO_COLOR");
  t.term = Env("TERM");
  t.stdout_tty = ::isatty(STDOUT_FILENO) == 1;
  if (t.stdout_tty) t.stdout_columns = Columns(STDOUT_FILENO);
  t.stderr_tty = ::isatty(STDERR_FILENO) == 1;
  if (t.stderr_tty) t.stderr_columns = Columns(STDERR_FILENO);
  return t;
}

int TextWidth(const Terminal& terminal, bool to_stdout) {
  if (terminal.columns) {
    const std::string& s = *terminal.columns;
    int v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec == std::errc() && end == s.data() + s.size() && v >= 1 && v <= 10000) return v;
  }
  if (to_stdout && terminal.stdout_tty && terminal.stdout_columns > 0) {
    return terminal.stdout_columns;
  }
  return kDefaultTextWidth;
}

bool UseColor(ColorMode mode, const Terminal& terminal, bool to_stdout) {
  switch (mode) {
    case ColorMode::kNever:
      return false;
    case ColorMode::kAlways:
      return true;
    case ColorMode::kAuto:
      break;
  }
  if (terminal.no_color && !terminal.no_color->empty()) return false;
  if (terminal.term && *terminal.term == "dumb") return false;
  return to_stdout && terminal.stdout_tty;
}

}  // namespace perfdx::cli
