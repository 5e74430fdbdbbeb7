#include "perfdx/io/discovery.h"

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <system_error>
#include <utility>

#include <fmt/format.h>

#include "perfdx/base/strings.h"
#include "perfdx/io/byte_source.h"
#include "perfdx/io/sqlite.h"

namespace perfdx::io {
namespace fs = std::filesystem;
namespace {

constexpr size_t kSniffBytes = 4096;

// What a walk carries: the files and folders already taken (by device and
// inode, so two names of one file are one input) and the entries looked at.
struct WalkState {
  Discovery* discovery = nullptr;
  DiscoveryLimits limits;
  std::map<std::pair<dev_t, ino_t>, std::string> seen;
  size_t entries = 0;
};

// False (with a warning) when `path` names a file or folder already taken.
bool FirstTime(const fs::path& path, WalkState* state) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return true;  // the reader reports it
  auto [it, inserted] = state->seen.emplace(std::pair(st.st_dev, st.st_ino), path.string());
  if (!inserted) {
    state->discovery->warnings.push_back(
        fmt::format("{}: the same file as {}; read once", path.string(), it->second));
  }
  return inserted;
}

bool HasTraceExtension(const std::string& name) {
  return name.ends_with(".json") || name.ends_with(".json.gz") || name.ends_with(".json.zst");
}

// Files of Ascend profiles and peer tools that are JSON but not traces.
bool IsKnownNonTrace(const std::string& name) {
  static constexpr std::string_view kPrefixes[] = {
      "profiler_info",  "profiler_metadata", "communication", "cluster_",     "step_trace",
      "kernel_details", "operator_",         "memory_",       "op_statistic", "api_statistic"};
  return std::any_of(std::begin(kPrefixes), std::end(kPrefixes),
                     [&](std::string_view p) { return name.rfind(p, 0) == 0; });
}

// kNotJson: named like a trace, but empty or not JSON at all (a rank file
// cut to nothing, a .gz that is not gzip): worth a warning, where a JSON file
// that is not a trace (a config) is skipped without one.
enum class Sniffed { kTrace, kNotTrace, kNotJson, kUnreadable };

struct Sniff {
  Sniffed what = Sniffed::kNotTrace;
  std::string why;  // for kNotJson
};

// Does the file start like a Chrome trace? Reads at most a few KB.
Sniff SniffTrace(const std::string& path) {
  auto source = OpenByteSource(path);
  if (!source.ok()) {
    return {source.status().code() == StatusCode::kIoError ? Sniffed::kUnreadable
                                                           : Sniffed::kNotTrace};
  }
  std::string head(kSniffBytes, '\0');
  size_t have = 0;
  while (have < head.size()) {
    auto n = (*source)->Read(head.data() + have, head.size() - have);
    // Damaged compressed bytes: an input all the same, so that the loader
    // names the file and the offset.
    if (!n.ok()) return {Sniffed::kUnreadable};
    if (*n == 0) break;
    have += *n;
  }
  head.resize(have);
  const size_t first = head.find_first_not_of(" \t\r\n\xEF\xBB\xBF");
  if (first == std::string::npos) {
    return {Sniffed::kNotJson, have == 0 ? "empty" : "only white space"};
  }
  if (head[first] != '[' && head[first] != '{') {
    const unsigned char c = static_cast<unsigned char>(head[first]);
    return {Sniffed::kNotJson, c >= 0x20 && c < 0x7f
                                   ? fmt::format("starts with '{}' at byte {}", head[first], first)
                                   : fmt::format("starts with byte 0x{:02x} at byte {}", c, first)};
  }
  bool trace = false;
  if (head[first] == '[') trace = head.find("\"ph\"") != std::string::npos || have < 64;
  if (head[first] == '{') {
    trace = head.find("\"traceEvents\"") != std::string::npos ||
            head.find("\"schemaVersion\"") != std::string::npos ||
            head.find("\"deviceProperties\"") != std::string::npos;
  }
  return {trace ? Sniffed::kTrace : Sniffed::kNotTrace};
}

bool IsAscendProfileDir(const fs::path& dir) {
  const std::string name = dir.filename().string();
  std::error_code ec;
  return name.ends_with("_ascend_pt") || name.ends_with("_ascend_ms") ||
         fs::is_directory(dir / "ASCEND_PROFILER_OUTPUT", ec);
}

// msprof's own output folder: PROF_{digits}_{digits}_{word}.
bool IsMsprofDir(const fs::path& dir) {
  std::error_code ec;
  return dir.filename().string().rfind("PROF_", 0) == 0 &&
         fs::is_directory(dir / "mindstudio_profiler_output", ec);
}

bool IsAllDigits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c));
  });
}

