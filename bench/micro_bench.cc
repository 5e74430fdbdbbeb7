// Micro-benchmarks of the ingest hot paths. The end-to-end figures are in
// docs/PERFORMANCE.md (perfdx_ingest_bench); these isolate one stage each:
//
//   perfdx_micro_bench --benchmark_filter=Chrome
//
// The Chrome benchmarks parse a synthetic Kineto-like trace held in memory
// (operators with shapes, runtime calls, kernels and their flows), so they
// need no shared data.
//
// The Bounds benchmarks (issue #17, docs/RELIABILITY.md "Work bounded by
// input size") grow one hostile input with n and fit the curve
// (`_BigO`, `_RMS`): each was quadratic before.
//
//   perfdx_micro_bench --benchmark_filter=Bounds
#include <limits>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include "perfdx/analysis/activity.h"
#include "perfdx/analysis/collectives.h"
#include "perfdx/analysis/elementwise_chains.h"
#include "perfdx/analysis/gaps.h"
#include "perfdx/analysis/op_attribution.h"
#include "perfdx/analysis/op_stats.h"
#include "perfdx/analysis/steps.h"
#include "perfdx/base/decimal_time.h"
#include "perfdx/formats/chrome/chrome_json_parser.h"
#include "perfdx/formats/trace_loader.h"
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
  void OnEvent(model::RawEvent& event) override { events += event.Args().size() + 1; }
  void OnBadEvent(model::LoadStat) override {}
  void OnStat(model::LoadStat) override {}
  void OnWarning(std::string) override {}
  uint64_t events = 0;
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
    auto trace = formats::ImportChromeTraceFrom(**source, io::TraceInput{}, options);
    if (!trace.ok()) state.SkipWithError("import");
    benchmark::DoNotOptimize(trace->slices.size());
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(json.size()));
}
BENCHMARK(BM_ChromeImport)->Unit(benchmark::kMillisecond);

// ---------------------------------------------------------------------------
// Work bounded by input size (#17): inputs that were quadratic, grown with n.

std::string BoundsEvent(size_t i, std::string_view name_suffix) {
  return fmt::format(
      R"j({{"ph": "X", "cat": "cpu_op", "name": "aten::op_{}{}", "pid": 1, "tid": 1, )j"
      R"j("ts": {}, "dur": 19, "args": {{"External id": {}}}}})j",
      i % 97, name_suffix, 1661203462598738 + 25 * i, i);
}

void ParseForBench(benchmark::State& state, const std::string& json) {
  formats::ChromeJsonOptions options;
  for (auto _ : state) {
    auto source = io::OpenMemoryByteSource(json, "bounds.json");
    CountingSink sink;
    formats::TraceEnvelope envelope;
    if (!formats::ParseChromeJson(**source, options, sink, &envelope).ok())
      state.SkipWithError("parse");
    benchmark::DoNotOptimize(sink.events);
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(json.size()));
}

// n events, one name in a hundred with a byte that is not UTF-8 (every chunk
// goes to the exact path). Was 17 s for 13 MB (~93k events).
void BM_BoundsChromeInvalidUtf8(benchmark::State& state) {
  const auto n = static_cast<size_t>(state.range(0));
  std::string json = R"j({"traceEvents": [)j";
  for (size_t i = 0; i < n; ++i) json += BoundsEvent(i, i % 100 == 7 ? "\xff" : "") + ",";
  json.back() = ']';
  json += '}';
  ParseForBench(state, json);
  state.SetComplexityN(state.range(0));
}
BENCHMARK(BM_BoundsChromeInvalidUtf8)
    ->RangeMultiplier(4)
    ->Range(1 << 12, 1 << 18)
    ->Complexity(benchmark::oNLogN)
    ->Unit(benchmark::kMillisecond);

// n scalars `1,1,1,...` in the event array. Was over 60 s for 5M.
void BM_BoundsChromeScalars(benchmark::State& state) {
  const auto n = static_cast<size_t>(state.range(0));
  std::string json = R"j({"traceEvents": [)j";
  for (size_t i = 0; i < n; ++i) json += "1,";
  json.back() = ']';
  json += '}';
  ParseForBench(state, json);
  state.SetComplexityN(state.range(0));
}
BENCHMARK(BM_BoundsChromeScalars)
    ->RangeMultiplier(4)
    ->Range(1 << 14, 1 << 22)
    ->Complexity(benchmark::oNLogN)
    ->Unit(benchmark::kMillisecond);

// n events with `[1]` before every fourth: regions that fail mid-way. Was
// 52 s for 150k events.
void BM_BoundsChromeNonObjectEveryFourth(benchmark::State& state) {
  const auto n = static_cast<size_t>(state.range(0));
  std::string json = R"j({"traceEvents": [)j";
  for (size_t i = 0; i < n; ++i) json += (i % 4 == 0 ? "[1]," : "") + BoundsEvent(i, "") + ",";
  json.back() = ']';
  json += '}';
  ParseForBench(state, json);
  state.SetComplexityN(state.range(0));
}
BENCHMARK(BM_BoundsChromeNonObjectEveryFourth)
    ->RangeMultiplier(4)
    ->Range(1 << 12, 1 << 18)
    ->Complexity(benchmark::oNLogN)
    ->Unit(benchmark::kMillisecond);

