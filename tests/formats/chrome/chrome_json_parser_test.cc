// The Chrome trace event format as PyTorch, torch_npu and MindSpore write it.
// Every case runs through both the fast (simdjson chunk) path and the exact
// scalar path, with tiny chunks so that chunk boundaries fall everywhere.
#include "perfdx/formats/chrome/chrome_json_parser.h"

#include <string>

#include <gtest/gtest.h>

#include "perfdx/analysis/trace_summary.h"
#include "test_support.h"

namespace perfdx::formats {
namespace {

using model::EventKind;
using model::LoadStat;
using model::Trace;
using perfdx::testing::ImportString;

class ParserTest : public ::testing::TestWithParam<bool> {
 protected:
  Trace Import(const std::string& json) {
    auto r = ImportString(json, GetParam());
    EXPECT_TRUE(r.ok()) << r.status().message();
    return r.ok() ? std::move(*r) : Trace{};
  }
  Status ImportError(const std::string& json) {
    auto r = ImportString(json, GetParam());
    EXPECT_FALSE(r.ok());
    return r.ok() ? Status::Ok() : r.status();
  }
};

std::string X(const std::string& name, const std::string& ts, const std::string& dur = "1",
              const std::string& extra = "") {
  return R"({"ph": "X", "name": ")" + name + R"(", "pid": 1, "tid": 1, "ts": )" + ts +
         R"(, "dur": )" + dur + extra + "}";
}

int64_t TsOf(const Trace& t, std::string_view name) {
  for (model::SliceId i = 0; i < t.slices.size(); ++i) {
    if (t.slice_name(i) == name) return t.slices.ts_ns[i];
  }
  ADD_FAILURE() << "no slice " << name;
  return -1;
}

TEST_P(ParserTest, TimestampsInEveryNotation) {
  const Trace t =
      Import("[" + X("int", "1623142623460111") + ", " + X("dec", "1704161511420306.491") + ", " +
             X("str", "\"1736408883704643.212\"") + ", " + X("sci", "1.6921085481321545e+15") +
             ", " + X("durstr", "5", "\"2.5\"") + "]");
  EXPECT_EQ(TsOf(t, "int"), 1623142623460111000);
  EXPECT_EQ(TsOf(t, "dec"), 1704161511420306491);
  EXPECT_EQ(TsOf(t, "str"), 1736408883704643212);
  EXPECT_EQ(TsOf(t, "sci"), 1692108548132154500);
  for (model::SliceId i = 0; i < t.slices.size(); ++i) {
    if (t.slice_name(i) == "durstr") {
      EXPECT_EQ(t.slices.dur_ns[i], 2500);
    }
  }
}

TEST_P(ParserTest, ObjectFormWithKeysBeforeAndAfterTheEvents) {
  const std::string json =
      R"({"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "NVIDIA H200",
      "totalGlobalMem": 150000000000, "computeMajor": 9, "computeMinor": 0, "numSms": 132}],
      "traceEvents": [)" +
      X("a", "1") + ", " + X("b", "2") + R"(],
      "distributedInfo": {"backend": "nccl", "rank": 5, "world_size": 8},
      "baseTimeNanoseconds": 1700000000000000000, "traceName": "x.json"})";
  auto source = io::OpenMemoryByteSource(json, "obj.json");
  ASSERT_TRUE(source.ok());
  struct Counting final : ChromeEventSink {
    int events = 0;
    void OnEvent(model::RawEvent&) override { ++events; }
    void OnBadEvent(LoadStat) override { ADD_FAILURE(); }
    void OnStat(LoadStat) override { ADD_FAILURE(); }
    void OnWarning(std::string m) override { ADD_FAILURE() << m; }
  } sink;
  ChromeJsonOptions options;
  options.fast_path = GetParam();
  options.chunk_bytes = 64;
  TraceEnvelope env;
  ASSERT_TRUE(ParseChromeJson(**source, options, sink, &env).ok());
  EXPECT_EQ(sink.events, 2);
  EXPECT_TRUE(env.object_form);
  EXPECT_TRUE(env.has_schema_version);
  EXPECT_EQ(env.rank, 5);
  EXPECT_EQ(env.world_size, 8);
  EXPECT_EQ(env.backend, "nccl");
  EXPECT_EQ(env.base_time_ns, 1700000000000000000);
  ASSERT_EQ(env.devices.size(), 1u);
  EXPECT_EQ(env.devices[0].name, "NVIDIA H200");
  EXPECT_EQ(env.devices[0].compute_major, 9);
  EXPECT_EQ(env.devices[0].num_sms, 132);
}