// ascend_pytorch_profiler.db, ascend_pytorch_profiler_{rank}.db and the
// MindSpore spelling (msprof-analyze's regexes); rank is the suffix.
bool IsAscendDbName(const std::string& name, std::optional<int64_t>* rank) {
  for (std::string_view stem : {"ascend_pytorch_profiler", "ascend_mindspore_profiler"}) {
    if (name.rfind(stem, 0) != 0 || !name.ends_with(".db")) continue;
    const std::string_view rest =
        std::string_view(name).substr(stem.size(), name.size() - stem.size() - 3);
    if (rest.empty()) return true;
    if (rest[0] == '_' && IsAllDigits(rest.substr(1)) && rest.size() <= 10) {
      int64_t v = 0;
      for (char c : rest.substr(1)) v = v * 10 + (c - '0');
      *rank = v;
      return true;
    }
  }
  return false;
}

// The profilers' own analyses, never a source (perfdx computes them).
bool IsAnalysisDb(const std::string& name) {
  return name == "analysis.db" || name == "communication_analyzer.db" ||
         name.rfind("cluster_analysis", 0) == 0;
}

std::optional<int64_t> ParseDigits(std::string_view s) {
  if (s.empty() || s.size() > 9) return std::nullopt;
  int64_t v = 0;
  for (char c : s) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
    v = v * 10 + (c - '0');
  }
  return v;
}

Result<TraceInput> AscendInput(const fs::path& dir, Discovery* discovery) {
  TraceInput input;
  input.kind = InputKind::kAscendProfile;
  input.profile_dir = dir.string();
  input.framework = dir.filename().string().ends_with("_ascend_ms") ? "mindspore" : "torch_npu";
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    // profiler_info_{rank}.json names the rank (torch_npu writes it per rank).
    if (name.rfind("profiler_info_", 0) == 0 && name.ends_with(".json")) {
      const std::string digits = name.substr(14, name.size() - 14 - 5);
      if (auto rank = ParseDigits(digits)) input.rank_hint = rank;
    }
  }
  const fs::path output = dir / "ASCEND_PROFILER_OUTPUT";
  const fs::path trace = output / "trace_view.json";
  if (fs::is_regular_file(trace, ec)) {
    input.trace_path = trace.string();
    return input;
  }
  // The DB export (export_type db): the same data in SQLite.
  std::vector<fs::path> dbs;
  for (const auto& entry : fs::directory_iterator(output, ec)) {
    std::optional<int64_t> rank;
    if (IsAscendDbName(entry.path().filename().string(), &rank) &&
        fs::is_regular_file(entry.path(), ec)) {
      dbs.push_back(entry.path());
      if (!input.rank_hint) input.rank_hint = rank;
    }
  }
  if (!dbs.empty()) {
    std::sort(dbs.begin(), dbs.end());
    input.kind = InputKind::kAscendDb;
    input.trace_path = dbs.front().string();
    if (dbs.size() > 1) {
      discovery->warnings.push_back(
          fmt::format("{}: several profiler DBs; reading {}", output.string(), input.trace_path));
    }
    return input;
  }
  discovery->warnings.push_back(fmt::format(
      "{}: neither ASCEND_PROFILER_OUTPUT/trace_view.json nor an ascend_*_profiler_{{rank}}.db; "
      "skipped",
      dir.string()));
  return NotFound(dir.string());
}

// The rank msprof recorded: "rank_id" in device_{id}/info.json.{id}
// (-1 when not distributed). A text scan: the file is small and flat.
std::optional<int64_t> MsprofRank(const fs::path& prof_dir) {
  std::error_code ec;
  for (const auto& dev : fs::directory_iterator(prof_dir, ec)) {
    if (dev.path().filename().string().rfind("device_", 0) != 0) continue;
    for (const auto& f : fs::directory_iterator(dev.path(), ec)) {
      const std::string name = f.path().filename().string();
      if (name.rfind("info.json", 0) != 0 || name.ends_with(".done")) continue;
      auto source = OpenByteSource(f.path().string());
      if (!source.ok()) continue;
      auto text = ReadAll(**source, 1 << 20);
      if (!text.ok()) continue;
      const size_t key = text->find("\"rank_id\"");
      if (key == std::string::npos) continue;
      size_t i = text->find(':', key);
      if (i == std::string::npos) continue;
      ++i;
      while (i < text->size() && ((*text)[i] == ' ' || (*text)[i] == '"')) ++i;
      size_t j = i;
      while (j < text->size() && std::isdigit(static_cast<unsigned char>((*text)[j]))) ++j;
      if (auto rank = ParseDigits(std::string_view(*text).substr(i, j - i))) return rank;
    }
  }
  return std::nullopt;
}

