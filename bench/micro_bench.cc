// Micro-benchmarks of the ingest hot paths. The end-to-end figures are in
// docs/PERFORMANCE.md (perfdx_ingest_bench); these isolate one stage each:
//
//   perfdx_micro_bench --benchmark_filter=Chrome
//
// The Chrome benchmarks parse a synthetic Kineto-like trace held in memory
// (operators with shapes, runtime calls, kernels and their flows), so they
// need no shared data.
#include <string>
#include <vector>

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include "perfdx/base/decimal_time.h"
#include "perfdx/formats/chrome/chrome_classifier.h"
#include "perfdx/formats/chrome/chrome_json_parser.h"
#include "perfdx/io/byte_source.h"
#include "perfdx/model/arg_key.h"
#include "perfdx/model/string_pool.h"
#include "perfdx/model/trace_builder.h"

namespace perfdx::bench {
namespace {

void BM_ParseMicrosToNanos(benchmark::State& state) {
  const std::vector<std::string> tokens = {"1661203462598738", "19", "1736408883688177.930",
                                           "145.57", "1.6921085481321545e+15"};
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(ParseMicrosToNanos(tokens[i]));
    i = i + 1 == tokens.size() ? 0 : i + 1;
  }
}
BENCHMARK(BM_ParseMicrosToNanos);

std::vector<std::string> OperatorNames(size_t n) {
  std::vector<std::string> names;
  for (size_t i = 0; i < n; ++i) names.push_back(fmt::format("aten::operator_number_{}", i));
  return names;
}

// Interning a name already in the pool: what almost every event does.
void BM_StringPoolInternHit(benchmark::State& state) {
  const auto names = OperatorNames(static_cast<size_t>(state.range(0)));
  model::StringPool pool;
  for (const auto& n : names) pool.Intern(n);
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(pool.Intern(names[i]));
    i = i + 1 == names.size() ? 0 : i + 1;
  }
}
BENCHMARK(BM_StringPoolInternHit)->Arg(64)->Arg(4096)->Arg(262144);

// Long strings: CUDA kernel names and "Input Dims" shapes run to 100+ bytes.
void BM_StringPoolInternHitLong(benchmark::State& state) {
  std::vector<std::string> names;
  for (size_t i = 0; i < 4096; ++i) {
    names.push_back(fmt::format(
        "void at::native::vectorized_elementwise_kernel<4, at::native::AddFunctor<float>, "
        "at::detail::Array<char*, 3> >(int, at::native::AddFunctor<float>, variant_{})",
        i));
  }
  model::StringPool pool;
  for (const auto& n : names) pool.Intern(n);
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(pool.Intern(names[i]));
    i = i + 1 == names.size() ? 0 : i + 1;
  }
}
BENCHMARK(BM_StringPoolInternHitLong);

// Interning new strings, table growth included.
void BM_StringPoolInternMiss(benchmark::State& state) {
  const auto names = OperatorNames(1 << 16);
  for (auto _ : state) {
    model::StringPool pool;
    for (const auto& n : names) benchmark::DoNotOptimize(pool.Intern(n));
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(names.size()));
}
BENCHMARK(BM_StringPoolInternMiss);

void BM_LookupArgKey(benchmark::State& state) {
  const std::vector<std::string> keys = {
      "External id", "Trace name",           "Input Dims", "Call stack",
      "correlation", "Profiler Event Index", "stream",     "registers per thread"};
  size_t i = 0;
  model::ArgKey key;
  for (auto _ : state) {
    benchmark::DoNotOptimize(model::LookupArgKey(keys[i], &key));
    i = i + 1 == keys.size() ? 0 : i + 1;
  }
}
BENCHMARK(BM_LookupArgKey);