// Issue #13: deviceProperties written after the events, with two devices
// (so that the value holds a `}, {` of its own): the fast path cut its
// region there, read the first device as an event (event_missing_phase)
// and lost the devices. Every chunk size, so that the cut falls everywhere.
TEST_P(ParserTest, KeysAfterTheEventsHoldingObjectListsAreNotEvents) {
  std::string events;
  for (int i = 0; i < 40; ++i) events += (i ? ", " : "") + X("e" + std::to_string(i), "10");
  const std::string json = R"({"schemaVersion": 1, "traceEvents": [)" + events + R"(],
      "deviceProperties": [{"id": 0, "name": "NVIDIA A100", "numSms": 108},
      {"id": 1, "name": "NVIDIA H100", "numSms": 132}], "traceName": "late.json"})";
  for (size_t chunk : {64, 200, 1000, 4096, 1 << 20}) {
    SCOPED_TRACE(chunk);
    auto source = io::OpenMemoryByteSource(json, "late.json");
    ASSERT_TRUE(source.ok());
    struct Counting final : ChromeEventSink {
      int events = 0;
      void OnEvent(model::RawEvent&) override { ++events; }
      void OnBadEvent(LoadStat s) override { ADD_FAILURE() << model::GetLoadStatInfo(s).name; }
      void OnStat(LoadStat s) override { ADD_FAILURE() << model::GetLoadStatInfo(s).name; }
      void OnWarning(std::string m) override { ADD_FAILURE() << m; }
    } sink;
    ChromeJsonOptions options;
    options.fast_path = GetParam();
    options.chunk_bytes = chunk;
    TraceEnvelope env;
    ASSERT_TRUE(ParseChromeJson(**source, options, sink, &env).ok());
    EXPECT_EQ(sink.events, 40);
    ASSERT_EQ(env.devices.size(), 2u);
    EXPECT_EQ(env.devices[0].name, "NVIDIA A100");
    EXPECT_EQ(env.devices[1].num_sms, 132);
  }
}

// A bare array smaller than a chunk: the first refill moves "{" to the
// first byte of the buffer, so the fast path's region starts at offset 0 and
// its "[" goes in the headroom byte before it. Written as d[begin - 1] that
// added size_t(-1) to the buffer pointer, a pointer overflow UBSan reports
// (issue #17; under the asan preset this test aborts on that code).
TEST_P(ParserTest, RegionAtTheFirstByteOfTheBuffer) {
  const Trace t = Import("[" + X("first", "1") + "]");
  EXPECT_EQ(t.raw.events, 1u);
  ASSERT_EQ(t.slices.size(), 1u);
  EXPECT_EQ(t.slice_name(0), "first");
}

TEST_P(ParserTest, BareArrayWithoutCloseAndTrailingCommas) {
  const Trace a = Import("[" + X("a", "1") + ", " + X("b", "2") + "\n");
  EXPECT_EQ(a.raw.events, 2u);
  EXPECT_EQ(a.load_stats.Get(LoadStat::kTruncated), 0u) << "allowed by the format";
  const Trace b = Import("[" + X("a", "1") + ", " + X("b", "2") + ",\n]");
  EXPECT_EQ(b.raw.events, 2u);
  EXPECT_EQ(b.slices.size(), 2u);
  const Trace c = Import(R"({"traceEvents": [)" + X("a", "1") + ",]}");
  EXPECT_EQ(c.raw.events, 1u);
}

