#include "perfdx/cli/common.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <new>

#include <fmt/format.h>

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

void AddInputOptions(CLI::App* command, InputOptions* options) {
  command
      ->add_option("paths", options->paths,
                   "trace files (.json, .json.gz, .json.zst), folders of rank traces, or "
                   "*_ascend_pt / *_ascend_ms profile folders")
      ->required();
  command
      ->add_option("--max-decompressed", options->max_decompressed_bytes,
                   "refuse inputs larger than this after decompression (bytes; K/M/G suffixes)")
      ->transform(CLI::AsSizeValue(false))
      ->capture_default_str();
  command
      ->add_option("--max-ratio", options->max_compression_ratio,
                   "refuse compressed inputs that expand more than this (decompression bombs)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  command->add_option("--threads", options->threads, "ranks loaded in parallel (0: one per core)");
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

Status WriteOutput(const std::string& path, const std::string& content) {
  if (path.empty() || path == "-") {
    if (std::fwrite(content.data(), 1, content.size(), stdout) != content.size() ||
        std::fflush(stdout) != 0) {
      return IoError("cannot write to standard output");
    }
    return Status::Ok();
  }
  const std::string tmp = fmt::format("{}.tmp.{}", path, ::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return IoError(fmt::format("{}: cannot create: {}", tmp, std::strerror(errno)));
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    out.flush();
    if (!out) {
      std::filesystem::remove(tmp);
      return IoError(fmt::format("{}: write failed", tmp));
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::filesystem::remove(tmp);
    return IoError(fmt::format("{}: cannot write: {}", path, ec.message()));
  }
  return Status::Ok();
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

}  // namespace perfdx::cli
