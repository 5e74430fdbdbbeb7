#include "perfdx/formats/trace_loader.h"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <memory>
#include <optional>
#include <thread>

#include <fmt/format.h>

#include "perfdx/formats/ascend/kernel_csv_importer.h"
#include "perfdx/formats/ascend/profile_reader.h"
#include "perfdx/formats/ascend_db/ascend_db_importer.h"
#include "perfdx/formats/chrome/chrome_classifier.h"
#include "perfdx/formats/framework_detection.h"
#include "perfdx/formats/msprof/msprof_reader.h"
#include "perfdx/io/read_ahead_source.h"
#include "perfdx/model/trace_builder.h"

namespace perfdx::formats {
namespace {

// Feeds parsed events into the builder, marking allocator records.
class BuilderSink final : public ChromeEventSink {
 public:
  explicit BuilderSink(model::TraceBuilder& builder) : builder_(builder) {}

  void OnEvent(model::RawEvent& event) override {
    // Kineto writes allocator records as instant events named "[memory]"
    // (older builds: "[Memory]").
    if ((event.name == "[memory]" || event.name == "[Memory]") && !event.phase.empty() &&
        (event.phase[0] == 'i' || event.phase[0] == 'I')) {
      event.is_memory_event = true;
    }
    builder_.AddEvent(event);
  }
  void OnBadEvent(model::LoadStat why) override { builder_.AddBadEvent(why); }
  void OnStat(model::LoadStat stat) override { builder_.load_stats().Add(stat); }
  void OnWarning(std::string message) override {
    builder_.load_stats().AddWarning(std::move(message));
  }

 private:
  model::TraceBuilder& builder_;
};

// Counts the bytes an input's sources read and reports them every
// kProgressBytes; one per input, shared by its sources (msprof's slices).
class ProgressCounter {
 public:
  ProgressCounter(const LoadOptions& options, std::string_view path, uint64_t total)
      : progress_(options.progress), path_(path), total_(total) {}
  void Add(uint64_t bytes) {
    read_ += bytes;
    if (read_ - reported_ < kProgressBytes) return;
    reported_ = read_;
    LoadProgress p;
    p.path = path_;
    p.bytes_read = read_;
    p.bytes_total = total_;
    progress_(p);
  }

 private:
  const std::function<void(const LoadProgress&)>& progress_;
  std::string_view path_;
  uint64_t total_;
  uint64_t read_ = 0;
  uint64_t reported_ = 0;
};

// A source that tells the counter what the source under it read; the rest
// (path, truncation, bytes out) it mirrors.
class ProgressSource final : public io::ByteSource {
 public:
  ProgressSource(io::ByteSource& inner, ProgressCounter& counter)
      : ByteSource(inner.path(), inner.compression()), inner_(inner), counter_(counter) {}

  Result<size_t> Read(char* dst, size_t capacity) override {
    Result<size_t> n = inner_.Read(dst, capacity);
    bytes_out_ = inner_.bytes_out();
    counter_.Add(inner_.bytes_in() - bytes_in_);
    bytes_in_ = inner_.bytes_in();
    if (inner_.truncated() && truncation_.empty()) truncation_ = inner_.truncation();
    return n;
  }

