// Human-readable units for text renderers.
#pragma once

#include <cstdint>
#include <string>

namespace perfdx::report {

// 1234 -> "1.23 µs", 15000000 -> "15.0 ms", 2500000000 -> "2.50 s".
std::string FormatDuration(int64_t ns);
// 1536 -> "1.5 KiB".
std::string FormatBytes(double bytes);
// 0.1234 -> "12.3%".
std::string FormatShare(double share);

}  // namespace perfdx::report
