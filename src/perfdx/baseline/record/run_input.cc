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

uint64_t Fnv1a64(std::string_view bytes, uint64_t h = 0xcbf29ce484222325ULL) {
  constexpr uint64_t kPrime = 0x100000001b3ULL;
  for (const char c : bytes) {
    h ^= static_cast<unsigned char>(c);
    h *= kPrime;
  }
  return h;
}

// The record of one rank of `loaded` (the first, or --rank); `fingerprint`
// empty: the chosen trace's file is hashed.
Result<RunRecord> RecordFromTraces(formats::LoadedTraces loaded, const std::string& path,
                                   const RunInputOptions& options, std::string fingerprint) {
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
  if (!fingerprint.empty()) {
    record.fingerprint = std::move(fingerprint);
    return record;
  }
  // The trace was read, so its file is there; if it cannot be hashed after
  // all, the run is still worth keeping.
  Result<std::string> hashed = FingerprintFile(chosen->info.path);
  if (hashed.ok()) {
    record.fingerprint = std::move(*hashed);
  } else {
    record.notes.push_back(fmt::format("no fingerprint: {}", hashed.status().message()));
  }
  return record;
}

Result<RunRecord> LoadTraceRun(const std::string& path, const RunInputOptions& options) {
  PERFDX_ASSIGN_OR_RETURN(formats::LoadedTraces loaded, formats::LoadTraces({path}, options.load));
  return RecordFromTraces(std::move(loaded), path, options, "");
}

// `-`: standard input, read whole (it can be read once, and is sniffed
// before it is parsed), its raw bytes bounded by --max-decompressed; then a
// step log, a report or a Chrome trace (gzip/zstd by content), as a file.
Result<RunRecord> LoadStdinRun(const RunInputOptions& options) {
  const io::ReadLimits& limits = options.load.limits;
  PERFDX_ASSIGN_OR_RETURN(const std::string raw, io::ReadStdin(limits.max_decompressed_bytes));
  const std::string fingerprint = fmt::format("fnv1a64:{:016x}", Fnv1a64(raw));
  std::string head;
  {
    PERFDX_ASSIGN_OR_RETURN(auto source, io::OpenMemoryByteSource(raw, io::kStdinName, limits));
    head.resize(kSniffBytes);
    size_t have = 0;
    while (have < head.size()) {
      PERFDX_ASSIGN_OR_RETURN(size_t n, source->Read(head.data() + have, head.size() - have));
      if (n == 0) break;
      have += n;
    }
    head.resize(have);
  }
  PERFDX_ASSIGN_OR_RETURN(auto source, io::OpenMemoryByteSource(raw, io::kStdinName, limits));
  RunRecord record;
  if (LooksLikeStepLog(head) || LooksLikeAnalyzeReport(head)) {
    PERFDX_ASSIGN_OR_RETURN(std::string text, io::ReadAll(*source, kMaxTextInputBytes));
    if (LooksLikeStepLog(head)) {
      PERFDX_ASSIGN_OR_RETURN(record, ParseStepLog(text, io::kStdinName));
    } else {
      PERFDX_ASSIGN_OR_RETURN(record, ParseAnalyzeReport(text, options.rank, io::kStdinName));
    }
    record.fingerprint = fingerprint;
    return record;
  }
  io::TraceInput input;
  input.trace_path = io::kStdinName;
  input.from_stdin = true;
  formats::LoadedTraces loaded;
  PERFDX_ASSIGN_OR_RETURN(model::Trace trace, formats::ImportGuarded(io::kStdinName, [&] {
                            return formats::ImportChromeTraceFrom(*source, input,
                                                                  options.load.json);
                          }));
  loaded.traces.push_back(std::move(trace));
  return RecordFromTraces(std::move(loaded), io::kStdinName, options, fingerprint);
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

namespace {

// The record of one input, before the warm-up cut and the provenance.
Result<RunRecord> LoadRecord(const std::string& path, const RunInputOptions& options) {
  if (path == io::kStdinPath) return LoadStdinRun(options);
  PERFDX_ASSIGN_OR_RETURN(const InputFormat format, SniffInput(path));
  RunRecord record;
  switch (format) {
    case InputFormat::kTrace:
      return LoadTraceRun(path, options);
    case InputFormat::kReport: {
      PERFDX_ASSIGN_OR_RETURN(std::string text, ReadWhole(path));
      PERFDX_ASSIGN_OR_RETURN(record, ParseAnalyzeReport(text, options.rank, path));
      break;
    }
    case InputFormat::kStepLog: {
      PERFDX_ASSIGN_OR_RETURN(std::string text, ReadWhole(path));
      PERFDX_ASSIGN_OR_RETURN(record, ParseStepLog(text, path));
      break;
    }
  }
  PERFDX_ASSIGN_OR_RETURN(record.fingerprint, FingerprintFile(path));
  return record;
}

}  // namespace

Result<RunRecord> LoadRunInput(const std::string& path, const RunInputOptions& options) {
  PERFDX_ASSIGN_OR_RETURN(RunRecord record, LoadRecord(path, options));
  if (options.warmup_steps > 0) {
    if (static_cast<size_t>(options.warmup_steps) >= record.steps.size()) {
      return InvalidInput(fmt::format("{}: --warmup {} leaves none of its {} steps",
                                      path == io::kStdinPath ? io::kStdinName : path.c_str(),
                                      options.warmup_steps, record.steps.size()));
    }
    record.steps.erase(record.steps.begin(), record.steps.begin() + options.warmup_steps);
    record.notes.push_back(
        fmt::format("the first {} steps dropped as warm-up", options.warmup_steps));
    AddStepMetrics(record);
  }
  const std::string name = path == io::kStdinPath ? std::string(io::kStdinName) : path;
  if (record.steps.empty()) return InvalidInput(fmt::format("{}: no steps to measure", name));
  record.input_path = name;
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
  uint64_t h = Fnv1a64({});
  std::vector<char> buffer(1 << 20);
  while (in) {
    in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    h = Fnv1a64(std::string_view(buffer.data(), static_cast<size_t>(in.gcount())), h);
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
