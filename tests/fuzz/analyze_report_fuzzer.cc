// libFuzzer target for analyze reports read back by the run library
// (baseline/record/report_run.h): any bytes as `perfdx analyze --format json`
// output, for its first rank and for rank 1, and what they yield saved to and
// read back from a run library, as `perfdx baseline save report.json` would.
// Seeds: tests/fuzz/make_seeds.py (reports perfdx wrote on the shared traces).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "fuzz_support.h"
#include "perfdx/baseline/record/report_run.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view json(reinterpret_cast<const char*>(data), size);
  (void)perfdx::baseline::LooksLikeAnalyzeReport(json);
  for (std::optional<int64_t> rank : {std::optional<int64_t>(), std::optional<int64_t>(1)}) {
    perfdx::Result<perfdx::baseline::RunRecord> record =
        perfdx::baseline::ParseAnalyzeReport(json, rank, "fuzz.json");
    if (record.ok()) perfdx::fuzz::RoundTripRecord(*record);
  }
  return 0;
}
