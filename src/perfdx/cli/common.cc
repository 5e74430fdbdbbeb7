#include "perfdx/cli/common.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
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
