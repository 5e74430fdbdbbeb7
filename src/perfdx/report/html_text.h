// Text on the HTML report's page: escaping (every string that comes from a
// trace goes through it: kernel and operator names hold < > & and quotes).
// Names are shortened as in the terminal (text_layout.h ShortenDistinct).
#pragma once

#include <string>
#include <string_view>

namespace perfdx::report {

// & < > " ' as character references: safe in text and in quoted attributes.
std::string EscapeHtml(std::string_view s);

}  // namespace perfdx::report
