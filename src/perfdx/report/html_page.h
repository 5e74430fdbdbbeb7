// The shell every perfdx HTML page shares (analyze, check): the document head
// with its Content-Security-Policy, which lets nothing load (the page works
// from a mail attachment, offline), and the one style sheet, with its light,
// dark and print modes and the chart classes of svg_charts.h.
#pragma once

#include <string>
#include <string_view>

namespace perfdx::report {

// "<!DOCTYPE html>" up to and including "<body>\n"; `title` is escaped here.
std::string HtmlPageStart(std::string_view title);

}  // namespace perfdx::report
