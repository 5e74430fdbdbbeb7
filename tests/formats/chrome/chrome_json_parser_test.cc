// The Chrome trace event format as PyTorch, torch_npu and MindSpore write it.
// Every case runs through the fast (simdjson chunk) path, sequential and with
// chunks decoded ahead on three threads, and the exact scalar path, with tiny
// chunks so that chunk boundaries fall everywhere.
#include "perfdx/formats/chrome/chrome_json_parser.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include "perfdx/analysis/trace_summary.h"
#include "perfdx/io/byte_source.h"
#include "test_support.h"

namespace perfdx::formats {
namespace {

using model::EventKind;
using model::LoadStat;
using model::Trace;
using perfdx::testing::ImportString;

class ParserTest : public ::testing::TestWithParam<perfdx::testing::ParserPath> {
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
  ChromeJsonOptions options = perfdx::testing::ParserOptions(GetParam());
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
    ChromeJsonOptions options = perfdx::testing::ParserOptions(GetParam());
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

// The phase is read from its token when it is one plain letter; an escaped
// letter is the same phase, and a longer or empty string, or a number, is no
// phase the format has.
// Args are identified by their own bytes, whatever the events of the same
// kind before them held at that position (ArgKeyMemo): a key that starts
// like the one remembered, a swapped order, an escape, a long key changed in
// its middle, and a counter's series named as written.
TEST_P(ParserTest, ArgKeysAreTheirOwnWhateverCameBefore) {
  auto kernel = [](int ts, const std::string& args) {
    return R"({"ph": "X", "cat": "kernel", "name": "k)" + std::to_string(ts) +
           R"(", "pid": 0, "tid": 7, "ts": )" + std::to_string(ts) + R"(, "dur": 1, "args": {)" +
           args + "}}";
  };
  const Trace t =
      Import("[" + kernel(10, R"("stream": 7, "correlation": 1, "Process Group Name": "a")") +
             ",\n" + kernel(20, R"("stream id": 9, "correlation": 2, "Process Group Nbme": "b")") +
             ",\n" + kernel(30, R"("correlation": 3, "stream": 8)") + ",\n" +
             kernel(40, R"("streamx": 5, "correlatio\u006e": 4, "stream": 6)") + ",\n" +
             kernel(50, R"("stream": 7, "correlation": 5, "Process Group Name": "c")") + ",\n" +
             R"({"ph": "C", "name": "mem", "pid": 1, "ts": 60, "args": {"used": 5, "free": 7}},)"
             "\n" +
             R"({"ph": "C", "name": "mem", "pid": 1, "ts": 70, "args": {"free": 8, "used": 6}}])");
  struct Want {
    const char* name;
    std::optional<int64_t> stream;
    int64_t correlation;
    std::optional<std::string_view> group;
  };
  const Want wants[] = {
      {"k10", 7, 1, "a"},
      {"k20", std::nullopt, 2, std::nullopt},
      {"k30", 8, 3, std::nullopt},
      {"k40", 6, model::kNoCorrelation, std::nullopt},  // an escaped key is not one
      {"k50", 7, 5, "c"}};
  for (const Want& want : wants) {
    model::SliceId slice = 0;
    while (slice < t.slices.size() && t.slice_name(slice) != want.name) ++slice;
    ASSERT_LT(slice, t.slices.size()) << want.name;
    EXPECT_EQ(t.ArgInt(slice, model::ArgKey::kStream), want.stream) << want.name;
    EXPECT_EQ(t.slices.correlation[slice], want.correlation) << want.name;
    EXPECT_EQ(t.ArgString(slice, model::ArgKey::kProcessGroupName), want.group) << want.name;
  }
  std::map<std::string, std::vector<double>> series;
  for (size_t i = 0; i < t.counters.size(); ++i) {
    series[std::string(t.str(t.tracks[t.counters.track[i]].thread_name))].push_back(
        t.counters.value[i]);
  }
  EXPECT_EQ(series["mem.used"], (std::vector<double>{5, 6}));
  EXPECT_EQ(series["mem.free"], (std::vector<double>{7, 8}));
}

// Integer args and ids of 1 to 8 digits are read as one word (ParseIntToken),
// longer or signed ones digit by digit: every length reads its exact value,
// and a fraction or an exponent stays a double.
TEST_P(ParserTest, IntegersOfEveryLengthAreExact) {
  const std::vector<std::string> ints = {"0",
                                         "7",
                                         "42",
                                         "905",
                                         "1234",
                                         "98765",
                                         "100000",
                                         "2345678",
                                         "99999999",
                                         "100000000",
                                         "123456789012",
                                         "-5",
                                         "-12345678",
                                         "9223372036854775807"};
  std::string json = "[";
  for (size_t i = 0; i < ints.size(); ++i) {
    json += R"({"ph": "X", "cat": "kernel", "name": "n)" + std::to_string(i) + R"(", "pid": )" +
            ints[i] + R"(, "tid": 1, "ts": 1, "dur": 1, "args": {"stream": )" + ints[i] + "}},\n";
  }
  json +=
      R"({"ph": "X", "cat": "kernel", "name": "frac", "pid": 1, "tid": 1, "ts": 1, "dur": 1, "args": {"stream": 12.5}},)"
      "\n";
  json +=
      R"({"ph": "X", "cat": "kernel", "name": "exp", "pid": 1, "tid": 1, "ts": 1, "dur": 1, "args": {"stream": 1e3}}])";
  const Trace t = Import(json);
  for (model::SliceId slice = 0; slice < t.slices.size(); ++slice) {
    const std::string name(t.slice_name(slice));
    if (name == "frac" || name == "exp") {
      EXPECT_EQ(t.ArgDouble(slice, model::ArgKey::kStream), name == "frac" ? 12.5 : 1000.0);
      continue;
    }
    const int64_t want = std::stoll(ints.at(std::stoul(name.substr(1))));
    EXPECT_EQ(t.ArgInt(slice, model::ArgKey::kStream), want) << name;
    const model::Track& track = t.tracks[t.slices.track[slice]];
    EXPECT_FALSE(track.pid.is_text) << name;
    EXPECT_EQ(track.pid.number, want) << name;
  }
}

TEST_P(ParserTest, PhaseSpellings) {
  const Trace t = Import(R"([
    {"ph": "X", "name": "plain", "pid": 1, "tid": 1, "ts": 1, "dur": 1},
    {"ph": "\u0058", "name": "escaped", "pid": 1, "tid": 1, "ts": 3, "dur": 1},
    {"ph" : "X" , "name": "spaced", "pid": 1, "tid": 1, "ts": 5, "dur": 1},
    {"ph": "XX", "name": "long", "pid": 1, "tid": 1, "ts": 7, "dur": 1},
    {"ph": "", "name": "empty", "pid": 1, "tid": 1, "ts": 9, "dur": 1},
    {"ph": 88, "name": "number", "pid": 1, "tid": 1, "ts": 11, "dur": 1}
  ])");
  EXPECT_EQ(t.raw.events, 6u);
  EXPECT_EQ(t.raw.by_phase.at("X"), 3u);
  ASSERT_EQ(t.slices.size(), 3u);
  EXPECT_EQ(TsOf(t, "plain"), 1000);
  EXPECT_EQ(TsOf(t, "escaped"), 3000);
  EXPECT_EQ(TsOf(t, "spaced"), 5000);
  EXPECT_EQ(t.load_stats.Get(LoadStat::kEventUnknownPhase), 1u);  // "XX"
  EXPECT_EQ(t.load_stats.Get(LoadStat::kEventMissingPhase), 2u);  // "" and 88
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

INSTANTIATE_TEST_SUITE_P(EveryPath, ParserTest, perfdx::testing::kEveryParserPath,
                         perfdx::testing::ParserPathName);

// On every real trace, the fast path (sequential and parallel) and the exact
// path read the same thing.
TEST(ParserEquivalenceTest, FastAndScalarPathsAgreeOnRealTraces) {
  PERFDX_REQUIRE_SHARED();
  for (const char* rel : {"traces/kineto/hta/trace_filter/sampled_rank-0.json.gz",
                          "traces/kineto/hta/amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz",
                          "traces/ascend/mstt_samples/single_step_trace_view.json",
                          "traces/kineto/hta/nccl_parser_config/nccl_data.json.gz"}) {
    using perfdx::testing::ParserPath;
    auto exact = perfdx::testing::ImportFile(perfdx::testing::SharedPath(rel), ParserPath::kExact);
    ASSERT_TRUE(exact.ok()) << rel;
    for (ParserPath path : {ParserPath::kFast, ParserPath::kParallel}) {
      auto fast = perfdx::testing::ImportFile(perfdx::testing::SharedPath(rel), path);
      ASSERT_TRUE(fast.ok()) << rel;
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
}

}  // namespace
}  // namespace perfdx::formats

namespace perfdx::formats {
namespace {

// Every sink call, in order, and the thread it came on.
struct Recorder final : ChromeEventSink {
  std::vector<std::string> seen;
  std::vector<std::thread::id> threads;
  void OnEvent(model::RawEvent& e) override {
    seen.push_back("event " + std::string(e.phase) + " " + std::string(e.name) + " " +
                   std::to_string(e.ts_ns) + " " + std::to_string(e.dur_ns));
    threads.push_back(std::this_thread::get_id());
  }
  void OnBadEvent(LoadStat why) override {
    seen.push_back("bad " + std::string(model::GetLoadStatInfo(why).name));
  }
  void OnStat(LoadStat stat) override {
    seen.push_back("stat " + std::string(model::GetLoadStatInfo(stat).name));
  }
  void OnWarning(std::string message) override { seen.push_back("warning " + message); }
};

// A source that returns few bytes per read, a different number each time.
class TrickleSource final : public io::ByteSource {
 public:
  explicit TrickleSource(std::unique_ptr<io::ByteSource> inner)
      : ByteSource(inner->path(), inner->compression()), inner_(std::move(inner)) {}
  Result<size_t> Read(char* dst, size_t capacity) override {
    next_ = next_ % 13 + 1;
    Result<size_t> n = inner_->Read(dst, std::min(capacity, next_));
    truncation_ = inner_->truncation();  // the parser names it from the source it reads
    return n;
  }

