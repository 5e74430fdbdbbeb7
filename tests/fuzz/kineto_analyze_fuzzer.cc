// libFuzzer target for a Kineto trace taken all the way: any bytes as one
// rank's trace file, analysed as `perfdx analyze` would (load, every
// analysis, the advisor's rules and their replays, the renderers).
// chrome_json_fuzzer holds the parser to its two paths; this one reaches what
// the parser lets through: steps, gaps and their causes (stalled runtime
// calls among them), kernels, collectives, memory, the replay.
// Seeds: tests/fuzz/make_seeds.py (the healthy and golden traces, a step
// whose launch stalls) and tests/data/bad.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto path = perfdx::fuzz::ScratchDir() / "rank0.pt.trace.json";
  perfdx::fuzz::WriteFile(path, std::string_view(reinterpret_cast<const char*>(data), size));
  perfdx::fuzz::AnalyzePath(path.string(), size);
  return 0;
}
