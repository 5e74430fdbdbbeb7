#include "perfdx/formats/csv/csv_reader.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "perfdx/base/decimal_time.h"
#include "perfdx/base/strings.h"

namespace perfdx::formats {
namespace {

constexpr std::string_view kBom = "\xEF\xBB\xBF";

bool IsNotApplicable(std::string_view s) {
  return s.empty() || s == "N/A" || s == "NA" || s == "n/a" || s == "-" || s == "None";
}

// Pulls records out of a ByteSource. A record may span chunks: the buffer
// keeps everything from the start of the record being parsed, and the record
// is parsed again from its start once more bytes are in.
class RecordReader {
 public:
  RecordReader(io::ByteSource& source, const CsvOptions& options, CsvStats* stats)
      : source_(source), options_(options), stats_(stats) {}

  // Fills `cells` with the next record; false at the end of the input.
  Result<bool> Next(std::vector<std::string>* cells, uint64_t* line) {
    for (;;) {
      switch (ParseAt(cells)) {
        case ParseResult::kRecord:
          *line = record_line_;
          return true;
        case ParseResult::kBlank:
          ++stats_->blank_lines;
          continue;
        case ParseResult::kNeedMore:
          PERFDX_RETURN_IF_ERROR(Refill());
          continue;
        case ParseResult::kEnd:
          return false;
      }
    }
  }

 private:
  enum class ParseResult { kRecord, kBlank, kNeedMore, kEnd };

  Status Refill() {
    // Drop what earlier records consumed; keep the partial record.
    if (record_start_ > 0) {
      buffer_.erase(0, record_start_);
      dropped_bytes_ += record_start_;
      record_start_ = 0;
    }
    if (buffer_.size() > options_.max_record_bytes) {
      // The record being read starts at the buffer's first byte.
      return LimitExceeded(fmt::format(
          "{}: at byte {}: a CSV record longer than {} bytes starts here (a file without line "
          "ends, or a quote never closed?)",
          source_.path(), dropped_bytes_, options_.max_record_bytes));
    }
    const size_t old = buffer_.size();
    buffer_.resize(old + options_.chunk_bytes);
    PERFDX_ASSIGN_OR_RETURN(size_t n, source_.Read(buffer_.data() + old, options_.chunk_bytes));
    buffer_.resize(old + n);
    total_bytes_ += n;
    if (total_bytes_ > options_.max_bytes) {
      return LimitExceeded(
          fmt::format("{}: larger than {} bytes", source_.path(), options_.max_bytes));
    }
    if (n == 0) eof_ = true;
    if (!bom_checked_ && (buffer_.size() >= kBom.size() || eof_)) {
      bom_checked_ = true;
      if (std::string_view(buffer_).substr(0, kBom.size()) == kBom) {
        buffer_.erase(0, kBom.size());
        dropped_bytes_ += kBom.size();
      }
    }
    return Status::Ok();
  }

  // Parses one record starting at record_start_. Never returns kNeedMore
  // once the input has ended: a quoted cell open at the end is closed there.
  ParseResult ParseAt(std::vector<std::string>* cells) {
    if (!bom_checked_) return ParseResult::kNeedMore;
    const std::string_view b(buffer_);
    size_t i = record_start_;
    if (i >= b.size()) return eof_ ? ParseResult::kEnd : ParseResult::kNeedMore;
    cells->clear();
    std::string cell;
    bool in_quotes = false;
    bool cell_started = false;  // a quote opens a quoted cell only at its start
    uint64_t newlines = 0;
    while (i < b.size()) {
      const char c = b[i];
      if (in_quotes) {
        if (c == '"') {
          if (i + 1 >= b.size() && !eof_) return ParseResult::kNeedMore;
          if (i + 1 < b.size() && b[i + 1] == '"') {
            cell.push_back('"');
            i += 2;
            continue;
          }
          in_quotes = false;
          ++i;
          continue;
        }
        if (c == '\n') ++newlines;
        cell.push_back(c);
        ++i;
        continue;
      }
      if (c == ',') {
        cells->push_back(std::move(cell));
        cell.clear();
        cell_started = false;
        ++i;
        continue;
      }
      if (c == '\n' || c == '\r') {
        if (c == '\r') {
          if (i + 1 >= b.size() && !eof_) return ParseResult::kNeedMore;
          if (i + 1 < b.size() && b[i + 1] == '\n') ++i;
        }
        return EndRecord(cells, std::move(cell), i + 1, newlines + 1);
      }
      if (c == '"' && !cell_started) {
        in_quotes = true;
        cell_started = true;
        ++i;
        continue;
      }
      cell_started = true;
      cell.push_back(c);
      ++i;
    }
    if (!eof_) return ParseResult::kNeedMore;
    if (in_quotes) ++stats_->unterminated;
    return EndRecord(cells, std::move(cell), i, newlines);
  }