 private:
  std::unique_ptr<io::ByteSource> inner_;
  size_t next_ = 0;
};

Recorder Parse(const std::string& bytes, const ChromeJsonOptions& options,
               TraceEnvelope* envelope = nullptr, bool trickle = false) {
  Recorder sink;
  auto source = io::OpenMemoryByteSource(bytes, "damaged.json");
  EXPECT_TRUE(source.ok());
  std::unique_ptr<io::ByteSource> s = std::move(*source);
  if (trickle) s = std::make_unique<TrickleSource>(std::move(s));
  TraceEnvelope local;
  EXPECT_TRUE(ParseChromeJson(*s, options, sink, envelope ? envelope : &local).ok());
  return sink;
}

ChromeJsonOptions ParallelOptions(size_t chunk_bytes, unsigned threads) {
  ChromeJsonOptions options;
  options.chunk_bytes = chunk_bytes;
  options.decode_threads = threads;
  options.parallel_after_bytes = 0;
  return options;
}

// 3000 elements with damage of every kind the exact path handles, every few
// hundred bytes, and keys after the array whose values hold `}, {`.
std::string DamagedTrace() {
  std::string json = R"({"schemaVersion": 1, "traceEvents": [)";
  for (int i = 0; i < 3000; ++i) {
    if (i) json += ",\n";
    const std::string ts = std::to_string(1000 + i * 10);
    switch (i % 97) {
      case 13:  // invalid UTF-8 in a name
        json += R"({"ph": "X", "name": "bad\xff)" + std::to_string(i) +
                R"(", "pid": 1, "tid": 1, "ts": )" + ts + R"(, "dur": 5})";
        break;
      case 29:  // an unescaped Windows path (kineto#336)
        json += R"({"ph": "X", "name": "C:\temp\op)" + std::to_string(i) +
                R"(", "pid": 1, "tid": 1, "ts": )" + ts + R"(, "dur": 5})";
        break;
      case 41:  // not an object
        json += "17";
        break;
      case 57:  // an empty value (pytorch#172353)
        json += R"({"ph": "X", "name": "empty)" + std::to_string(i) +
                R"(", "pid": 1, "tid": 1, "ts": )" + ts +
                R"(, "dur": 5, "args": {"Process Group Description": , "x": 1}})";
        break;
      case 71:  // the fast path's cut pattern inside a string
        json += R"({"ph": "X", "name": "op}, {)" + std::to_string(i) +
                R"(", "pid": 1, "tid": 2, "ts": )" + ts + R"(, "dur": 5})";
        break;
      default:
        json += R"({"ph": "X", "cat": "kernel", "name": "k)" + std::to_string(i % 7) +
                R"(", "pid": 0, "tid": 7, "ts": )" + ts +
                R"(, "dur": 5, "args": {"correlation": )" + std::to_string(i) + "}}";
    }
  }
  json +=
      R"(], "deviceProperties": [{"id": 0, "name": "GPU A"}, {"id": 1, "name": "GPU B"}], "traceName": "t"})";
  return json;
}

