// Reading one Ascend side file (a CSV or JSON file beside the timeline) into
// Trace::ascend: the options, the load statistics of a file that cannot be
// read, and the JSON conversions every side-file parser shares. The readers
// of the profile folder (formats/ascend), of msprof's PROF_* folder
// (formats/msprof) and the DB importer (formats/ascend_db) use these.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <simdjson.h>

#include "perfdx/formats/csv/csv_reader.h"
#include "perfdx/io/byte_source.h"
#include "perfdx/model/trace.h"

namespace perfdx::formats {

struct AscendSideOptions {
  io::ReadLimits limits;
  CsvOptions csv;
  uint64_t max_json_bytes = uint64_t{1} << 30;  // profiler_info, communication*.json
};

// Helpers of the side-file readers; not an interface of the formats module.
namespace side_file {

// trace->ascend, created empty when absent.
model::AscendData& Ascend(model::Trace* trace);

// Counts a side file that cannot be read (kSideFileUnreadable) and warns.
void Unreadable(model::Trace* trace, const std::string& message);

model::StringId Intern(model::Trace* trace, std::string_view s);

// Files of `dir` whose names start with `prefix` and end with `suffix`, by
// name (msprof writes op_summary_{ts}.csv, or op_summary_slice_{n}_{ts}.csv).
std::vector<std::filesystem::path> FilesLike(const std::filesystem::path& dir,
                                             std::string_view prefix, std::string_view suffix);

// Reads one CSV side file; `row` returns false for a row it skipped. Returns
// false when the file does not exist.
using SideRow = std::function<bool(const CsvHeader&, const CsvRow&)>;
bool ReadSideCsv(const std::filesystem::path& path, const AscendSideOptions& options,
                 model::Trace* trace, const SideRow& row);

// Reads one JSON side file with `parse`; false when the file is absent.
bool ReadSideJson(const std::filesystem::path& path, const AscendSideOptions& options,
                  model::Trace* trace, const std::function<void(simdjson::dom::element)>& parse);

// A JSON scalar as text: strings as they are, numbers and booleans as
// written by a minimal printer ("1", "0.5", "true").
std::string ScalarText(simdjson::dom::element e);
std::optional<double> JsonNumber(simdjson::dom::element e);
std::optional<int64_t> JsonInt(simdjson::dom::element e);
std::optional<bool> JsonBool(simdjson::dom::object o, std::string_view key);
std::string JsonString(simdjson::dom::object o, std::string_view key);
// -1 when `v` is not finite or out of int64_t's range.
int64_t RoundToInt(double v);

}  // namespace side_file
}  // namespace perfdx::formats
