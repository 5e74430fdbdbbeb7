// Streaming CSV reader for the profilers' summary files (kernel_details.csv,
// op_summary_*.csv, memory_record.csv, ...).
//
// RFC 4180 with the leniency real profiler output needs:
//   - quoted fields with doubled quotes, embedded commas and line breaks
//     (torch_npu writes shapes as """32,3,224,224""" and call stacks across
//     lines);
//   - a UTF-8 byte-order mark, CRLF / LF / CR line ends, blank lines;
//   - numbers padded with spaces or the trailing tab torch_npu appends to
//     times ("1736408883704643.212\t") so spreadsheets keep their digits;
//   - "N/A" (and empty cells) for "not applicable".
// Columns are found by header name, with alternative spellings ("Block Dim"
// or "Block Num"). A malformed row is counted in CsvStats and reading goes
// on; only unreadable bytes or a blown size limit end the file with a Status.
//
//   CsvStats stats;
//   PERFDX_RETURN_IF_ERROR(ReadCsvFile(path, limits, {}, [&](const CsvHeader& h, const CsvRow& r) {
//     const int start = h.Find({"Start Time(us)", "Task Start Time(us)"});
//     if (auto ns = r.MicrosToNanos(start)) ...
//   }, &stats));
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "perfdx/base/status.h"
#include "perfdx/io/byte_source.h"

namespace perfdx::formats {

struct CsvOptions {
  // A file holding more bytes than this is an error (kLimitExceeded).
  uint64_t max_bytes = uint64_t{8} << 30;
  // A record longer than this ends the file with kLimitExceeded (no real
  // profiler writes one; a file without line ends would be read whole).
  size_t max_record_bytes = size_t{16} << 20;
  size_t chunk_bytes = size_t{1} << 20;
};

struct CsvStats {
  uint64_t records = 0;       // data records handed to the callback
  uint64_t short_rows = 0;    // fewer cells than the header: missing cells read as empty
  uint64_t long_rows = 0;     // more cells than the header: the extra cells are ignored
  uint64_t unterminated = 0;  // a quoted cell still open at the end of the file
  uint64_t blank_lines = 0;
};

// The header row: column names trimmed of spaces, tabs and the BOM.
class CsvHeader {
 public:
  CsvHeader() = default;
  explicit CsvHeader(std::vector<std::string> names) : names_(std::move(names)) {}

  // The column of the first spelling present (exact match, then ignoring
  // case), -1 when none is.
  int Find(std::initializer_list<std::string_view> spellings) const;
  int Find(std::string_view name) const { return Find({name}); }
  const std::vector<std::string>& names() const { return names_; }
  size_t size() const { return names_.size(); }

 private:
  std::vector<std::string> names_;
};

// One data record. Cells are views valid during the callback only.
class CsvRow {
 public:
  CsvRow(const std::vector<std::string>* cells, uint64_t line) : cells_(cells), line_(line) {}

  size_t size() const { return cells_->size(); }
  uint64_t line() const { return line_; }  // 1-based line where the record starts

  // The cell as written ("" for column -1 or a cell past the row's end).
  std::string_view Raw(int column) const;
  // Trimmed of spaces, tabs and CR; "N/A" reads as "".
  std::string_view Text(int column) const;
  // Text() without the one pair of double quotes torch_npu puts around
  // shapes ("\"32,3,224,224\"" -> "32,3,224,224").
  std::string_view Unquoted(int column) const;

  // Numbers: nullopt for empty, "N/A" and anything that is not a number.
  std::optional<int64_t> Int(int column) const;  // integral text only
  std::optional<double> Double(int column) const;
  // Exact decimal µs -> ns (never through a double).
  std::optional<int64_t> MicrosToNanos(int column) const;
  // Decimal value x 10^scale, exact (ms -> ns: 6).
  std::optional<int64_t> DecimalScaled(int column, int scale) const;
  // value x factor rounded to the nearest integer (MB -> bytes: 1048576).
  std::optional<int64_t> Scaled(int column, double factor) const;

 private:
  const std::vector<std::string>* cells_;
  uint64_t line_;
};

using CsvRowCallback = std::function<void(const CsvHeader&, const CsvRow&)>;

// Reads the header, then calls `on_row` for every data record. A file with
// no header (empty) calls nothing and succeeds.
Status ReadCsv(io::ByteSource& source, const CsvOptions& options, const CsvRowCallback& on_row,
               CsvStats* stats);

Status ReadCsvFile(const std::string& path, const io::ReadLimits& limits, const CsvOptions& options,
                   const CsvRowCallback& on_row, CsvStats* stats);

// Trims spaces, tabs, CR and LF at both ends.
std::string_view TrimCell(std::string_view s);

}  // namespace perfdx::formats
