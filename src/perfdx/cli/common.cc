#include "perfdx/cli/common.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <new>

#include <fmt/format.h>

#include "perfdx/pipeline/analyze.h"

namespace perfdx::cli {

formats::LoadOptions InputOptions::ToLoadOptions() const {
  formats::LoadOptions options;
  options.limits.max_decompressed_bytes = max_decompressed_bytes;
  options.limits.max_compression_ratio = max_compression_ratio;
  options.threads = threads;
  options.json.fast_path = !no_fast_path;
  options.framework = model::ParseFramework(framework);
  return options;
}

namespace {

// The message names the flag itself and is thrown past CLI11's own prefix,
// which is empty for the hidden flags (--resamples, baseline's --max-ratio).
[[noreturn]] void RejectFlagValue(const std::string& flag, const std::string& text,
                                  const std::string& expected) {
  throw CLI::ConversionError(fmt::format("{} {}: expected {}", flag, text, expected));
}

}  // namespace

CLI::Validator FiniteNumber(const std::string& flag, double min, double max, bool min_exclusive) {
  const std::string expected = min_exclusive
                                   ? fmt::format("a number above {:g} and at most {:g}", min, max)
                                   : fmt::format("a number from {:g} to {:g}", min, max);
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        double v = 0;
        const char* end = text.data() + text.size();
        const auto [stop, ec] = std::from_chars(text.data(), end, v);
        const bool above_min = min_exclusive ? v > min : v >= min;
        if (ec != std::errc() || stop != end || !std::isfinite(v) || !above_min || !(v <= max)) {
          RejectFlagValue(flag, text, expected);
        }
        return {};
      },
      fmt::format("NUMBER in {}{:g}, {:g}]", min_exclusive ? "(" : "[", min, max));
}

CLI::Validator WholeNumber(const std::string& flag, int64_t min, int64_t max) {
  const std::string expected = fmt::format("a whole number from {} to {}", min, max);
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        int64_t v = 0;
        const char* end = text.data() + text.size();
        const auto [stop, ec] = std::from_chars(text.data(), end, v);
        if (ec != std::errc() || stop != end || v < min || v > max) {
          RejectFlagValue(flag, text, expected);
        }
        return {};
      },
      fmt::format("INT in [{}, {}]", min, max));
}

CLI::Validator UnsignedSize(const std::string& flag) {
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        if (text.empty() || !std::isdigit(static_cast<unsigned char>(text.front()))) {
          RejectFlagValue(flag, text, "a size in bytes such as 512M or 16G");
        }
        return {};
      },
      "");
}

void AddFormatOptions(CLI::App* command, std::string* format,
                      const std::vector<std::string>& formats, const std::string& help) {
  command->add_option("--format", *format, help)
      ->check(CLI::IsMember(formats))
      ->capture_default_str();
  command->add_flag_callback(
      "--json", [format] { *format = "json"; }, "same as --format json");
}

void AddOutputOption(CLI::App* command, std::string* output) {
  command->add_option("-o,--output", *output, "write to this file instead of stdout");
}

void AddInputOptions(CLI::App* command, InputOptions* options) {
  command
      ->add_option("paths", options->paths,
                   "trace files (.json, .json.gz, .json.zst), folders of rank traces, "
                   "*_ascend_pt / *_ascend_ms profile folders, or - for a trace on standard input")
      ->required();
  command
      ->add_option("--max-decompressed", options->max_decompressed_bytes,
                   "refuse inputs larger than this after decompression (bytes; K/M/G suffixes)")
      ->transform(CLI::AsSizeValue(false))
      ->transform(UnsignedSize(
          "--max-decompressed"))  // runs first: transforms are applied last-added first
      ->capture_default_str();
  command
      ->add_option("--max-ratio", options->max_compression_ratio,
                   "refuse compressed inputs that expand more than this (decompression bombs)")
      ->check(FiniteNumber("--max-ratio", 1, kMaxCompressionRatio))
      ->capture_default_str();
  command
      ->add_option(
          "--threads", options->threads,
          "threads: ranks in parallel, and each rank's chunks, model and analyses when there are "
          "fewer ranks than threads (0: one per core)")
      ->check(WholeNumber("--threads", 0, kMaxThreads));
  command
      ->add_option("--framework", options->framework,
                   "the framework that wrote the traces, if perfdx detects it wrongly: its fixes "
                   "are the ones shown")
      ->check(CLI::IsMember({"pytorch", "torch_npu", "mindspore"}));
  command
      ->add_flag("--no-fast-path", options->no_fast_path,
                 "read every event with the exact scalar parser (for debugging)")
      ->group("");
}

namespace {

// Follows `path` through symlinks to the file it names (which may not exist
// yet), so that -o writes through a link instead of replacing it.
Result<std::string> ResolveOutputPath(const std::string& path) {
  constexpr int kMaxLinks = 40;  // the kernel's own limit (ELOOP)
  std::filesystem::path target(path);
  for (int links = 0;; ++links) {
    struct stat st {};
    if (::lstat(target.c_str(), &st) != 0) {
      if (errno == ENOENT) return target.string();
      return IoError(fmt::format("{}: cannot write: {}", path, std::strerror(errno)));
    }
    if (!S_ISLNK(st.st_mode)) return target.string();
    if (links == kMaxLinks) {
      return InvalidInput(fmt::format("{}: cannot write: too many levels of symbolic links", path));
    }
    std::error_code ec;
    const std::filesystem::path next = std::filesystem::read_symlink(target, ec);
    if (ec) return IoError(fmt::format("{}: cannot write: {}", path, ec.message()));
    target = next.is_absolute() ? next : target.parent_path() / next;
  }
}

Status WriteAll(int fd, const std::string& content, const std::string& name) {
  size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return IoError(fmt::format("{}: write failed: {}", name, std::strerror(errno)));
    done += static_cast<size_t>(n);
  }
  return Status::Ok();
}

