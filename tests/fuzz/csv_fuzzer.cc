// libFuzzer target for the CSV reader every Ascend summary file goes through
// (formats/csv): any bytes as a file, read in small chunks with a small record
// limit so that chunk edges and the limit are reached, every cell through
// every number conversion the side-file readers use.
// Seeds: tests/fuzz/make_seeds.py (heads of the shared profiles' CSV files).
#include <cstddef>
#include <cstdint>
#include <string>

#include "perfdx/formats/csv/csv_reader.h"
#include "perfdx/io/byte_source.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto source = perfdx::io::OpenMemoryByteSource(
      std::string(reinterpret_cast<const char*>(data), size), "fuzz.csv");
  if (!source.ok()) return 0;
  perfdx::formats::CsvOptions options;
  options.chunk_bytes = 509;  // not a power of two: edges fall everywhere
  options.max_record_bytes = 4096;
  perfdx::formats::CsvStats stats;
  uint64_t sink = 0;
  (void)perfdx::formats::ReadCsv(
      **source, options,
      [&](const perfdx::formats::CsvHeader& header, const perfdx::formats::CsvRow& row) {
        (void)header.Find({"Start Time(us)", "Task Start Time(us)"});
        for (int c = -1; c <= static_cast<int>(row.size()); ++c) {
          sink += row.Raw(c).size() + row.Text(c).size() + row.Unquoted(c).size();
          sink += static_cast<uint64_t>(row.Int(c).value_or(0));
          sink += static_cast<uint64_t>(row.MicrosToNanos(c).value_or(0));
          sink += static_cast<uint64_t>(row.DecimalScaled(c, 6).value_or(0));
          sink += static_cast<uint64_t>(row.Scaled(c, 1048576.0).value_or(0));
          sink += static_cast<uint64_t>(row.Double(c).value_or(0) != 0);
        }
      },
      &stats);
  // The conversions must not be optimised away.
  asm volatile("" : : "r"(sink) : "memory");
  return 0;
}
