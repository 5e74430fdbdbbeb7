// Flow records that restate a correlation (TraceBuilder's RestatedFlow) are
// taken as the slice they sit on instead of being sorted and bound by the
// search over every record. The trace must be the one the search gives: each
// case is parsed once and built both ways from the same events
// (set_restate_flows(false) is the search alone).
#include <algorithm>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "perfdx/formats/chrome/chrome_classifier.h"
#include "perfdx/formats/chrome/chrome_json_parser.h"
#include "perfdx/io/byte_source.h"
#include "perfdx/model/trace_builder.h"
#include "test_support.h"

namespace perfdx::model {
namespace {

// Hands every event to both builders.
class TeeSink final : public formats::ChromeEventSink {
 public:
  TeeSink(TraceBuilder& a, TraceBuilder& b) : a_(a), b_(b) {}
  void OnEvent(RawEvent& event) override {
    a_.AddEvent(event);
    b_.AddEvent(event);
  }
  void OnBadEvent(LoadStat why) override {
    a_.AddBadEvent(why);
    b_.AddBadEvent(why);
  }
  void OnStat(LoadStat stat) override {
    a_.load_stats().Add(stat);
    b_.load_stats().Add(stat);
  }
  void OnWarning(std::string message) override {
    a_.load_stats().AddWarning(message);
    b_.load_stats().AddWarning(std::move(message));
  }

 private:
  TraceBuilder& a_;
  TraceBuilder& b_;
};

struct BothWays {
  Trace restated;
  Trace searched;
  size_t restated_records = 0;
};

BothWays Build(io::ByteSource& source) {
  TraceBuilder restating({});
  TraceBuilder searching({});
  searching.set_restate_flows(false);
  TeeSink sink(restating, searching);
  formats::TraceEnvelope envelope;
  EXPECT_TRUE(ParseChromeJson(source, formats::ChromeJsonOptions{}, sink, &envelope).ok());
  BothWays out;
  out.restated_records = restating.restated_flow_records();
  EXPECT_EQ(searching.restated_flow_records(), 0u);
  formats::ChromeClassifier c1(envelope);
  formats::ChromeClassifier c2(envelope);
  auto restated = std::move(restating).Finalize(c1);
  auto searched = std::move(searching).Finalize(c2);
  EXPECT_TRUE(restated.ok() && searched.ok());
  if (restated.ok()) out.restated = std::move(*restated);
  if (searched.ok()) out.searched = std::move(*searched);
  return out;
}

BothWays BuildJson(const std::string& json) {
  auto source = io::OpenMemoryByteSource(json, "inline.json");
  EXPECT_TRUE(source.ok());
  return Build(**source);
}

void ExpectSameTrace(const BothWays& t) {
  const Trace& a = t.restated;
  const Trace& b = t.searched;
  EXPECT_EQ(a.flows.from, b.flows.from);
  EXPECT_EQ(a.flows.to, b.flows.to);
  EXPECT_EQ(a.flows.kind, b.flows.kind);
  for (size_t k = 0; k < kLoadStatCount; ++k) {
    const auto stat = static_cast<LoadStat>(k);
    EXPECT_EQ(a.load_stats.Get(stat), b.load_stats.Get(stat)) << GetLoadStatInfo(stat).name;
  }
  EXPECT_EQ(a.strings.size(), b.strings.size());  // interned the same
  EXPECT_EQ(a.slices.size(), b.slices.size());
}

size_t FlowsOfKind(const Trace& t, FlowKind kind) {
  size_t n = 0;
  for (FlowKind k : t.flows.kind) n += k == kind ? 1 : 0;
  return n;
}

// Kineto's layout (HTA's control trace, PyTorch 1.x): a flow record right
// after each runtime call and each kernel, its id the slice's correlation.
// Two zero-length calls share a microsecond: the search binds both records
// to the later one, and so must the restated ones. A launch starts at the
// same time as its parent operator's child ("child"), which the record binds
// to instead.
constexpr const char* kKinetoLayout = R"({"traceEvents": [
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 100, "dur": 10, "args": {"correlation": 7}},
  {"ph": "s", "id": 7, "pid": 1, "tid": 1, "ts": 100, "cat": "ac2g", "name": "ac2g", "bp": "e"},
  {"ph": "X", "cat": "kernel", "name": "k1", "pid": 0, "tid": 7, "ts": 120, "dur": 30, "args": {"correlation": 7, "stream": 7, "device": 0}},
  {"ph": "f", "id": 7, "pid": 0, "tid": 7, "ts": 120, "cat": "ac2g", "name": "ac2g", "bp": "e"},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaFuncSetAttribute", "pid": 1, "tid": 1, "ts": 200, "dur": 1, "args": {"correlation": 8}},
  {"ph": "f", "id": 8, "pid": 1, "tid": 1, "ts": 200, "cat": "ac2g", "name": "ac2g", "bp": "e"},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaStreamGetCaptureInfo", "pid": 1, "tid": 1, "ts": 300, "dur": 0, "args": {"correlation": 9}},
  {"ph": "f", "id": 9, "pid": 1, "tid": 1, "ts": 300, "cat": "ac2g", "name": "ac2g", "bp": "e"},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaStreamGetCaptureInfo", "pid": 1, "tid": 1, "ts": 300, "dur": 0, "args": {"correlation": 10}},
  {"ph": "f", "id": 10, "pid": 1, "tid": 1, "ts": 300, "cat": "ac2g", "name": "ac2g", "bp": "e"},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 400, "dur": 20, "args": {"correlation": 11}},
  {"ph": "s", "id": 11, "pid": 1, "tid": 1, "ts": 400, "cat": "ac2g", "name": "ac2g", "bp": "e"},
  {"ph": "X", "cat": "cpu_op", "name": "child", "pid": 1, "tid": 1, "ts": 400, "dur": 5},
  {"ph": "X", "cat": "kernel", "name": "k2", "pid": 0, "tid": 7, "ts": 450, "dur": 30, "args": {"correlation": 11, "stream": 7, "device": 0}},
  {"ph": "f", "id": 11, "pid": 0, "tid": 7, "ts": 450, "cat": "ac2g", "name": "ac2g", "bp": "e"}
]})";

