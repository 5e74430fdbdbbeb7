// libFuzzer target for the Chrome-trace importer: any bytes, through every
// parser path (exact, fast, fast with chunks decoded ahead on three threads,
// fast from a source that returns a few bytes per read) and the model
// builder; the three fast paths must read the same trace, and the fast
// path's flows must be those of the search over every record. Build with
//   CXX=clang++ cmake -S . -B build/fuzz -DPERFDX_BUILD_FUZZERS=ON -DPERFDX_BUILD_TESTS=OFF
//   ninja -C build/fuzz chrome_json_fuzzer
//   build/fuzz/tests/fuzz/chrome_json_fuzzer -max_total_time=60 tests/data/bad
// CI builds it in the asan preset and runs it briefly (ctest -L fuzz).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>

#include "perfdx/formats/chrome/chrome_classifier.h"
#include "perfdx/formats/chrome/chrome_json_parser.h"
#include "perfdx/io/byte_source.h"
#include "perfdx/model/trace_builder.h"

namespace {

// Feeds the builder, and `searching` too where given: the same trace built
// with every flow record bound by the search (set_restate_flows(false)).
class Sink final : public perfdx::formats::ChromeEventSink {
 public:
  Sink(perfdx::model::TraceBuilder& b, perfdx::model::TraceBuilder* searching)
      : b_(b), searching_(searching) {}
  void OnEvent(perfdx::model::RawEvent& e) override {
    b_.AddEvent(e);
    if (searching_ != nullptr) searching_->AddEvent(e);
  }
  void OnBadEvent(perfdx::model::LoadStat why) override {
    b_.AddBadEvent(why);
    if (searching_ != nullptr) searching_->AddBadEvent(why);
  }
  void OnStat(perfdx::model::LoadStat s) override {
    b_.load_stats().Add(s);
    if (searching_ != nullptr) searching_->load_stats().Add(s);
  }
  void OnWarning(std::string m) override {
    corrupt_stream |= m.find("corrupt ") != std::string::npos;
    b_.load_stats().AddWarning(std::move(m));
  }
  bool corrupt_stream = false;  // a compressed stream's corruption was met

 private:
  perfdx::model::TraceBuilder& b_;
  perfdx::model::TraceBuilder* searching_;
};

// The flows and their load stats of two builds of one input.
bool SameFlows(const perfdx::model::Trace& a, const perfdx::model::Trace& b) {
  using perfdx::model::LoadStat;
  return a.flows.from == b.flows.from && a.flows.to == b.flows.to && a.flows.kind == b.flows.kind &&
         a.load_stats.Get(LoadStat::kFlowUnmatched) == b.load_stats.Get(LoadStat::kFlowUnmatched) &&
         a.load_stats.Get(LoadStat::kFlowUnbound) == b.load_stats.Get(LoadStat::kFlowUnbound);
}

enum class Path { kExact, kFast, kParallel, kTrickle };

// Returns 1 to 13 bytes per read, a different number each time.
class TrickleSource final : public perfdx::io::ByteSource {
 public:
  explicit TrickleSource(std::unique_ptr<perfdx::io::ByteSource> inner)
      : ByteSource(inner->path(), inner->compression()), inner_(std::move(inner)) {}
  perfdx::Result<size_t> Read(char* dst, size_t capacity) override {
    next_ = next_ % 13 + 1;
    perfdx::Result<size_t> n = inner_->Read(dst, capacity < next_ ? capacity : next_);
    truncation_ = inner_->truncation();  // the parser names it from the source it reads
    return n;
  }

 private:
  std::unique_ptr<perfdx::io::ByteSource> inner_;
  size_t next_ = 0;
};

// What was read, as one number (-1: not a trace).
struct Outcome {
  int64_t value = -1;
  bool corrupt_stream = false;
};

Outcome Run(const std::string& bytes, Path path) {
  perfdx::io::ReadLimits limits;
  // Small limits: a mutated bomb stops at 4 MiB instead of costing a second.
  limits.max_decompressed_bytes = 4 << 20;
  limits.ratio_floor_bytes = 1 << 20;
  auto opened = perfdx::io::OpenMemoryByteSource(bytes, "fuzz.json", limits);
  if (!opened.ok()) return {};
  std::unique_ptr<perfdx::io::ByteSource> source = std::move(*opened);
  if (path == Path::kTrickle) source = std::make_unique<TrickleSource>(std::move(source));
  perfdx::formats::ChromeJsonOptions options;
  options.fast_path = path != Path::kExact;
  if (path == Path::kParallel) {
    options.decode_threads = 3;
    options.parallel_after_bytes = 0;
  }
  options.chunk_bytes = 512;  // many chunk boundaries
  options.max_event_bytes = 1 << 20;
  perfdx::model::TraceBuilder builder({});
  // The fast path's trace is built a second time by the search alone.
  perfdx::model::TraceBuilder searching({});
  searching.set_restate_flows(false);
  Sink sink(builder, path == Path::kFast ? &searching : nullptr);
  perfdx::formats::TraceEnvelope envelope;
  if (!perfdx::formats::ParseChromeJson(*source, options, sink, &envelope).ok()) return {};
  perfdx::formats::ChromeClassifier classifier(envelope);
  auto trace = std::move(builder).Finalize(classifier);
  if (!trace.ok()) return {};
  if (path == Path::kFast) {
    perfdx::formats::ChromeClassifier classifier2(envelope);
    auto searched = std::move(searching).Finalize(classifier2);
    // Restated flow records are bound as the search binds them.
    if (!searched.ok() || !SameFlows(*trace, *searched)) std::abort();
  }
  // Events and slices both: a slice lost or doubled changes the second.
  return {static_cast<int64_t>(trace->raw.events * 1000003 + trace->slices.size()),
          sink.corrupt_stream};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  Run(bytes, Path::kExact);
  const Outcome fast = Run(bytes, Path::kFast);
  const Outcome parallel = Run(bytes, Path::kParallel);
  const Outcome trickle = Run(bytes, Path::kTrickle);
  // The buffer's contents depend on the stream alone, unless the stream is
  // corrupt: how much a decoder hands out before it finds the damage depends
  // on the room each read gives it (tests/data/fuzz/
  // corrupt_zstd_trickle_1.json.zst: zstd hands out 655,360 bytes before the
  // damage to reads of 512 bytes, 655,421 to reads of 13, whose extra bytes
  // end the document before the damage is met), and the parallel reader
  // reads in other sizes than the sequential one
  // (corrupt_zstd_parallel_1.json.zst: 33 events against 32). What is read
  // then is not compared.
  if (fast.corrupt_stream || parallel.corrupt_stream || trickle.corrupt_stream) return 0;
  // A region that fails in flight is decided on the buffer the sequential
  // reader had, and the parallel reader reads no further than it: the same
  // trace, or the same error.
  if (fast.value != parallel.value) std::abort();
  if (fast.value >= 0 && trickle.value >= 0 && fast.value != trickle.value) std::abort();
  return 0;
}