TEST_P(ParserTest, TruncatedObjectKeepsCompleteEventsAndWarns) {
  const Trace t =
      Import(R"({"traceEvents": [)" + X("a", "1") + ", " + X("b", "2") + R"(, {"ph": "X", "na)");
  EXPECT_EQ(t.raw.events, 2u);
  EXPECT_EQ(t.load_stats.Get(LoadStat::kTruncated), 1u);
  ASSERT_FALSE(t.load_stats.warnings().empty());
  EXPECT_NE(t.load_stats.warnings()[0].find("byte"), std::string::npos)
      << t.load_stats.warnings()[0];
}

TEST_P(ParserTest, StringAndMixedPidTidNameOneThread) {
  const Trace t =
      Import(R"([{"ph": "X", "name": "a", "pid": "25738", "tid": "25738", "ts": 1, "dur": 1},
      {"ph": "X", "name": "b", "pid": 25738, "tid": 25738, "ts": 3, "dur": 1},
      {"ph": "X", "name": "c", "pid": "CPU functions", "tid": 1, "ts": 5, "dur": 1},
      {"ph": "X", "name": "d", "pid": 7, "ts": 5, "dur": 1}])");
  EXPECT_EQ(t.tracks.size(), 3u);  // "25738" == 25738; tid defaults to pid
  EXPECT_EQ(t.slices.track[0], t.slices.track[1]);
}

TEST_P(ParserTest, EveryPhase) {
  const Trace t = Import(R"([
    {"ph": "M", "name": "process_name", "pid": 1, "args": {"name": "python"}},
    {"ph": "M", "name": "thread_name", "pid": 1, "tid": 2, "args": {"name": "main"}},
    {"ph": "B", "name": "outer", "pid": 1, "tid": 2, "ts": 10},
    {"ph": "X", "name": "cudaLaunchKernel", "cat": "cuda_runtime", "pid": 1, "tid": 2, "ts": 11, "dur": 2,
     "args": {"correlation": 9}},
    {"ph": "E", "pid": 1, "tid": 2, "ts": 20},
    {"ph": "i", "name": "mark", "pid": 1, "tid": 2, "ts": 12, "s": "t"},
    {"ph": "I", "name": "mark2", "pid": 1, "tid": 2, "ts": 13},
    {"ph": "X", "name": "gemm", "cat": "kernel", "pid": 0, "tid": 7, "ts": 15, "dur": 3,
     "args": {"correlation": 9, "stream": 7, "device": 0}},
    {"ph": "s", "id": 9, "cat": "ac2g", "name": "ac2g", "pid": 1, "tid": 2, "ts": 11},
    {"ph": "f", "id": 9, "cat": "ac2g", "name": "ac2g", "pid": 0, "tid": 7, "ts": 15, "bp": "e"},
    {"ph": "C", "name": "mem", "pid": 1, "ts": 14, "args": {"used": 5, "free": 7.5}},
    {"ph": "b", "name": "req", "cat": "async", "id": "0x1", "pid": 1, "ts": 10},
    {"ph": "n", "name": "req_step", "cat": "async", "id": "0x1", "pid": 1, "ts": 11},
    {"ph": "e", "name": "req", "cat": "async", "id": "0x1", "pid": 1, "ts": 19},
    {"ph": "i", "name": "[memory]", "pid": 1, "tid": 2, "ts": 16,
     "args": {"Bytes": 512, "Total Allocated": 1024, "Total Reserved": 2048, "Device Id": 0, "Device Type": 1}},
    {"ph": "P", "name": "sample", "pid": 1, "ts": 12}
  ])");
  EXPECT_EQ(t.raw.events, 16u);
  EXPECT_EQ(t.raw.by_phase.at("M"), 2u);
  EXPECT_EQ(t.raw.by_phase.at("X"), 2u);
  EXPECT_EQ(t.raw.by_phase.at("P"), 1u);
  int64_t outer_dur = -1;
  int64_t async_dur = -1;
  for (model::SliceId i = 0; i < t.slices.size(); ++i) {
    if (t.slice_name(i) == "outer") outer_dur = t.slices.dur_ns[i];
    if (t.slice_name(i) == "req") async_dur = t.slices.dur_ns[i];
  }
  EXPECT_EQ(outer_dur, 10000);
  EXPECT_EQ(async_dur, 9000);
  ASSERT_EQ(t.flows.size(), 1u);
  EXPECT_EQ(t.slice_name(t.flows.from[0]), "cudaLaunchKernel");
  EXPECT_EQ(t.slice_name(t.flows.to[0]), "gemm");
  EXPECT_EQ(t.counters.size(), 2u);
  ASSERT_EQ(t.memory.size(), 1u);
  EXPECT_EQ(t.memory.bytes[0], 512);
  EXPECT_EQ(t.memory.total_reserved[0], 2048);
  const auto summary = analysis::SummarizeTrace(t);
  EXPECT_EQ(summary.events_by_kind[static_cast<size_t>(EventKind::kComputeKernel)], 1u);
  EXPECT_EQ(summary.events_by_kind[static_cast<size_t>(EventKind::kRuntimeCall)], 1u);
  EXPECT_EQ(summary.events_by_kind[static_cast<size_t>(EventKind::kMemoryEvent)], 1u);
  for (const model::Track& track : t.tracks) {
    if (t.str(track.thread_name) == "main") {
      EXPECT_EQ(t.str(track.process_name), "python");
    }
  }
}

