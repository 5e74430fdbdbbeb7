#include "perfdx/cli/terminal.h"

#include <gtest/gtest.h>

namespace perfdx::cli {
namespace {

Terminal Tty(int columns) {
  Terminal t;
  t.stdout_tty = true;
  t.stdout_columns = columns;
  t.term = "xterm-256color";
  return t;
}

TEST(TerminalTest, WidthFromColumnsThenTheTerminalThen100) {
  Terminal t = Tty(132);
  EXPECT_EQ(TextWidth(t, true), 132);
  EXPECT_EQ(TextWidth(t, false), 100);  // -o FILE: not the terminal's width
  t.columns = "60";
  EXPECT_EQ(TextWidth(t, true), 60);
  EXPECT_EQ(TextWidth(t, false), 60);
  for (const char* bad : {"", "abc", "0", "-5", "60x", "100000"}) {
    t.columns = bad;
    EXPECT_EQ(TextWidth(t, true), 132) << bad;
  }
  Terminal pipe;
  EXPECT_EQ(TextWidth(pipe, true), 100);
}

TEST(TerminalTest, ColourOnATerminalOnly) {
  EXPECT_TRUE(UseColor(ColorMode::kAuto, Tty(80), true));
  EXPECT_FALSE(UseColor(ColorMode::kAuto, Tty(80), false));    // to a file
  EXPECT_FALSE(UseColor(ColorMode::kAuto, Terminal{}, true));  // to a pipe
  Terminal dumb = Tty(80);
  dumb.term = "dumb";
  EXPECT_FALSE(UseColor(ColorMode::kAuto, dumb, true));
}

TEST(TerminalTest, NoColorAndTheFlag) {
  Terminal t = Tty(80);
  t.no_color = "1";
  EXPECT_FALSE(UseColor(ColorMode::kAuto, t, true));
  // no-color.org: set and not empty; an empty NO_COLOR changes nothing.
  t.no_color = "";
  EXPECT_TRUE(UseColor(ColorMode::kAuto, t, true));
  // --color=never beats the terminal, --color=always beats NO_COLOR and pipes.
  EXPECT_FALSE(UseColor(ColorMode::kNever, Tty(80), true));
  t.no_color = "yes";
  EXPECT_TRUE(UseColor(ColorMode::kAlways, t, false));
  EXPECT_EQ(ParseColorMode("never"), ColorMode::kNever);
  EXPECT_EQ(ParseColorMode("always"), ColorMode::kAlways);
  EXPECT_EQ(ParseColorMode("auto"), ColorMode::kAuto);
  EXPECT_EQ(ParseColorMode("yes"), std::nullopt);
}

}  // namespace
}  // namespace perfdx::cli
