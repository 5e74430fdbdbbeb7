// Bounds of the options every front end takes (the CLI's flags, the Python
// module's arguments); docs/RELIABILITY.md. A value outside them is a usage
// error naming the option.
#pragma once

#include <cstdint>

namespace perfdx::pipeline {

inline constexpr double kMaxCompressionRatio = 1e6;     // --max-ratio
inline constexpr int64_t kMaxThreads = 4096;            // --threads
inline constexpr double kMaxMinGapUs = 3.6e9;           // --min-gap-us: one hour
inline constexpr int64_t kMaxRank = 1 << 20;            // --rank
inline constexpr int64_t kMaxCount = int64_t{1} << 31;  // --warmup, --top, --limit

}  // namespace perfdx::pipeline