TEST_P(ParserTest, EventsSplitAcrossManyChunksMatchOneChunk) {
  std::string json = "[";
  for (int i = 0; i < 500; ++i) {
    if (i) json += ", ";
    // Names that contain the fast path's cut pattern inside strings.
    json += X("op}, {" + std::to_string(i), std::to_string(i * 10), "5",
              R"(, "args": {"Input Dims": [[1, 2], [3]], "list": [{"a": 1}, {"b": 2}]})");
  }
  json += "]";
  const Trace t = Import(json);
  EXPECT_EQ(t.raw.events, 500u);
  EXPECT_EQ(t.slices.size(), 500u);
  EXPECT_EQ(t.ArgString(0, model::ArgKey::kInputDims), "[[1, 2], [3]]");
}

TEST_P(ParserTest, NotATraceIsAnErrorWithByteOffset) {
  Status s = ImportError("   \n  xyz");
  EXPECT_NE(s.message().find("inline.json: at byte 6"), std::string::npos) << s.message();
  s = ImportError(R"({"not_events": [1, 2]})");
  EXPECT_NE(s.message().find("traceEvents"), std::string::npos) << s.message();
  s = ImportError("");
  EXPECT_NE(s.message().find("empty"), std::string::npos) << s.message();
}

INSTANTIATE_TEST_SUITE_P(BothPaths, ParserTest, ::testing::Values(true, false),
                         perfdx::testing::ParserPathName);

// On every real trace, the fast path and the exact path read the same thing.
TEST(ParserEquivalenceTest, FastAndScalarPathsAgreeOnRealTraces) {
  PERFDX_REQUIRE_SHARED();
  for (const char* rel : {"traces/kineto/hta/trace_filter/sampled_rank-0.json.gz",
                          "traces/kineto/hta/amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz",
                          "traces/ascend/mstt_samples/single_step_trace_view.json",
                          "traces/kineto/hta/nccl_parser_config/nccl_data.json.gz"}) {
    auto fast = perfdx::testing::ImportFile(perfdx::testing::SharedPath(rel), true);
    auto exact = perfdx::testing::ImportFile(perfdx::testing::SharedPath(rel), false);
    ASSERT_TRUE(fast.ok() && exact.ok()) << rel;
    EXPECT_EQ(fast->raw.events, exact->raw.events) << rel;
    EXPECT_EQ(fast->raw.by_phase, exact->raw.by_phase) << rel;
    EXPECT_EQ(fast->slices.ts_ns, exact->slices.ts_ns) << rel;
    EXPECT_EQ(fast->slices.dur_ns, exact->slices.dur_ns) << rel;
    EXPECT_EQ(fast->slices.kind, exact->slices.kind) << rel;
    EXPECT_EQ(fast->slices.correlation, exact->slices.correlation) << rel;
    EXPECT_EQ(fast->args.bits.size(), exact->args.bits.size()) << rel;
    EXPECT_EQ(fast->flows.from, exact->flows.from) << rel;
  }
}

}  // namespace
}  // namespace perfdx::formats