// Issue #13: chunks decoded ahead by other threads reach the sink in file
// order, on the calling thread, and read the same events and stats as one
// thread does, also where a chunk in flight holds damage that sends the
// reader back to the exact path (the chunks after it are given back unread).
TEST(ParallelDecodeTest, DamageAmongChunksInFlightReadsAsOneThreadDoes) {
  const std::string json = DamagedTrace();
  auto parse = [&](const ChromeJsonOptions& options, TraceEnvelope* env) {
    return Parse(json, options, env);
  };
  ChromeJsonOptions one;
  TraceEnvelope one_env;
  const Recorder expected = parse(one, &one_env);
  // An independent count: 3000 elements, of which every 97th from 41 is not
  // an object, and the two device names after the array.
  size_t events = 0;
  for (const std::string& s : expected.seen) events += s.rfind("event ", 0) == 0;
  EXPECT_EQ(events, 3000u - (3000 / 97 + (3000 % 97 > 41 ? 1 : 0)));
  ASSERT_EQ(one_env.devices.size(), 2u);

  for (size_t chunk : {size_t{300}, size_t{1024}, size_t{4096}}) {
    for (unsigned threads : {2u, 3u, 8u}) {
      const ChromeJsonOptions many = ParallelOptions(chunk, threads);
      ChromeJsonOptions one_chunked = one;
      one_chunked.chunk_bytes = chunk;
      TraceEnvelope env;
      TraceEnvelope env_one;
      const Recorder got = parse(many, &env);
      const Recorder want = parse(one_chunked, &env_one);
      EXPECT_EQ(got.seen, want.seen) << chunk << " bytes, " << threads << " threads";
      EXPECT_EQ(got.seen, expected.seen) << "as with the default chunk";
      EXPECT_EQ(env.devices.size(), 2u);
      for (std::thread::id id : got.threads) ASSERT_EQ(id, std::this_thread::get_id());
    }
  }
}

