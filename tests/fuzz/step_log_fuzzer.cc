// libFuzzer target for the JSON-lines step log (baseline/record/step_log.h):
// any bytes as a log, and what it yields saved to and read back from a run
// library, as `perfdx baseline save steps.jsonl` would.
// Seeds: tests/fuzz/make_seeds.py (the example logs and hand-written lines).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_support.h"
#include "perfdx/baseline/record/step_log.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)perfdx::baseline::LooksLikeStepLog(text);
  perfdx::Result<perfdx::baseline::RunRecord> record =
      perfdx::baseline::ParseStepLog(text, "fuzz.jsonl");
  if (record.ok()) perfdx::fuzz::RoundTripRecord(*record);
  return 0;
}
