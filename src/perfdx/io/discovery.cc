#include "perfdx/io/discovery.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <system_error>

#include <fmt/format.h>

#include "perfdx/io/byte_source.h"

namespace perfdx::io {
namespace fs = std::filesystem;
namespace {

constexpr int kMaxFolderDepth = 4;
constexpr size_t kSniffBytes = 4096;

bool EndsWith(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

bool HasTraceExtension(const std::string& name) {
  return EndsWith(name, ".json") || EndsWith(name, ".json.gz") || EndsWith(name, ".json.zst");
}

// Files of Ascend profiles and peer tools that are JSON but not traces.
bool IsKnownNonTrace(const std::string& name) {
  static constexpr std::string_view kPrefixes[] = {
      "profiler_info", "profiler_metadata", "communication", "cluster_", "step_trace",
      "kernel_details", "operator_", "memory_", "op_statistic", "api_statistic"};
  return std::any_of(std::begin(kPrefixes), std::end(kPrefixes),
                     [&](std::string_view p) { return name.rfind(p, 0) == 0; });
}

// Does the file start like a Chrome trace? Reads at most a few KB.
bool LooksLikeTrace(const std::string& path) {
  auto source = OpenByteSource(path);
  if (!source.ok()) return false;
  std::string head(kSniffBytes, '\0');
  size_t have = 0;
  while (have < head.size()) {
    auto n = (*source)->Read(head.data() + have, head.size() - have);
    if (!n.ok() || *n == 0) break;
    have += *n;
  }
  head.resize(have);
  const size_t first = head.find_first_not_of(" \t\r\n\xEF\xBB\xBF");
  if (first == std::string::npos) return false;
  if (head[first] == '[') return head.find("\"ph\"") != std::string::npos || have < 64;
  if (head[first] == '{') {
    return head.find("\"traceEvents\"") != std::string::npos ||
           head.find("\"schemaVersion\"") != std::string::npos ||
           head.find("\"deviceProperties\"") != std::string::npos;
  }
  return false;
}

bool IsAscendProfileDir(const fs::path& dir) {
  const std::string name = dir.filename().string();
  std::error_code ec;
  return EndsWith(name, "_ascend_pt") || EndsWith(name, "_ascend_ms") ||
         fs::is_directory(dir / "ASCEND_PROFILER_OUTPUT", ec);
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
  input.framework = EndsWith(dir.filename().string(), "_ascend_ms") ? "mindspore" : "torch_npu";
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    // profiler_info_{rank}.json names the rank (torch_npu writes it per rank).
    if (name.rfind("profiler_info_", 0) == 0 && EndsWith(name, ".json")) {
      const std::string digits = name.substr(14, name.size() - 14 - 5);
      if (auto rank = ParseDigits(digits)) input.rank_hint = rank;
    }
  }
  const fs::path trace = dir / "ASCEND_PROFILER_OUTPUT" / "trace_view.json";
  if (fs::is_regular_file(trace, ec)) {
    input.trace_path = trace.string();
    return input;
  }
  discovery->warnings.push_back(fmt::format(
      "{}: no ASCEND_PROFILER_OUTPUT/trace_view.json (a DB-only export is not read yet); skipped",
      dir.string()));
  return NotFound(dir.string());
}

void Walk(const fs::path& dir, int depth, Discovery* discovery) {
  std::error_code ec;
  std::vector<fs::path> entries;
  for (const auto& entry : fs::directory_iterator(dir, ec)) entries.push_back(entry.path());
  if (ec) {
    discovery->warnings.push_back(fmt::format("{}: cannot list: {}", dir.string(), ec.message()));
    return;
  }
  std::sort(entries.begin(), entries.end());
  for (const fs::path& p : entries) {
    if (fs::is_directory(p, ec)) {
      if (IsAscendProfileDir(p)) {
        auto input = AscendInput(p, discovery);
        if (input.ok()) discovery->inputs.push_back(std::move(*input));
      } else if (depth < kMaxFolderDepth) {
        Walk(p, depth + 1, discovery);
      }
      continue;
    }
    const std::string name = p.filename().string();
    if (!HasTraceExtension(name) || IsKnownNonTrace(name)) continue;
    if (!LooksLikeTrace(p.string())) continue;
    TraceInput input;
    input.trace_path = p.string();
    input.rank_hint = RankFromFileName(name);
    discovery->inputs.push_back(std::move(input));
  }
}

}  // namespace

std::optional<int64_t> RankFromFileName(const std::string& name) {
  std::string lower(name);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  for (size_t pos = lower.find("rank"); pos != std::string::npos; pos = lower.find("rank", pos + 1)) {
    size_t i = pos + 4;
    if (i < lower.size() && (lower[i] == '-' || lower[i] == '_')) ++i;
    size_t j = i;
    while (j < lower.size() && std::isdigit(static_cast<unsigned char>(lower[j]))) ++j;
    if (auto v = ParseDigits(std::string_view(lower).substr(i, j - i))) return v;
  }
  return std::nullopt;
}

Result<Discovery> DiscoverInputs(const std::vector<std::string>& paths) {
  Discovery discovery;
  for (const std::string& raw : paths) {
    fs::path path(raw);
    std::error_code ec;
    if (!fs::exists(path, ec)) return NotFound(fmt::format("{}: no such file or folder", raw));
    if (fs::is_directory(path, ec)) {
      if (path.filename() == "ASCEND_PROFILER_OUTPUT") path = path.parent_path();
      if (IsAscendProfileDir(path)) {
        auto input = AscendInput(path, &discovery);
        if (!input.ok()) return InvalidInput(discovery.warnings.back());
        discovery.inputs.push_back(std::move(*input));
        continue;
      }
      const size_t before = discovery.inputs.size();
      Walk(path, 0, &discovery);
      if (discovery.inputs.size() == before) {
        return NotFound(fmt::format("{}: no profiler traces found in this folder", raw));
      }
      continue;
    }
    TraceInput input;
    input.trace_path = path.string();
    input.rank_hint = RankFromFileName(path.filename().string());
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