  ParseResult EndRecord(std::vector<std::string>* cells, std::string last, size_t next,
                        uint64_t newlines) {
    const bool blank = cells->empty() && last.empty();
    cells->push_back(std::move(last));
    record_line_ = line_;
    line_ += newlines;
    record_start_ = next;
    return blank ? ParseResult::kBlank : ParseResult::kRecord;
  }

  io::ByteSource& source_;
  const CsvOptions& options_;
  CsvStats* stats_;
  std::string buffer_;
  size_t record_start_ = 0;
  uint64_t total_bytes_ = 0;
  uint64_t dropped_bytes_ = 0;  // bytes of the input before buffer_[0]
  uint64_t line_ = 1;
  uint64_t record_line_ = 1;
  bool eof_ = false;
  bool bom_checked_ = false;
};

}  // namespace

std::string_view TrimCell(std::string_view s) {
  auto space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  while (!s.empty() && space(s.front())) s.remove_prefix(1);
  while (!s.empty() && space(s.back())) s.remove_suffix(1);
  return s;
}

int CsvHeader::Find(std::initializer_list<std::string_view> spellings) const {
  for (std::string_view want : spellings) {
    for (size_t c = 0; c < names_.size(); ++c) {
      if (names_[c] == want) return static_cast<int>(c);
    }
  }
  for (std::string_view want : spellings) {
    for (size_t c = 0; c < names_.size(); ++c) {
      if (EqualsNoCase(names_[c], want)) return static_cast<int>(c);
    }
  }
  return -1;
}

std::string_view CsvRow::Raw(int column) const {
  if (column < 0 || static_cast<size_t>(column) >= cells_->size()) return {};
  return (*cells_)[static_cast<size_t>(column)];
}

std::string_view CsvRow::Text(int column) const {
  const std::string_view t = TrimCell(Raw(column));
  return IsNotApplicable(t) ? std::string_view() : t;
}

std::string_view CsvRow::Unquoted(int column) const {
  std::string_view t = Text(column);
  if (t.size() >= 2 && t.front() == '"' && t.back() == '"') t = TrimCell(t.substr(1, t.size() - 2));
  return IsNotApplicable(t) ? std::string_view() : t;
}

std::optional<int64_t> CsvRow::Int(int column) const {
  const std::string_view t = Text(column);
  if (t.empty()) return std::nullopt;
  int64_t v = 0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec == std::errc() && end == t.data() + t.size()) return v;
  // "32.0": integral values some writers print as decimals.
  const auto scaled = ParseDecimalScaled(t, 3);
  if (!scaled || *scaled % 1000 != 0) return std::nullopt;
  return *scaled / 1000;
}

std::optional<double> CsvRow::Double(int column) const {
  const std::string_view t = Text(column);
  if (t.empty()) return std::nullopt;
  double v = 0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec != std::errc() || end != t.data() + t.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

std::optional<int64_t> CsvRow::MicrosToNanos(int column) const {
  return DecimalScaled(column, 3);
}

std::optional<int64_t> CsvRow::DecimalScaled(int column, int scale) const {
  const std::string_view t = Text(column);
  if (t.empty()) return std::nullopt;
  return ParseDecimalScaled(t, scale);
}

std::optional<int64_t> CsvRow::Scaled(int column, double factor) const {
  const auto v = Double(column);
  if (!v) return std::nullopt;
  const double scaled = std::round(*v * factor);
  if (!(std::fabs(scaled) < 9.2e18)) return std::nullopt;
  return static_cast<int64_t>(scaled);
}

Status ReadCsv(io::ByteSource& source, const CsvOptions& options, const CsvRowCallback& on_row,
               CsvStats* stats) {
  CsvStats local;
  if (stats == nullptr) stats = &local;
  RecordReader reader(source, options, stats);
  std::vector<std::string> cells;
  uint64_t line = 0;
  PERFDX_ASSIGN_OR_RETURN(bool have_header, reader.Next(&cells, &line));
  if (!have_header) return Status::Ok();
  std::vector<std::string> names;
  names.reserve(cells.size());
  for (const std::string& c : cells) names.emplace_back(TrimCell(c));
  const CsvHeader header(std::move(names));
  for (;;) {
    PERFDX_ASSIGN_OR_RETURN(bool have, reader.Next(&cells, &line));
    if (!have) break;
    if (cells.size() < header.size()) ++stats->short_rows;
    if (cells.size() > header.size()) ++stats->long_rows;
    ++stats->records;
    on_row(header, CsvRow(&cells, line));
  }
  return Status::Ok();
}

Status ReadCsvFile(const std::string& path, const io::ReadLimits& limits, const CsvOptions& options,
                   const CsvRowCallback& on_row, CsvStats* stats) {
  PERFDX_ASSIGN_OR_RETURN(auto source, io::OpenByteSource(path, limits));
  // Every message of the reader and the source names the file already.
  return ReadCsv(*source, options, on_row, stats);
}

}  // namespace perfdx::formats