// An input whose expected size reaches the threshold is decoded ahead from
// its first chunk (the loader knows a file's size before it reads it): the
// same calls, in the same order, as when it is read on one thread.
TEST(ParallelDecodeTest, AnInputExpectedPastTheThresholdReadsAsOneThreadDoes) {
  const std::string json = DamagedTrace();
  ChromeJsonOptions one;
  one.chunk_bytes = 4096;
  const Recorder want = Parse(json, one);
  for (uint64_t expected : {uint64_t{0}, uint64_t{json.size()}, uint64_t{1} << 40}) {
    ChromeJsonOptions ahead = one;
    ahead.decode_threads = 3;
    ahead.parallel_after_bytes = json.size();  // never reached by the offset alone
    ahead.expected_bytes = expected;
    EXPECT_EQ(Parse(json, ahead).seen, want.seen) << expected;
  }
}

std::string ReadRepoFile(const std::string& rel) {
  std::ifstream in(rel, std::ios::binary);
  EXPECT_TRUE(in.good()) << rel;
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Regression (chrome fuzzer, #13): a trace cut off inside an event and
// followed by a second copy of its start. Three chunks in flight fail; the
// parallel reader went on from the first failure with a buffer holding all
// the chunks read ahead, so its later regions ended elsewhere, and the fast
// path took the spliced event, which the sequential reader reports as bad
// JSON, for an event. The failed region is now decided on the buffer the
// sequential reader had, and what was read ahead is read again after it.
TEST(ParallelDecodeTest, AFailedRegionInFlightIsDecidedOnTheSequentialReadersBuffer) {
  const std::string json = ReadRepoFile("tests/data/fuzz/parallel_divergence_1.json");
  ASSERT_EQ(json.size(), 10207u);
  ChromeJsonOptions exact;
  exact.fast_path = false;
  exact.chunk_bytes = 512;
  const Recorder reference = Parse(json, exact);
  // An independent reading of the file: the event at ts 32001 runs into the
  // copy's header (`"c10::BFloat1{"schemaVersion"`), which no JSON parser
  // takes, and the file ends inside an event of the copy, at byte 10095.
  const auto bad =
      std::find(reference.seen.begin(), reference.seen.end(), "bad event_invalid_json");
  ASSERT_NE(bad, reference.seen.end());
  ASSERT_NE(bad, reference.seen.begin());
  EXPECT_EQ(*(bad - 1), "event X ,cudaLaunchK#2 32000000 16000000");
  ASSERT_GE(reference.seen.end() - bad, 3);
  EXPECT_EQ(*(bad + 1), "stat truncated");
  EXPECT_EQ(*(bad + 2),
            "warning damaged.json: truncated at byte 10095: the file ends inside an event; the "
            "events before it were read");
  for (size_t chunk : {size_t{300}, size_t{512}, size_t{1024}, size_t{4096}}) {
    ChromeJsonOptions one;
    one.chunk_bytes = chunk;
    const Recorder want = Parse(json, one);
    if (chunk == 512) {
      EXPECT_EQ(want.seen, reference.seen);
    }
    for (unsigned threads : {2u, 3u, 8u}) {
      const Recorder got = Parse(json, ParallelOptions(chunk, threads));
      EXPECT_EQ(got.seen, want.seen) << chunk << " bytes, " << threads << " threads";
    }
  }
}

// Regression (chrome fuzzer, 2026-12-06): a zstd frame whose checksum does
// not match (`zstd -d` says "Restored data doesn't match checksum"). How
// much zstd hands out before it reports the damage depends on the room each
// read gives it, and the parallel reader reads in other sizes than the
// sequential one, so the two may load different prefixes: the fuzzer's
// check that they agree, like its read-pattern check, now skips corrupt
// streams. What must hold on both: the events decoded before the damage
// are loaded, and the damage is named.
TEST(ParallelDecodeTest, ACorruptZstdFrameIsNamedOnEveryPath) {
  const std::string bytes = ReadRepoFile("tests/data/fuzz/corrupt_zstd_parallel_1.json.zst");
  ASSERT_EQ(bytes.size(), 1224u);
  ASSERT_EQ(bytes.substr(0, 4), std::string("\x28\xb5\x2f\xfd", 4));  // zstd's magic
  for (unsigned threads : {1u, 3u}) {
    const Recorder got = Parse(bytes, ParallelOptions(512, threads));
    const auto events = std::count_if(got.seen.begin(), got.seen.end(), [](const std::string& s) {
      return s.rfind("event ", 0) == 0;
    });
    EXPECT_GT(events, 0) << threads;
    EXPECT_TRUE(std::any_of(got.seen.begin(), got.seen.end(), [](const std::string& s) {
      return s.rfind("warning ", 0) == 0 && s.find("corrupt zstd data") != std::string::npos &&
             s.find("doesn't match checksum") != std::string::npos;
    })) << threads;
  }
}

// A zstd frame cut inside a raw block (a chrome fuzzer find): the 1-13-byte
// reads got fewer bytes of it than the 512-byte ones, the decoder's held
// bytes left behind when the input ran out (io/byte_source_test.cc). Every
// read pattern, on one thread and on three, now sees the same calls, and
// the truncation named.
TEST(ParallelDecodeTest, ACutZstdFrameReadsTheSameOnEveryPath) {
  const std::string bytes = ReadRepoFile("tests/data/fuzz/truncated_zstd_trickle_1.json.zst");
  ASSERT_EQ(bytes.size(), 4728u);
  for (unsigned threads : {1u, 3u}) {
    const ChromeJsonOptions options = ParallelOptions(512, threads);
    const Recorder whole = Parse(bytes, options);
    EXPECT_TRUE(std::any_of(whole.seen.begin(), whole.seen.end(), [](const std::string& s) {
      return s.rfind("warning ", 0) == 0 && s.find("zstd stream ends early") != std::string::npos;
    })) << threads;
    EXPECT_EQ(Parse(bytes, options, nullptr, /*trickle=*/true).seen, whole.seen) << threads;
  }
}

// What the fast path reads depends on the stream alone: a source that
// returns a few bytes per read, and the same trace gzipped, give the sink the
// same calls as the whole file in memory, on one thread and on three.
TEST(ParallelDecodeTest, HowMuchEachReadReturnsChangesNothing) {
  for (const std::string& json :
       {DamagedTrace(), ReadRepoFile("tests/data/fuzz/parallel_divergence_1.json")}) {
    for (unsigned threads : {1u, 3u}) {
      const ChromeJsonOptions options = ParallelOptions(512, threads);
      const Recorder whole = Parse(json, options);
      ASSERT_GT(whole.seen.size(), 50u);
      EXPECT_EQ(Parse(json, options, nullptr, /*trickle=*/true).seen, whole.seen) << threads;
      EXPECT_EQ(Parse(perfdx::testing::GzipCompress(json), options).seen, whole.seen) << threads;
      EXPECT_EQ(Parse(perfdx::testing::GzipCompress(json), options, nullptr, true).seen, whole.seen)
          << threads;
    }
  }
}

}  // namespace
}  // namespace perfdx::formats