Result<TraceInput> MsprofInput(const fs::path& dir, Discovery* discovery) {
  TraceInput input;
  input.kind = InputKind::kMsprofProfile;
  input.profile_dir = dir.string();
  input.framework = "msprof";
  std::vector<fs::path> traces;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir / "mindstudio_profiler_output", ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("msprof_", 0) == 0 && name.ends_with(".json") &&
        fs::is_regular_file(entry.path(), ec)) {
      traces.push_back(entry.path());
    }
  }
  if (traces.empty()) {
    discovery->warnings.push_back(fmt::format(
        "{}: no mindstudio_profiler_output/msprof_*.json (run msprof --export=on); skipped",
        dir.string()));
    return NotFound(dir.string());
  }
  std::sort(traces.begin(), traces.end());
  input.trace_path = traces.front().string();
  for (size_t k = 1; k < traces.size(); ++k) input.more_trace_paths.push_back(traces[k].string());
  input.rank_hint = MsprofRank(dir);
  return input;
}

Status Walk(const fs::path& dir, int depth, WalkState* state) {
  Discovery* discovery = state->discovery;
  std::error_code ec;
  std::vector<fs::path> entries;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (++state->entries > state->limits.max_entries) {
      return LimitExceeded(
          fmt::format("{}: more than {} files and folders below it; name the rank files or folders "
                      "themselves",
                      dir.string(), state->limits.max_entries));
    }
    entries.push_back(entry.path());
  }
  if (ec) {
    discovery->warnings.push_back(fmt::format("{}: cannot list: {}", dir.string(), ec.message()));
    return Status::Ok();
  }
  std::sort(entries.begin(), entries.end());
  for (const fs::path& p : entries) {
    const fs::file_status link = fs::symlink_status(p, ec);
    const fs::file_status target = fs::status(p, ec);
    if (fs::is_directory(target)) {
      // A link to a folder can lead back up the tree or across the whole
      // file system: not followed (a folder named explicitly is).
      if (fs::is_symlink(link)) {
        discovery->warnings.push_back(fmt::format(
            "{}: a link to a folder, not followed; name the folder itself", p.string()));
        continue;
      }
      if (!FirstTime(p, state)) continue;
      if (IsAscendProfileDir(p)) {
        auto input = AscendInput(p, discovery);
        if (input.ok()) discovery->inputs.push_back(std::move(*input));
      } else if (IsMsprofDir(p)) {
        auto input = MsprofInput(p, discovery);
        if (input.ok()) discovery->inputs.push_back(std::move(*input));
      } else if (depth < state->limits.max_depth) {
        PERFDX_RETURN_IF_ERROR(Walk(p, depth + 1, state));
      }
      continue;
    }
    if (!fs::exists(target)) continue;  // a dangling link
    if (!fs::is_regular_file(target)) {
      discovery->warnings.push_back(
          fmt::format("{}: {}, not a file; skipped", p.string(), SpecialFileKind(p.string())));
      continue;
    }
    const std::string name = p.filename().string();
    if (!HasTraceExtension(name) || IsKnownNonTrace(name)) continue;
    // A rank file that cannot be read is an input all the same: the loader
    // names it and the OS's reason, as for any rank it cannot read.
    const Sniff sniff = SniffTrace(p.string());
    if (sniff.what == Sniffed::kNotTrace) continue;
    if (sniff.what == Sniffed::kNotJson) {
      discovery->warnings.push_back(
          fmt::format("{}: named like a trace but not JSON ({}); skipped", p.string(), sniff.why));
      continue;
    }
    if (!FirstTime(p, state)) continue;
    TraceInput input;
    input.trace_path = p.string();
    input.rank_hint = RankFromFileName(name);
    discovery->inputs.push_back(std::move(input));
  }
  return Status::Ok();
}

}  // namespace

std::optional<int64_t> RankFromFileName(const std::string& name) {
  const std::string lower = AsciiLower(name);
  for (size_t pos = lower.find("rank"); pos != std::string::npos;
       pos = lower.find("rank", pos + 1)) {
    size_t i = pos + 4;
    if (i < lower.size() && (lower[i] == '-' || lower[i] == '_')) ++i;
    size_t j = i;
    while (j < lower.size() && std::isdigit(static_cast<unsigned char>(lower[j]))) ++j;
    if (auto v = ParseDigits(std::string_view(lower).substr(i, j - i))) return v;
  }
  return std::nullopt;
}

