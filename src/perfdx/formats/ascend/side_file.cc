#include "perfdx/formats/ascend/side_file.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "perfdx/base/decimal_time.h"
#include "perfdx/base/strings.h"

namespace perfdx::formats::side_file {

namespace fs = std::filesystem;
using model::AscendData;
using model::StringId;

AscendData& Ascend(model::Trace* trace) {
  if (!trace->ascend) trace->ascend.emplace();
  return *trace->ascend;
}

void Unreadable(model::Trace* trace, const std::string& message) {
  trace->load_stats.Add(model::LoadStat::kSideFileUnreadable);
  trace->load_stats.AddWarning(message);
}

StringId Intern(model::Trace* trace, std::string_view s) {
  return trace->strings.Intern(s);
}

std::vector<fs::path> FilesLike(const fs::path& dir, std::string_view prefix,
                                std::string_view suffix) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.starts_with(prefix) && name.ends_with(suffix) && entry.is_regular_file(ec)) {
      out.push_back(entry.path());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

bool ReadSideCsv(const fs::path& path, const AscendSideOptions& options, model::Trace* trace,
                 const SideRow& row) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return false;
  model::AscendSourceFile source;
  source.path = path.string();
  CsvStats stats;
  const Status status = ReadCsvFile(
      path.string(), options.limits, options.csv,
      [&](const CsvHeader& h, const CsvRow& r) {
        if (row(h, r)) {
          ++source.rows;
        } else {
          ++source.skipped;
        }
      },
      &stats);
  if (!status.ok())
    Unreadable(trace, fmt::format("{} (rows before it were kept)", status.message()));
  trace->load_stats.Add(model::LoadStat::kSideRowSkipped, source.skipped);
  Ascend(trace).sources.push_back(std::move(source));
  return true;
}

namespace {

Result<simdjson::dom::element> ParseJsonFile(const fs::path& path, const AscendSideOptions& options,
                                             simdjson::dom::parser& parser) {
  PERFDX_ASSIGN_OR_RETURN(auto source, io::OpenByteSource(path.string(), options.limits));
  PERFDX_ASSIGN_OR_RETURN(std::string text, io::ReadAll(*source, options.max_json_bytes));
  simdjson::dom::element doc;
  const auto error = parser.parse(simdjson::padded_string(SkipUtf8Bom(text))).get(doc);
  if (error) {
    return InvalidInput(
        fmt::format("{}: not valid JSON ({})", path.string(), simdjson::error_message(error)));
  }
  return doc;
}

}  // namespace

bool ReadSideJson(const fs::path& path, const AscendSideOptions& options, model::Trace* trace,
                  const std::function<void(simdjson::dom::element)>& parse) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return false;
  simdjson::dom::parser parser;
  auto doc = ParseJsonFile(path, options, parser);
  if (!doc.ok()) {
    Unreadable(trace, doc.status().message());
    return true;
  }
  parse(*doc);
  Ascend(trace).sources.push_back({path.string(), 1, 0});
  return true;
}

std::string ScalarText(simdjson::dom::element e) {
  switch (e.type()) {
    case simdjson::dom::element_type::STRING:
      return std::string(std::string_view(e));
    case simdjson::dom::element_type::INT64:
      return std::to_string(int64_t(e));
    case simdjson::dom::element_type::UINT64:
      return std::to_string(uint64_t(e));
    case simdjson::dom::element_type::DOUBLE:
      return fmt::format("{}", double(e));
    case simdjson::dom::element_type::BOOL:
      return bool(e) ? "true" : "false";
    case simdjson::dom::element_type::NULL_VALUE:
      return "";
    default:
      return simdjson::minify(e);
  }
}

std::optional<double> JsonNumber(simdjson::dom::element e) {
  double d = 0;
  if (e.get(d) == simdjson::SUCCESS) return d;
  int64_t i = 0;
  if (e.get(i) == simdjson::SUCCESS) return static_cast<double>(i);
  uint64_t u = 0;
  if (e.get(u) == simdjson::SUCCESS) return static_cast<double>(u);
  std::string_view s;
  if (e.get(s) == simdjson::SUCCESS) {
    const auto v = ParseDecimalScaled(s, 6);
    if (v) return static_cast<double>(*v) / 1e6;
  }
  return std::nullopt;
}

std::optional<int64_t> JsonInt(simdjson::dom::element e) {
  int64_t i = 0;
  if (e.get(i) == simdjson::SUCCESS) return i;
  uint64_t u = 0;
  if (e.get(u) == simdjson::SUCCESS && u <= static_cast<uint64_t>(INT64_MAX)) {
    return static_cast<int64_t>(u);
  }
  std::string_view s;
  if (e.get(s) == simdjson::SUCCESS) {
    const auto v = ParseDecimalScaled(s, 0);
    if (v) return v;
  }
  double d = 0;
  if (e.get(d) == simdjson::SUCCESS && std::fabs(d) < 9e18) return std::llround(d);
  return std::nullopt;
}

std::optional<bool> JsonBool(simdjson::dom::object o, std::string_view key) {
  bool b = false;
  if (o[key].get(b) == simdjson::SUCCESS) return b;
  return std::nullopt;
}

std::string JsonString(simdjson::dom::object o, std::string_view key) {
  simdjson::dom::element e;
  if (o[key].get(e) != simdjson::SUCCESS) return "";
  return ScalarText(e);
}

int64_t RoundToInt(double v) {
  return std::isfinite(v) && std::fabs(v) < 9e18 ? std::llround(v) : -1;
}

}  // namespace perfdx::formats::side_file