// A device, pipe or socket: written in place, never replaced (as root a rename
// would turn /dev/null into a regular file).
Status WriteInPlace(const std::string& target, const std::string& path,
                    const std::string& content) {
  const int fd = ::open(target.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) return IoError(fmt::format("{}: cannot write: {}", path, std::strerror(errno)));
  Status status = WriteAll(fd, content, path);
  if (::close(fd) != 0 && status.ok()) {
    status = IoError(fmt::format("{}: write failed: {}", path, std::strerror(errno)));
  }
  return status;
}

// A regular file (or a new one): written to a temporary name in the same
// folder and renamed, so a failure never leaves half a report.
Status WriteReplacing(const std::string& target, const std::string& path,
                      const std::string& content, const struct stat* old) {
  const std::string tmp = fmt::format("{}.tmp.{}", target, ::getpid());
  // O_EXCL: never write through something planted at the temporary name.
  const mode_t mode = old != nullptr ? (old->st_mode & 07777) : 0666;
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
  if (fd < 0) return IoError(fmt::format("{}: cannot create: {}", tmp, std::strerror(errno)));
  // The umask applied at creation; keep the mode of the file being replaced.
  if (old != nullptr) (void)::fchmod(fd, old->st_mode & 07777);
  Status status = WriteAll(fd, content, tmp);
  if (::close(fd) != 0 && status.ok()) {
    status = IoError(fmt::format("{}: write failed: {}", tmp, std::strerror(errno)));
  }
  if (status.ok() && ::rename(tmp.c_str(), target.c_str()) != 0) {
    status = IoError(fmt::format("{}: cannot write: {}", path, std::strerror(errno)));
  }
  if (!status.ok()) ::unlink(tmp.c_str());
  return status;
}

}  // namespace

Status WriteOutput(const std::string& path, const std::string& content) {
  if (path.empty() || path == "-") {
    if (std::fwrite(content.data(), 1, content.size(), stdout) != content.size() ||
        std::fflush(stdout) != 0) {
      return IoError("cannot write to standard output");
    }
    return Status::Ok();
  }
  PERFDX_ASSIGN_OR_RETURN(const std::string target, ResolveOutputPath(path));
  struct stat st {};
  if (::stat(target.c_str(), &st) != 0) {
    if (errno != ENOENT) {
      return IoError(fmt::format("{}: cannot write: {}", path, std::strerror(errno)));
    }
    return WriteReplacing(target, path, content, nullptr);
  }
  if (S_ISDIR(st.st_mode)) {
    return InvalidInput(fmt::format("{}: is a folder; -o needs a file name", path));
  }
  if (S_ISREG(st.st_mode)) return WriteReplacing(target, path, content, &st);
  return WriteInPlace(target, path, content);
}

int ReportError(const Status& status) {
  switch (status.code()) {
    case StatusCode::kInternal:
      std::fprintf(stderr,
                   "perfdx: internal error: %s (please report: this is a bug in perfdx, not in "
                   "the input)\n",
                   status.message().c_str());
      return kExitInternal;
    case StatusCode::kOutOfMemory:
      std::fprintf(stderr,
                   "perfdx: error: out of memory: %s (load fewer ranks at once with --threads 1, "
                   "or give perfdx more memory)\n",
                   status.message().c_str());
      return kExitOutOfMemory;
    default:
      std::fprintf(stderr, "perfdx: error: %s\n", status.message().c_str());
      return kExitBadInput;
  }
}

int ReportException(const std::exception& e) {
  if (dynamic_cast<const std::bad_alloc*>(&e) != nullptr) {
    return ReportError(OutOfMemory("an allocation failed"));
  }
  // Library code returns errors as values: an exception that gets this far is a bug.
  return ReportError(Internal(fmt::format("unexpected exception: {}", e.what())));
}

void AddWindowOptions(CLI::App* command, WindowOptions* options) {
  command->add_option("--steps", options->steps,
                      "analyse only these step ids: A..B (inclusive), A.., ..B or N");
  command
      ->add_option(
          "--window", options->window,
          "analysis window: steps (the complete steps), all (the whole trace), hta (HTA's window)")
      ->check(CLI::IsMember({"steps", "all", "hta"}))
      ->capture_default_str();
}

Status ApplyWindowOptions(const WindowOptions& options, analysis::AnalysisOptions* analysis) {
  analysis->window =
      pipeline::ParseAnalysisWindow(options.window).value_or(analysis::AnalysisWindow::kSteps);
  if (options.steps.empty()) return Status::Ok();
  auto range = pipeline::ParseStepRange(options.steps);
  if (!range.ok()) return range.status();
  analysis->step_range = *range;
  return Status::Ok();
}

}  // namespace perfdx::cli