// n steps of ten 5 us kernels 2 us apart. Was steps x kernels (a 300k-row
// kernel_details.csv: 7.7 s).
void BM_BoundsFindGapsManySteps(benchmark::State& state) {
  const int64_t steps = state.range(0);
  std::vector<analysis::Interval> kernels;
  analysis::StepTimeline timeline;
  for (int64_t k = 0; k < steps; ++k) {
    analysis::StepWindow w;
    w.id = k;
    w.start_ns = w.host_start_ns = k * 70'000;
    w.end_ns = w.host_end_ns = w.start_ns + 68'000;
    timeline.steps.push_back(w);
    for (int64_t j = 0; j < 10; ++j)
      kernels.push_back({w.start_ns + j * 7'000, w.start_ns + j * 7'000 + 5'000});
  }
  analysis::Activity activity;
  activity.compute_timeline = analysis::IntervalSet::FromSorted(kernels);
  const model::Trace trace;
  for (auto _ : state) {
    // min_gap above the 2 us gaps: the search, not the attribution, is timed.
    benchmark::DoNotOptimize(analysis::FindGaps(trace, activity, timeline, 3'000).total_ns);
  }
  state.SetComplexityN(steps);
}
BENCHMARK(BM_BoundsFindGapsManySteps)
    ->RangeMultiplier(4)
    ->Range(1 << 10, 1 << 18)
    ->Complexity(benchmark::oNLogN)
    ->Unit(benchmark::kMillisecond);

// n steps of one all-reduce each: the collective table looked for each
// collective's step in a loop over the steps (100k: analyze 125 s).
model::Trace TraceFromJson(const std::string& json) {
  auto source = io::OpenMemoryByteSource(json, "bounds.json");
  auto trace =
      formats::ImportChromeTraceFrom(**source, io::TraceInput{}, formats::ChromeJsonOptions{});
  return trace.ok() ? std::move(*trace) : model::Trace{};
}

void BM_BoundsCollectivesManySteps(benchmark::State& state) {
  const int64_t n = state.range(0);
  std::string json = R"j({"schemaVersion": 1, "traceEvents": [)j";
  analysis::StepTimeline timeline;
  for (int64_t k = 0; k < n; ++k) {
    json += fmt::format(
        R"j({}{{"ph": "X", "cat": "kernel", "name": "ncclKernel_AllReduce_RING_LL_Sum_float", )j"
        R"j("pid": 0, "tid": 7, "ts": {}, "dur": 5}})j",
        k == 0 ? "" : ",", 10 * k);
    analysis::StepWindow w;
    w.id = k;
    w.start_ns = w.host_start_ns = 10'000 * k;
    w.end_ns = w.host_end_ns = 10'000 * (k + 1);
    timeline.steps.push_back(w);
  }
  json += "]}";
  const model::Trace trace = TraceFromJson(json);
  for (auto _ : state) {
    benchmark::DoNotOptimize(
        analysis::AnalyzeCollectives(trace, &timeline, nullptr).collectives.size());
  }
  state.SetComplexityN(n);
}
BENCHMARK(BM_BoundsCollectivesManySteps)
    ->RangeMultiplier(4)
    ->Range(1 << 10, 1 << 18)
    ->Complexity(benchmark::oNLogN)
    ->Unit(benchmark::kMillisecond);

// n framework ops nested in each other, a kernel launched from the innermost
// and n more kernels from the same launch. SummarizeOps walked up the nesting
// per kernel with a list of the names seen, FindElementwiseChains per op: n x
// depth (20k deep: 3.4 s for analyze).
model::Trace DeepTrace(size_t n) {
  std::string out = R"j({"schemaVersion": 1, "traceEvents": [)j";
  for (size_t i = 0; i < n; ++i) {
    out += fmt::format(
        R"j({{"ph": "X", "cat": "cpu_op", "name": "aten::op_{}", "pid": 1, "tid": 1, "ts": {}, )j"
        R"j("dur": {}}},)j",
        i % 5, i, 2 * n - 2 * i);
  }
  out += fmt::format(
      R"j({{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, )j"
      R"j("ts": {}, "dur": 1, "args": {{"correlation": 1}}}})j",
      n);
  for (size_t i = 0; i <= n; ++i) {
    out += fmt::format(
        R"j(,{{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": {}, )j"
        R"j("dur": 1, "args": {{"correlation": 1}}}})j",
        n + 1 + 2 * i);
  }
  out += "]}";
  return TraceFromJson(out);
}

void BM_BoundsDeepNestingOps(benchmark::State& state) {
  const model::Trace trace = DeepTrace(static_cast<size_t>(state.range(0)));
  const analysis::OpAttribution attribution = analysis::AttributeDeviceWork(trace);
  const analysis::IntervalSet window = analysis::IntervalSet::Single(
      std::numeric_limits<int64_t>::min() / 4, std::numeric_limits<int64_t>::max() / 4);
  for (auto _ : state) {
    benchmark::DoNotOptimize(analysis::SummarizeOps(trace, attribution, window).ops.size());
    benchmark::DoNotOptimize(
        analysis::FindElementwiseChains(trace, attribution, {}, /*cpu_only=*/false).chains);
  }
  state.SetComplexityN(state.range(0));
}
BENCHMARK(BM_BoundsDeepNestingOps)
    ->RangeMultiplier(4)
    ->Range(1 << 8, 1 << 16)
    ->Complexity(benchmark::oNLogN)
    ->Unit(benchmark::kMillisecond);

// One collective spanning the profile over n short ones, and a plane task
// between each pair of short ones: filing each task under its collective
// looked back over every earlier one, tasks x collectives.
void BM_BoundsCollectiveSpanningTheProfile(benchmark::State& state) {
  const int64_t n = state.range(0);
  std::string json = R"j([
    {"ph": "M", "name": "process_name", "pid": 9, "tid": 0, "args": {"name": "HCCL"}},
    {"ph": "M", "name": "thread_name", "pid": 9, "tid": 0, "args": {"name": "Group 0 Communication"}},
    {"ph": "M", "name": "thread_name", "pid": 9, "tid": 1, "args": {"name": "Group 1 Communication"}},
    {"ph": "M", "name": "thread_name", "pid": 9, "tid": 2, "args": {"name": "Plane 0"}})j";
  json += fmt::format(
      R"j(,{{"ph": "X", "pid": 9, "tid": 1, "ts": 0, "dur": {}, "name": "hcom_allReduce__1"}})j",
      10 * (n + 1));
  for (int64_t j = 1; j <= n; ++j) {
    json += fmt::format(
        R"j(,{{"ph": "X", "pid": 9, "tid": 0, "ts": {}, "dur": 5, "name": "hcom_allGather__{}"}})j",
        10 * j, j);
    json += fmt::format(
        R"j(,{{"ph": "X", "pid": 9, "tid": 2, "ts": {}, "dur": 2, "name": "Notify_Wait"}})j",
        10 * j + 6);
  }
  json += "]";
  const model::Trace trace = TraceFromJson(json);
  for (auto _ : state) {
    benchmark::DoNotOptimize(analysis::AnalyzeCollectives(trace).filed_tasks.size());
  }
  state.SetComplexityN(n);
}
BENCHMARK(BM_BoundsCollectiveSpanningTheProfile)
    ->RangeMultiplier(4)
    ->Range(1 << 10, 1 << 18)
    ->Complexity(benchmark::oNLogN)
    ->Unit(benchmark::kMillisecond);

// A staircase of n nested ops, each ending one gap earlier than its parent,
// over n gaps: the slice holding each point of a gap was a walk up the
// nesting from the innermost op, gaps x depth.
void BM_BoundsGapsUnderAStaircase(benchmark::State& state) {
  const int64_t n = state.range(0);
  std::string json = R"j({"schemaVersion": 1, "traceEvents": [)j";
  for (int64_t i = 0; i < n; ++i) {
    json += fmt::format(
        R"j({{"ph": "X", "cat": "cpu_op", "name": "aten::op_{}", "pid": 1, "tid": 1, "ts": {}, )j"
        R"j("dur": {}}},)j",
        i % 5, i, n + 200 * (n - i) - i);
  }
  for (int64_t k = 0; k < n; ++k) {
    json += fmt::format(
        R"j({}{{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": {}, )j"
        R"j("dur": 5}})j",
        k == 0 ? "" : ",", n + 200 * k);
  }
  json += "]}";
  const model::Trace trace = TraceFromJson(json);
  const analysis::Activity activity = analysis::BuildActivity(trace);
  analysis::StepTimeline timeline;
  analysis::StepWindow w;
  w.id = 1;
  w.start_ns = w.host_start_ns = n * 1'000;
  w.end_ns = w.host_end_ns = (n + 200 * (n - 1) + 5) * 1'000;
  timeline.steps.push_back(w);
  for (auto _ : state) {
    benchmark::DoNotOptimize(analysis::FindGaps(trace, activity, timeline).total_ns);
  }
  state.SetComplexityN(n);
}
BENCHMARK(BM_BoundsGapsUnderAStaircase)
    ->RangeMultiplier(4)
    ->Range(1 << 10, 1 << 16)
    ->Complexity(benchmark::oNLogN)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace perfdx::bench

BENCHMARK_MAIN();
