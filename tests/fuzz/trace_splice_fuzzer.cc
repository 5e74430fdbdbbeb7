// libFuzzer target for perfdx annotate's splice (formats/chrome/trace_splice.h):
// any bytes (plain, gzip or zstd). Whatever it accepts must come back whole —
// the input's bytes in order around one insertion of the new events — and
// whatever it refuses must say so with a message naming the file.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "perfdx/formats/chrome/trace_splice.h"
#include "perfdx/io/byte_source.h"

namespace {

constexpr std::string_view kEvents = R"({"ph":"X","cat":"perfdx","name":"x"})";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  perfdx::io::ReadLimits limits;
  limits.max_decompressed_bytes = 4 << 20;
  limits.ratio_floor_bytes = 1 << 20;
  auto source = perfdx::io::OpenMemoryByteSource(bytes, "fuzz.json", limits);
  if (!source.ok()) return 0;
  // What the splicer reads: the decompressed bytes, when the input is gzip/zstd.
  auto again = perfdx::io::OpenMemoryByteSource(bytes, "fuzz.json", limits);
  if (!again.ok()) std::abort();
  auto original = perfdx::io::ReadAll(**again, 4 << 20);
  std::string out;
  const perfdx::Status s = perfdx::formats::SpliceEvents(**source, kEvents, out);
  if (!s.ok()) {
    if (s.message().rfind("fuzz.json: ", 0) != 0) std::abort();
    return 0;
  }
  if (!original.ok()) return 0;
  const std::string& in = *original;
  if (out.size() < in.size() + kEvents.size()) std::abort();
  const size_t prefix = std::mismatch(in.begin(), in.end(), out.begin()).first - in.begin();
  const size_t suffix = std::mismatch(in.rbegin(), in.rend(), out.rbegin()).first - in.rbegin();
  if (prefix + suffix < in.size()) std::abort();  // an original byte lost or moved
  if (out.find(kEvents) == std::string::npos) std::abort();
  return 0;
}