Result<Discovery> DiscoverInputs(const std::vector<std::string>& paths,
                                 const DiscoveryLimits& limits) {
  Discovery discovery;
  WalkState state;
  state.discovery = &discovery;
  state.limits = limits;
  bool stdin_taken = false;
  for (const std::string& raw : paths) {
    if (raw == kStdinPath) {
      if (stdin_taken) return InvalidInput("-: standard input named twice; it can be read once");
      stdin_taken = true;
      TraceInput input;
      input.trace_path = kStdinName;
      input.from_stdin = true;
      discovery.inputs.push_back(std::move(input));
      continue;
    }
    fs::path path(raw);
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (!fs::exists(status)) return NotFound(fmt::format("{}: no such file or folder", raw));
    if (!fs::is_directory(status) && !fs::is_regular_file(status)) {
      // Opening a pipe would block until a writer comes: refused, never read.
      return InvalidInput(fmt::format("{}: {}, not a file; perfdx reads regular files and folders",
                                      raw, SpecialFileKind(raw)));
    }
    if (fs::is_directory(status)) {
      if (path.filename() == "ASCEND_PROFILER_OUTPUT") path = path.parent_path();
      if (path.filename() == "mindstudio_profiler_output") path = path.parent_path();
      if (!FirstTime(path, &state)) continue;
      if (IsAscendProfileDir(path)) {
        auto input = AscendInput(path, &discovery);
        if (!input.ok()) return InvalidInput(discovery.warnings.back());
        discovery.inputs.push_back(std::move(*input));
        continue;
      }
      if (IsMsprofDir(path)) {
        auto input = MsprofInput(path, &discovery);
        if (!input.ok()) return InvalidInput(discovery.warnings.back());
        discovery.inputs.push_back(std::move(*input));
        continue;
      }
      const size_t before = discovery.inputs.size();
      state.entries = 0;
      PERFDX_RETURN_IF_ERROR(Walk(path, 0, &state));
      if (discovery.inputs.size() == before) {
        return NotFound(fmt::format("{}: no profiler traces found in this folder", raw));
      }
      continue;
    }
    if (!FirstTime(path, &state)) continue;
    TraceInput input;
    input.trace_path = path.string();
    input.rank_hint = RankFromFileName(path.filename().string());
    const std::string file_name = path.filename().string();
    if (IsAnalysisDb(file_name)) {
      return InvalidInput(fmt::format(
          "{}: the profiler's own analysis, not a profile; name the profile folder or its "
          "ascend_*_profiler_{{rank}}.db",
          raw));
    }
    // A kernel table named directly (kernel_details.csv, op_summary_*.csv):
    // the device tasks alone. Folders are not searched for CSVs: inside a
    // profile they are side files of its timeline.
    if (file_name.ends_with(".csv")) {
      input.kind = InputKind::kAscendKernelCsv;
      input.framework = file_name.rfind("op_summary", 0) == 0 ? "msprof" : "torch_npu";
      discovery.inputs.push_back(std::move(input));
      continue;
    }
    // A DB export named directly: read it as its profile folder would be.
    std::optional<int64_t> db_rank;
    if (IsAscendDbName(file_name, &db_rank) ||
        (file_name.ends_with(".db") && LooksLikeSqlite(path.string()))) {
      input.kind = InputKind::kAscendDb;
      if (db_rank) input.rank_hint = db_rank;
      const fs::path folder = path.parent_path().parent_path();
      if (path.parent_path().filename() == "ASCEND_PROFILER_OUTPUT" && IsAscendProfileDir(folder)) {
        input.profile_dir = folder.string();
        input.framework =
            folder.filename().string().ends_with("_ascend_ms") ? "mindspore" : "torch_npu";
        for (const auto& entry : fs::directory_iterator(folder, ec)) {
          const std::string name = entry.path().filename().string();
          if (name.rfind("profiler_info_", 0) == 0 && name.ends_with(".json")) {
            if (auto rank = ParseDigits(name.substr(14, name.size() - 14 - 5)))
              input.rank_hint = rank;
          }
        }
      }
      discovery.inputs.push_back(std::move(input));
      continue;
    }
    // trace_view.json inside an Ascend profile: read it as that profile.
    const fs::path parent = path.parent_path();
    if (path.filename() == "trace_view.json" && parent.filename() == "ASCEND_PROFILER_OUTPUT") {
      auto ascend = AscendInput(parent.parent_path(), &discovery);
      if (ascend.ok()) {
        discovery.inputs.push_back(std::move(*ascend));
        continue;
      }
    }
    discovery.inputs.push_back(std::move(input));
  }
  return discovery;
}

}  // namespace perfdx::io