TEST(RestatedFlowsTest, KinetosLayoutIsTheTraceTheSearchGives) {
  const BothWays t = BuildJson(kKinetoLayout);
  EXPECT_EQ(t.restated_records, 7u);  // every record of the file
  ExpectSameTrace(t);
  // By hand: the launch at 100 starts the flow to k1; the one at 400 is
  // bound to "child", which starts the flow to k2; the records of
  // correlations 8, 9 and 10 have no start.
  const Trace& r = t.restated;
  EXPECT_EQ(r.load_stats.Get(LoadStat::kFlowUnmatched), 3u);
  ASSERT_EQ(FlowsOfKind(r, FlowKind::kLaunch), 3u);  // the two explicit ones and launch 400 -> k2
  std::vector<std::pair<std::string_view, std::string_view>> pairs;
  for (size_t i = 0; i < r.flows.size(); ++i) {
    pairs.emplace_back(r.slice_name(r.flows.from[i]), r.slice_name(r.flows.to[i]));
  }
  std::sort(pairs.begin(), pairs.end());
  const std::vector<std::pair<std::string_view, std::string_view>> expected = {
      {"child", "k2"}, {"cudaLaunchKernel", "k1"}, {"cudaLaunchKernel", "k2"}};
  EXPECT_EQ(pairs, expected);
}

// A kept record of a restated flow (here a step 't', which is never
// restated) puts every restated record back with the kept ones: the flow
// runs launch -> step -> kernel either way.
TEST(RestatedFlowsTest, AKeptRecordOfTheSameFlowTakesTheSearch) {
  const BothWays t = BuildJson(R"({"traceEvents": [
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 100, "dur": 10, "args": {"correlation": 7}},
    {"ph": "s", "id": 7, "pid": 1, "tid": 1, "ts": 100, "cat": "ac2g", "name": "ac2g", "bp": "e"},
    {"ph": "X", "cat": "cpu_op", "name": "middle", "pid": 1, "tid": 2, "ts": 105, "dur": 10},
    {"ph": "t", "id": 7, "pid": 1, "tid": 2, "ts": 106, "cat": "ac2g", "name": "ac2g", "bp": "e"},
    {"ph": "X", "cat": "kernel", "name": "k1", "pid": 0, "tid": 7, "ts": 120, "dur": 30, "args": {"correlation": 7, "stream": 7, "device": 0}},
    {"ph": "f", "id": 7, "pid": 0, "tid": 7, "ts": 120, "cat": "ac2g", "name": "ac2g", "bp": "e"}
  ]})");
  EXPECT_EQ(t.restated_records, 2u);
  ExpectSameTrace(t);
  EXPECT_EQ(t.restated.flows.size(), 3u);  // launch -> middle -> k1, and the launch pair
}

