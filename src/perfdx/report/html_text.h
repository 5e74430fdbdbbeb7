// Text on the HTML report's page: escaping (every string that comes from a
// trace goes through it: kernel and operator names hold < > & and quotes) and
// names shortened to fit a table cell.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace perfdx::report {

// & < > " ' as character references: safe in text and in quoted attributes.
std::string EscapeHtml(std::string_view s);

// At most `max_bytes` bytes of `s`: its start and end around "…", cut on
// UTF-8 character boundaries, so that names differing at the end (template
// arguments) stay distinct. `s` itself when it fits.
std::string ShortenMiddle(std::string_view s, size_t max_bytes);

// ShortenMiddle of each name, given more bytes where two distinct names would
// read the same (at::native::vectorized_elementwise_kernel<4, ...> twins), so
// that distinct names stay distinct on the page.
std::vector<std::string> ShortenDistinct(const std::vector<std::string_view>& names,
                                         size_t max_bytes);

}  // namespace perfdx::report