// A Kineto-like trace: per launch, one operator with shapes, one runtime call,
// one kernel, and the flow pair that links them.
std::string SyntheticKineto(size_t launches) {
  std::string out = R"j({"schemaVersion": 1, "traceEvents": [)j";
  out += R"j({"name": "process_name", "ph": "M", "pid": 1000, "tid": 0, )j"
         R"j("args": {"name": "python3"}},)j";
  int64_t ts = 1661203462598738;
  for (size_t i = 0; i < launches; ++i) {
    const size_t op = i % 97;
    out += fmt::format(
        R"j({{"ph": "X", "cat": "cpu_op", "name": "aten::op_{}", "pid": 1000, "tid": 1000, )j"
        R"j("ts": {}, "dur": 19, "args": {{"Trace name": "PyTorch Profiler", )j"
        R"j("Trace iteration": 0, "External id": {}, "Profiler Event Index": {}, )j"
        R"j("Input Dims": [[32, {}], [], [{}]], "Input type": ["float", "", "Scalar"], )j"
        R"j("Module Hierarchy": "", "Call stack": ""}}}},)j",
        op, ts, i + 1, i, op, op % 7);
    out += fmt::format(
        R"j({{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1000, )j"
        R"j("tid": 1000, "ts": {}, "dur": 5, )j"
        R"j("args": {{"cbid": 211, "correlation": {}, "external id": {}}}}},)j",
        ts + 2, i + 1, i + 1);
    out += fmt::format(
        R"j({{"ph": "s", "id": {}, "pid": 1000, "tid": 1000, "ts": {}, "cat": "ac2g", )j"
        R"j("name": "launch"}},)j",
        i + 1, ts + 2);
    out += fmt::format(
        R"j({{"ph": "X", "cat": "kernel", "name": "void kernel_{}<float>(float*, int)", )j"
        R"j("pid": 0, "tid": 7, "ts": {}, "dur": 11, "args": {{"queued": 0, "device": 0, )j"
        R"j("context": 1, "stream": 7, "correlation": {}, "registers per thread": 32, )j"
        R"j("shared memory": 0, "blocks per SM": 0.5, "warps per SM": 2.0, )j"
        R"j("grid": [40, 1, 1], "block": [128, 1, 1], "est. achieved occupancy %": 3}}}},)j",
        op, ts + 10, i + 1);
    out += fmt::format(R"j({{"ph": "f", "id": {}, "pid": 0, "tid": 7, "ts": {}, "cat": "ac2g", )j"
                       R"j("name": "launch", "bp": "e"}},)j",
                       i + 1, ts + 10);
    ts += 25;
  }
  out.pop_back();
  out += "]}";
  return out;
}

const std::string& SyntheticTrace() {
  static const std::string trace = SyntheticKineto(20000);
  return trace;
}

class CountingSink final : public formats::ChromeEventSink {
 public:
  void OnEvent(model::RawEvent& event) override { events += event.args.size() + 1; }
  void OnBadEvent(model::LoadStat) override {}
  void OnStat(model::LoadStat) override {}
  void OnWarning(std::string) override {}
  uint64_t events = 0;
};

class BuilderSink final : public formats::ChromeEventSink {
 public:
  explicit BuilderSink(model::TraceBuilder& builder) : builder_(builder) {}
  void OnEvent(model::RawEvent& event) override { builder_.AddEvent(event); }
  void OnBadEvent(model::LoadStat why) override { builder_.AddBadEvent(why); }
  void OnStat(model::LoadStat) override {}
  void OnWarning(std::string) override {}

 private:
  model::TraceBuilder& builder_;
};

// Tokenising and decoding only: the parser with a sink that keeps nothing.
void BM_ChromeParseOnly(benchmark::State& state) {
  const std::string& json = SyntheticTrace();
  formats::ChromeJsonOptions options;
  options.fast_path = state.range(0) != 0;
  for (auto _ : state) {
    auto source = io::OpenMemoryByteSource(json, "synthetic.json");
    CountingSink sink;
    formats::TraceEnvelope envelope;
    if (!formats::ParseChromeJson(**source, options, sink, &envelope).ok())
      state.SkipWithError("parse");
    benchmark::DoNotOptimize(sink.events);
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(json.size()));
}
BENCHMARK(BM_ChromeParseOnly)->ArgName("fast_path")->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond);

// Parse, build and finalise: ImportChromeTrace without the file.
void BM_ChromeImport(benchmark::State& state) {
  const std::string& json = SyntheticTrace();
  formats::ChromeJsonOptions options;
  for (auto _ : state) {
    auto source = io::OpenMemoryByteSource(json, "synthetic.json");
    model::TraceBuilder builder(model::RankInfo{});
    BuilderSink sink(builder);
    formats::TraceEnvelope envelope;
    if (!formats::ParseChromeJson(**source, options, sink, &envelope).ok())
      state.SkipWithError("parse");
    formats::ChromeClassifier classifier(envelope);
    auto trace = std::move(builder).Finalize(classifier);
    benchmark::DoNotOptimize(trace->slices.size());
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(json.size()));
}
BENCHMARK(BM_ChromeImport)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace perfdx::bench

BENCHMARK_MAIN();