 private:
  io::ByteSource& inner_;
  ProgressCounter& counter_;
};

uint64_t FileBytes(const std::string& path) {
  std::error_code ec;
  const uintmax_t size = std::filesystem::file_size(path, ec);
  return ec ? 0 : static_cast<uint64_t>(size);
}

}  // namespace

namespace {

void DescribeRuntime(const io::TraceInput& input, std::optional<model::Framework> framework,
                     model::Trace* trace) {
  trace->info.runtime = DetectFramework(*trace, input);
  // The classifier calls any device work it cannot place CUDA; an XPU, MTIA
  // or other accelerator is never named as one.
  const model::Platform platform = trace->info.runtime.platform;
  if ((platform == model::Platform::kXpu || platform == model::Platform::kMtia ||
       platform == model::Platform::kOther) &&
      trace->info.device_type == model::DeviceType::kCuda) {
    trace->info.device_type = model::DeviceType::kUnknown;
    if (trace->info.device_name == "NVIDIA GPU") {
      trace->info.device_name = platform == model::Platform::kXpu    ? "Intel XPU"
                                : platform == model::Platform::kMtia ? "MTIA"
                                                                     : "accelerator";
    }
  }
  if (framework) {
    trace->info.runtime.framework = *framework;
    trace->info.runtime.detected_from = "--framework";
  }
}

// About how many bytes of JSON files of `bytes` hold: compressed files at
// 20:1 (Kineto's .json.gz are 17-29:1).
uint64_t ExpectedJsonBytes(uint64_t bytes, io::Compression compression) {
  constexpr uint64_t kCompressionRatio = 20;
  return compression == io::Compression::kNone ? bytes : bytes * kCompressionRatio;
}

// About how many events that JSON holds, to reserve the model's columns: over
// the densest events of the shared traces (Ascend's, ~170 bytes; Kineto's are
// 220-460); an estimate short by 2x costs one doubling.
size_t ExpectedEvents(uint64_t json_bytes) {
  constexpr uint64_t kBytesPerEvent = 160;
  constexpr uint64_t kMaxReserved = uint64_t{1} << 25;  // 32 M events
  return static_cast<size_t>(std::min(json_bytes / kBytesPerEvent, kMaxReserved));
}

// One trace from one or more Chrome-trace sources: msprof cuts its timeline
// into msprof_slice_{n}_{ts}.json files, all of one rank.
Result<model::Trace> ImportChromeSources(const std::vector<io::ByteSource*>& sources,
                                         const io::TraceInput& input,
                                         const ChromeJsonOptions& options,
                                         size_t expected_events = 0) {
  model::RankInfo info;
  info.path = input.trace_path;
  info.rank = input.rank_hint;
  model::TraceBuilder builder(std::move(info));
  builder.ReserveEvents(expected_events);
  BuilderSink sink(builder);
  TraceEnvelope envelope;
  for (size_t k = 0; k < sources.size(); ++k) {
    TraceEnvelope slice_envelope;
    PERFDX_RETURN_IF_ERROR(
        ParseChromeJson(*sources[k], options, sink, k == 0 ? &envelope : &slice_envelope));
  }

  model::RankInfo& rank = builder.info();
  // A rank the trace states beats one guessed from a file name; Ascend
  // folders name theirs in profiler_info_{rank}.json (msprof in info.json).
  if (envelope.rank && input.kind != io::InputKind::kAscendProfile &&
      input.kind != io::InputKind::kMsprofProfile) {
    rank.rank = envelope.rank;
  }
  rank.world_size = envelope.world_size;
  rank.distributed_backend = envelope.backend;
  rank.base_time_ns = envelope.base_time_ns;
  rank.devices = envelope.devices;

  // Finalize's second thread as the parser's: only for a trace past the
  // threshold, whose few MiB of extra working memory are small beside it.
  uint64_t json_bytes = 0;
  for (const io::ByteSource* s : sources) json_bytes += s->bytes_out();
  if (json_bytes >= options.parallel_after_bytes) {
    builder.set_finalize_threads(options.decode_threads);
  }
  ChromeClassifier classifier(envelope);
  return std::move(builder).Finalize(classifier);
}

}  // namespace

Result<model::Trace> ImportChromeTrace(const io::TraceInput& input, const LoadOptions& options) {
  std::vector<std::unique_ptr<io::ByteSource>> owned;
  std::vector<io::ByteSource*> sources;
  PERFDX_ASSIGN_OR_RETURN(auto source, input.from_stdin
                                           ? io::OpenStdinByteSource(options.limits)
                                           : io::OpenByteSource(input.trace_path, options.limits));
  sources.push_back(source.get());
  for (const std::string& more : input.more_trace_paths) {
    PERFDX_ASSIGN_OR_RETURN(auto extra, io::OpenByteSource(more, options.limits));
    sources.push_back(extra.get());
    owned.push_back(std::move(extra));
  }
  uint64_t total = 0;
  if (!input.from_stdin) {
    total = FileBytes(input.trace_path);
    for (const std::string& more : input.more_trace_paths) total += FileBytes(more);
  }
  const size_t expected = ExpectedEvents(ExpectedJsonBytes(total, source->compression()));
  // Decoding ahead from the first chunk needs the size itself, not a guess
  // (a trace under the threshold keeps its memory at half its size): a plain
  // file's, or what a gzip or zstd file states.
  ChromeJsonOptions json = options.json;
  if (!input.from_stdin && input.more_trace_paths.empty()) {
    json.expected_bytes =
        source->compression() == io::Compression::kNone
            ? total
            : io::StatedBytes(input.trace_path, source->compression()).value_or(0);
  }
  // A compressed trace parsed on one thread (under the threshold that
  // decodes ahead) with a thread to spare: decompressing goes to that thread.
  if (source->compression() != io::Compression::kNone && sources.size() == 1 &&
      json.decode_threads >= 2 && json.expected_bytes > 0 &&
      json.expected_bytes < json.parallel_after_bytes) {
    source = io::ReadAhead(std::move(source));
    sources[0] = source.get();
  }
  if (!options.progress) return ImportChromeSources(sources, input, json, expected);
  ProgressCounter counter(options, input.trace_path, total);
  std::vector<std::unique_ptr<io::ByteSource>> counted;
  std::vector<io::ByteSource*> counted_sources;
  for (io::ByteSource* s : sources) {
    counted.push_back(std::make_unique<ProgressSource>(*s, counter));
    counted_sources.push_back(counted.back().get());
  }
  return ImportChromeSources(counted_sources, input, json, expected);
}

Result<model::Trace> ImportChromeTraceFrom(io::ByteSource& source, const io::TraceInput& input,
                                           const ChromeJsonOptions& options) {
  PERFDX_ASSIGN_OR_RETURN(model::Trace trace, ImportChromeSources({&source}, input, options));
  DescribeRuntime(input, std::nullopt, &trace);
  return trace;
}

namespace {

Result<model::Trace> ImportByKind(const io::TraceInput& input, const LoadOptions& options) {
  AscendSideOptions side;
  side.limits = options.limits;
  switch (input.kind) {
    case io::InputKind::kChromeTraceFile:
      return ImportChromeTrace(input, options);
    case io::InputKind::kAscendProfile: {
      PERFDX_ASSIGN_OR_RETURN(model::Trace trace, ImportChromeTrace(input, options));
      ReadAscendProfileFiles(input.profile_dir, input.framework, side, &trace);
      return trace;
    }
    case io::InputKind::kAscendDb:
      return ImportAscendDb(input, side);
    case io::InputKind::kMsprofProfile: {
      PERFDX_ASSIGN_OR_RETURN(model::Trace trace, ImportChromeTrace(input, options));
      trace.info.source = model::SourceFormat::kMsprofTimeline;
      ReadMsprofFiles(input.profile_dir, side, &trace);
      return trace;
    }
    case io::InputKind::kAscendKernelCsv:
      return ImportAscendKernelCsv(input, side);
  }
  return Internal("unknown input kind");
}

}  // namespace

Result<model::Trace> ImportInput(const io::TraceInput& input, const LoadOptions& options) {
  PERFDX_ASSIGN_OR_RETURN(model::Trace trace, ImportByKind(input, options));
  DescribeRuntime(input, options.framework, &trace);
  return trace;
}

namespace {

// An exception escaping a loader thread would terminate the process: it
// becomes a Status naming `path` (out of memory, or internal).
template <typename F>
auto Guarded(const std::string& path, const F& f) -> decltype(f()) {
  try {
    return f();
  } catch (...) {
    return LoadingExceptionStatus(path);
  }
}

}  // namespace

Result<model::Trace> ImportGuarded(const std::string& path,
                                   const std::function<Result<model::Trace>()>& import) {
  return Guarded(path, import);
}

namespace {

// An input the loader can skip (the others are still worth analysing), as
// opposed to perfdx itself failing (out of memory, a bug).
bool IsInputError(const Status& status) {
  return status.code() != StatusCode::kInternal && status.code() != StatusCode::kOutOfMemory;
}

}  // namespace

Result<LoadOutcome> LoadEachTrace(const std::vector<std::string>& paths, const LoadOptions& options,
                                  const TraceConsumer& consume) {
  PERFDX_ASSIGN_OR_RETURN(io::Discovery discovery, io::DiscoverInputs(paths));
  const size_t n = discovery.inputs.size();
  // Per input: how it ended and the rank it said it was (for the order).
  std::vector<Status> statuses(n);
  std::vector<std::optional<int64_t>> ranks(n);
  const unsigned budget = std::max<unsigned>(
      1, options.threads != 0 ? options.threads : std::thread::hardware_concurrency());
  const unsigned threads =
      std::clamp<unsigned>(budget, 1, static_cast<unsigned>(std::max<size_t>(n, 1)));
  // Fewer inputs than threads: the rest decode each input's chunks.
  LoadOptions each = options;
  each.json.decode_threads = std::max<unsigned>(1, budget / threads);

  auto load_one = [&](size_t i, const LoadOptions& mine) {
    const io::TraceInput& input = discovery.inputs[i];
    Result<model::Trace> trace =
        ImportGuarded(input.trace_path, [&] { return ImportInput(input, mine); });
    if (!trace.ok()) {
      statuses[i] = trace.status();
      return;
    }
    ranks[i] = trace->info.rank;
    statuses[i] = Guarded(input.trace_path,
                          [&] { return consume(i, std::move(*trace), mine.json.decode_threads); });
  };
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i = next++; i < n; i = next++) {
      if (!options.progress) {
        load_one(i, each);
        continue;
      }
      // The input's own options: its progress calls carry its index.
      LoadOptions mine = each;
      mine.progress = [&options, i, n](const LoadProgress& p) {
        LoadProgress q = p;
        q.input = i;
        q.inputs = n;
        options.progress(q);
      };
      load_one(i, mine);
      LoadProgress done;
      done.input = i;
      done.inputs = n;
      done.path = discovery.inputs[i].trace_path;
      done.done = true;
      options.progress(done);
    }
  };
  if (threads == 1) {
    work();
  } else {
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t) pool.emplace_back(work);
    for (auto& t : pool) t.join();
  }

  LoadOutcome outcome;
  outcome.warnings = std::move(discovery.warnings);
  std::vector<size_t> failed_inputs;
  for (size_t i = 0; i < n; ++i) {
    if (statuses[i].ok()) {
      outcome.consumed.push_back(i);
      continue;
    }
    if (!IsInputError(statuses[i])) return statuses[i];
    outcome.failed.push_back(statuses[i]);
    failed_inputs.push_back(i);
  }
  if (outcome.consumed.empty() && !outcome.failed.empty()) return outcome.failed.front();
  for (size_t k = 0; k < outcome.failed.size(); ++k) {
    const std::optional<int64_t>& rank = discovery.inputs[failed_inputs[k]].rank_hint;
    outcome.warnings.push_back(fmt::format(
        "{} skipped: {} (the other {} input{} loaded)",
        rank ? fmt::format("rank {}", *rank) : std::string("input"), outcome.failed[k].message(),
        outcome.consumed.size(), outcome.consumed.size() == 1 ? " was" : "s were"));
  }
  // Ranks without a number keep discovery order after the numbered ones.
  std::stable_sort(outcome.consumed.begin(), outcome.consumed.end(), [&](size_t a, size_t b) {
    return ranks[a].value_or(INT64_MAX) < ranks[b].value_or(INT64_MAX);
  });
  return outcome;
}

Result<LoadedTraces> LoadTraces(const std::vector<std::string>& paths, const LoadOptions& options) {
  PERFDX_ASSIGN_OR_RETURN(
      Reduced<model::Trace> reduced,
      LoadReduced<model::Trace>(
          paths, options,
          [](model::Trace trace, unsigned) -> Result<model::Trace> { return trace; }));
  return LoadedTraces{std::move(reduced.items), std::move(reduced.warnings),
                      std::move(reduced.failed)};
}

}  // namespace perfdx::formats