// Records of another category and name than the first restated one are
// kept, and two restated records on one slice both count. The last record
// (an 'f' bound to the next slice, so never restated) joins flow 7: all go
// back to the search.
TEST(RestatedFlowsTest, OtherFlowsAndDoubledRecords) {
  const BothWays t = BuildJson(R"({"traceEvents": [
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 100, "dur": 10, "args": {"correlation": 7}},
    {"ph": "s", "id": 7, "pid": 1, "tid": 1, "ts": 100, "cat": "ac2g", "name": "ac2g", "bp": "e"},
    {"ph": "s", "id": 7, "pid": 1, "tid": 1, "ts": 100, "cat": "ac2g", "name": "ac2g", "bp": "e"},
    {"ph": "X", "cat": "kernel", "name": "k1", "pid": 0, "tid": 7, "ts": 120, "dur": 30, "args": {"correlation": 7, "stream": 7, "device": 0}},
    {"ph": "f", "id": 7, "pid": 0, "tid": 7, "ts": 120, "cat": "ac2g", "name": "ac2g", "bp": "e"},
    {"ph": "X", "cat": "cpu_op", "name": "fwd", "pid": 1, "tid": 1, "ts": 200, "dur": 10, "args": {"correlation": 3}},
    {"ph": "s", "id": 3, "pid": 1, "tid": 1, "ts": 200, "cat": "fwdbwd", "name": "fwdbwd", "bp": "e"},
    {"ph": "X", "cat": "cpu_op", "name": "bwd", "pid": 1, "tid": 2, "ts": 300, "dur": 10, "args": {"correlation": 3}},
    {"ph": "f", "id": 3, "pid": 1, "tid": 2, "ts": 300, "cat": "fwdbwd", "name": "fwdbwd", "bp": "e"},
    {"ph": "f", "id": 7, "pid": 0, "tid": 7, "ts": 125, "cat": "ac2g", "name": "ac2g"}
  ]})");
  EXPECT_EQ(t.restated_records, 3u);  // the two starts and the first finish of flow 7
  ExpectSameTrace(t);
  EXPECT_EQ(FlowsOfKind(t.restated, FlowKind::kForwardBackward), 1u);
}

// The shared traces: Kineto's (CUDA, ROCm, Triton) and torch_npu's
// trace_view, whose flows restate correlations (Kineto) or connection ids
// (torch_npu).
TEST(RestatedFlowsTest, TheSharedTracesAreTheTracesTheSearchGives) {
  PERFDX_REQUIRE_SHARED();
  struct Case {
    const char* relative;
    size_t restated_records;
  };
  // The records restated, counted by a separate Python pass over each file:
  // a record bound to its enclosing slice whose id (a number, or digits)
  // is the "correlation" or "connection_id" of the last slice before it, on
  // the same pid, tid and time, with the first such record's category and
  // name. All of Kineto's (HTA's control trace: every one of its 34,142
  // records); two of torch_npu's, whose names carry the id
  // ("HostToDevice936"), so the others are kept.
  for (const Case& c : {
           Case{"traces/kineto/hta/trace_diff/control/control.json.gz", 34142},
           Case{"traces/kineto/hta/amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz", 37},
           Case{"traces/kineto/hta/triton_example/triton_example.json.gz", 3},
           Case{"traces/ascend/torch_npu_2rank_text_level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/"
                "trace_view.json",
                2},
       }) {
    SCOPED_TRACE(c.relative);
    auto source = io::OpenByteSource(perfdx::testing::SharedPath(c.relative), {});
    ASSERT_TRUE(source.ok()) << source.status().message();
    const BothWays t = Build(**source);
    EXPECT_EQ(t.restated_records, c.restated_records);
    ExpectSameTrace(t);
    EXPECT_GT(t.searched.flows.size(), 0u);
  }
}

}  // namespace
}  // namespace perfdx::model
