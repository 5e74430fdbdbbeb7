#include "perfdx/baseline/record/run_input.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <thread>

#include <fmt/format.h>
#include <fmt/ranges.h>  // fmt::join

#include "perfdx/baseline/record/report_run.h"
#include "perfdx/baseline/record/step_log.h"
#include "perfdx/baseline/record/trace_run.h"
#include "perfdx/version.h"

namespace perfdx::baseline {
namespace {

namespace fs = std::filesystem;

constexpr size_t kSniffBytes = 64 * 1024;
// Reports and step logs are read whole; a file this large is surely neither.
constexpr uintmax_t kMaxTextInputBytes = uintmax_t{2} << 30;

Result<std::string> ReadHead(const std::string& path, size_t bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return IoError(fmt::format("{}: cannot open: {}", path, std::strerror(errno)));
  std::string head(bytes, '\0');
  in.read(head.data(), static_cast<std::streamsize>(bytes));
  head.resize(static_cast<size_t>(in.gcount()));
  return head;
}

Result<std::string> ReadWhole(const std::string& path) {
  std::error_code ec;
  const uintmax_t size = fs::file_size(path, ec);
  if (ec) return IoError(fmt::format("{}: {}", path, ec.message()));
  if (size > kMaxTextInputBytes) {
    return LimitExceeded(
        fmt::format("{}: {} bytes is too large for a report or step log", path, size));
  }
  return ReadHead(path, static_cast<size_t>(size));
}

Result<RunRecord> LoadTraceRun(const std::string& path, const RunInputOptions& options) {
  PERFDX_ASSIGN_OR_RETURN(formats::LoadedTraces loaded, formats::LoadTraces({path}, options.load));
  if (loaded.traces.empty()) return NotFound(fmt::format("{}: no trace found", path));
  const model::Trace* chosen = nullptr;
  std::vector<std::string> ranks;
  for (const model::Trace& t : loaded.traces) {
    ranks.push_back(t.info.rank ? fmt::format("{}", *t.info.rank) : "?");
    if (!chosen && (!options.rank || t.info.rank == options.rank)) chosen = &t;
  }
  if (!chosen) {
    return NotFound(
        fmt::format("{}: no rank {} (ranks: {})", path, *options.rank, fmt::join(ranks, ", ")));
  }
  const analysis::RankAnalysis analysis = analysis::AnalyzeRank(*chosen, options.analysis);
  RunRecord record = RecordFromAnalysis(analysis);
  if (loaded.traces.size() > 1 && !options.rank) {
    record.notes.push_back(fmt::format("{} ranks loaded; using rank {} (--rank to choose)",
                                       loaded.traces.size(), ranks.front()));
  }
  for (std::string& w : loaded.warnings) record.notes.push_back(std::move(w));
  // The trace was read, so its file is there; if it cannot be hashed after
  // all, the run is still worth keeping.
  Result<std::string> fingerprint = FingerprintFile(chosen->info.path);
  if (fingerprint.ok()) {
    record.fingerprint = std::move(*fingerprint);
  } else {
    record.notes.push_back(fmt::format("no fingerprint: {}", fingerprint.status().message()));
  }
  return record;
}

}  // namespace

std::string_view InputFormatName(InputFormat format) {
  switch (format) {
    case InputFormat::kTrace:
      return "trace";
    case InputFormat::kReport:
      return "report";
    case InputFormat::kStepLog:
      return "step_log";
  }
  return "trace";
}

Result<InputFormat> SniffInput(const std::string& path) {
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (ec || !fs::exists(status)) return NotFound(fmt::format("{}: no such file or folder", path));
  if (fs::is_directory(status)) return InputFormat::kTrace;
  if (path.ends_with(".jsonl") || path.ends_with(".ndjson")) return InputFormat::kStepLog;
  PERFDX_ASSIGN_OR_RETURN(std::string head, ReadHead(path, kSniffBytes));
  if (LooksLikeStepLog(head)) return InputFormat::kStepLog;
  if (LooksLikeAnalyzeReport(head)) return InputFormat::kReport;
  return InputFormat::kTrace;  // compressed or Chrome JSON; the importer judges
}

Result<RunRecord> LoadRunInput(const std::string& path, const RunInputOptions& options) {
  PERFDX_ASSIGN_OR_RETURN(const InputFormat format, SniffInput(path));
  RunRecord record;
  switch (format) {
    case InputFormat::kTrace: {
      PERFDX_ASSIGN_OR_RETURN(record, LoadTraceRun(path, options));
      break;
    }
    case InputFormat::kReport: {
      PERFDX_ASSIGN_OR_RETURN(std::string text, ReadWhole(path));
      PERFDX_ASSIGN_OR_RETURN(record, ParseAnalyzeReport(text, options.rank, path));
      PERFDX_ASSIGN_OR_RETURN(record.fingerprint, FingerprintFile(path));
      break;
    }
    case InputFormat::kStepLog: {
      PERFDX_ASSIGN_OR_RETURN(std::string text, ReadWhole(path));
      PERFDX_ASSIGN_OR_RETURN(record, ParseStepLog(text, path));
      PERFDX_ASSIGN_OR_RETURN(record.fingerprint, FingerprintFile(path));
      break;
    }
  }
  if (options.warmup_steps > 0) {
    if (static_cast<size_t>(options.warmup_steps) >= record.steps.size()) {
      return InvalidInput(fmt::format("{}: --warmup {} leaves none of its {} steps", path,
                                      options.warmup_steps, record.steps.size()));
    }
    record.steps.erase(record.steps.begin(), record.steps.begin() + options.warmup_steps);
    record.notes.push_back(
        fmt::format("the first {} steps dropped as warm-up", options.warmup_steps));
    AddStepMetrics(record);
  }
  if (record.steps.empty()) return InvalidInput(fmt::format("{}: no steps to measure", path));
  record.input_path = path;
  record.perfdx_version = PERFDX_VERSION;
  record.created_unix_s = std::chrono::duration_cast<std::chrono::seconds>(
                              std::chrono::system_clock::now().time_since_epoch())
                              .count();
  auto [host, info] = DescribeHost();
  if (record.host.empty()) record.host = std::move(host);  // a step log may name its host
  record.host_info = std::move(info);
  return record;
}

Result<std::string> FingerprintFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return IoError(fmt::format("{}: cannot open: {}", path, std::strerror(errno)));
  constexpr uint64_t kOffsetBasis = 0xcbf29ce484222325ULL;
  constexpr uint64_t kPrime = 0x100000001b3ULL;
  uint64_t h = kOffsetBasis;
  std::vector<char> buffer(1 << 20);
  while (in) {
    in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    const auto n = static_cast<size_t>(in.gcount());
    for (size_t i = 0; i < n; ++i) {
      h ^= static_cast<unsigned char>(buffer[i]);
      h *= kPrime;
    }
  }
  if (in.bad()) return IoError(fmt::format("{}: read failed", path));
  return fmt::format("fnv1a64:{:016x}", h);
}

std::pair<std::string, std::string> DescribeHost() {
  char name[256] = {};
  std::string host = ::gethostname(name, sizeof(name) - 1) == 0 ? std::string(name) : "unknown";
  std::string info;
  struct utsname u {};
  if (::uname(&u) == 0) info = fmt::format("{} {} {}", u.sysname, u.release, u.machine);
  info += fmt::format("{}{} CPUs", info.empty() ? "" : ", ", std::thread::hardware_concurrency());
  return {std::move(host), std::move(info)};
}

}  // namespace perfdx::baseline