namespace perfdx::formats {
namespace {

// The same model, column by column.
void ExpectSameModel(const model::Trace& x, const model::Trace& y) {
  EXPECT_EQ(x.raw.events, y.raw.events);
  EXPECT_EQ(x.raw.by_phase, y.raw.by_phase);
  EXPECT_EQ(x.strings.size(), y.strings.size());
  ASSERT_EQ(x.tracks.size(), y.tracks.size());
  for (size_t t = 0; t < x.tracks.size(); ++t) {
    EXPECT_EQ(x.tracks[t].kind, y.tracks[t].kind);
    EXPECT_EQ(x.tracks[t].slice_begin, y.tracks[t].slice_begin);
    EXPECT_EQ(x.tracks[t].slice_end, y.tracks[t].slice_end);
  }
  const model::SliceTable& s = x.slices;
  const model::SliceTable& r = y.slices;
  EXPECT_EQ(s.ts_ns, r.ts_ns);
  EXPECT_EQ(s.dur_ns, r.dur_ns);
  EXPECT_EQ(s.track, r.track);
  EXPECT_EQ(s.kind, r.kind);
  EXPECT_EQ(s.flags, r.flags);
  EXPECT_EQ(s.parent, r.parent);
  EXPECT_EQ(s.depth, r.depth);
  EXPECT_EQ(s.correlation, r.correlation);
  EXPECT_EQ(s.external_id, r.external_id);
  EXPECT_EQ(s.args_begin, r.args_begin);
  EXPECT_EQ(s.args_count, r.args_count);
  // Names by text: the pools intern in the same order, but say so by value.
  for (model::SliceId i = 0; i < s.size(); i += 97) {
    ASSERT_EQ(x.slice_name(i), y.slice_name(i)) << i;
  }
  EXPECT_EQ(x.args.key, y.args.key);
  EXPECT_EQ(x.args.bits, y.args.bits);
  EXPECT_EQ(x.flows.from, y.flows.from);
  EXPECT_EQ(x.flows.to, y.flows.to);
  EXPECT_EQ(x.flows.kind, y.flows.kind);
  EXPECT_EQ(x.counters.track, y.counters.track);
  EXPECT_EQ(x.counters.ts_ns, y.counters.ts_ns);
  EXPECT_EQ(x.counters.value, y.counters.value);
  EXPECT_EQ(x.memory.ts_ns, y.memory.ts_ns);
  EXPECT_EQ(x.memory.bytes, y.memory.bytes);
  EXPECT_EQ(x.memory.total_allocated, y.memory.total_allocated);
  EXPECT_EQ(x.memory.addr, y.memory.addr);
  ASSERT_EQ(x.steps.size(), y.steps.size());
  for (size_t k = 0; k < x.steps.size(); ++k) {
    EXPECT_EQ(x.steps[k].id, y.steps[k].id);
    EXPECT_EQ(x.steps[k].start_ns, y.steps[k].start_ns);
    EXPECT_EQ(x.steps[k].marker, y.steps[k].marker);
  }
  for (size_t k = 0; k < model::kLoadStatCount; ++k) {
    const auto stat = static_cast<model::LoadStat>(k);
    EXPECT_EQ(x.load_stats.Get(stat), y.load_stats.Get(stat)) << model::GetLoadStatInfo(stat).name;
  }
}

// Issue #13: a trace loaded with two threads (chunks decoded ahead from the
// first byte, Finalize's order, flow sort and permutation beside the
// classification, launch pairing and the counter and memory sort beside the
// nesting and flow binding) is the same model, column by column, as with one;
// and so is one under the threshold, whose gzip is inflated ahead by the
// second thread (io::ReadAhead). The two largest shared traces: above the
// sizes where Finalize takes a second thread.
TEST(ParallelLoadTest, TwoThreadsBuildTheSameModelAsOne) {
  PERFDX_REQUIRE_SHARED();
  size_t memory_events = 0;
  size_t launch_flows = 0;
  for (const uint64_t parallel_after : {uint64_t{0}, ChromeJsonOptions{}.parallel_after_bytes})
    for (const char* rel : {"traces/kineto/hta/trace_diff/control/control.json.gz",
                            "traces/kineto/tbp/resnet50_num_workers_0/"
                            "worker0.1623143089861.pt.trace.json.gz"}) {
      const std::string path = perfdx::testing::SharedPath(rel);
      LoadOptions one;
      one.threads = 1;
      LoadOptions two;
      two.threads = 2;
      two.json.parallel_after_bytes = parallel_after;
      auto a = LoadTraces({path}, one);
      auto b = LoadTraces({path}, two);
      ASSERT_TRUE(a.ok() && b.ok()) << rel;
      ASSERT_EQ(a->traces.size(), 1u);
      ASSERT_EQ(b->traces.size(), 1u);
      const model::Trace& x = a->traces[0];
      const model::Trace& y = b->traces[0];
      ASSERT_GE(x.slices.size(), model::kParallelFinalizeSlices)
          << "large enough for Finalize's second thread";
      ExpectSameModel(x, y);
      memory_events += x.memory.size();
      launch_flows += static_cast<size_t>(
          std::count(x.flows.kind.begin(), x.flows.kind.end(), model::FlowKind::kLaunch));
    }
  // Not vacuous: the control trace profiles memory, and both launch kernels.
  EXPECT_GT(memory_events, 0u);
  EXPECT_GT(launch_flows, 1000u);
}

// A zstd trace states its size (io::ZstdStatedBytes): with a thread to spare,
// one under the threshold is decompressed ahead on it, one above is decoded
// ahead from its first chunk. Either way the model is the plain file's.
TEST(ParallelLoadTest, AZstdTraceReadAheadIsThePlainTracesModel) {
  PERFDX_REQUIRE_SHARED();
  auto source = io::OpenByteSource(
      perfdx::testing::SharedPath("traces/kineto/hta/trace_diff/control/control.json.gz"));
  ASSERT_TRUE(source.ok());
  std::string json;
  std::string block(1 << 20, '\0');
  for (;;) {
    auto n = (*source)->Read(block.data(), block.size());
    ASSERT_TRUE(n.ok());
    if (*n == 0) break;
    json.append(block, 0, *n);
  }
  perfdx::testing::TempDir dir;
  const std::string plain = dir.Write("control.json", json);
  const std::string zst = dir.Write("control.json.zst", perfdx::testing::ZstdCompress(json));
  ASSERT_EQ(io::ZstdStatedBytes(zst), json.size());
  LoadOptions one;
  one.threads = 1;
  auto a = LoadTraces({plain}, one);
  ASSERT_TRUE(a.ok());
  for (const uint64_t parallel_after : {uint64_t{0}, ChromeJsonOptions{}.parallel_after_bytes}) {
    LoadOptions two;
    two.threads = 2;
    two.json.parallel_after_bytes = parallel_after;
    auto b = LoadTraces({zst}, two);
    ASSERT_TRUE(b.ok()) << b.status().message();
    ExpectSameModel(a->traces.at(0), b->traces.at(0));
  }
}

}  // namespace
}  // namespace perfdx::formats
