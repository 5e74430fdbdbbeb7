// Sums of input values stay defined (base/saturating.h). Each duration a
// trace may hold is at most 2^60 ns (model::kMaxDurationNs), so that no end
// or span overflows; forty kernels of that length on one op summed past
// int64: the kernel totals and the op's device time wrapped to negative
// numbers (device_self_ns -4.6e18 in the report; undefined behaviour,
// which the sanitizer build stops at). They now stop at int64's limit, and
// the replay, whose times would run past int64, declines.
#include <cstdint>
#include <limits>
#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "perfdx/analysis/collectives.h"
#include "perfdx/analysis/host_syncs.h"
#include "perfdx/analysis/op_stats.h"
#include "perfdx/analysis/rank_analysis.h"
#include "test_support.h"

namespace perfdx::analysis {
namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

// Two steps of just under 2^60 ns; forty launches from one aten::mm, each a
// kernel, a copy of 2^62 bytes and an NCCL kernel of just under 2^60 ns.
std::string LongestDurationsTrace() {
  constexpr int64_t kUs = 1152921504606846;  // just under 2^60 ns, in us
  std::string events = fmt::format(
      R"json({{"ph":"X","cat":"user_annotation","name":"ProfilerStep#1","pid":1,"tid":1,"ts":0,"dur":{0}}},)json"
      R"json({{"ph":"X","cat":"user_annotation","name":"ProfilerStep#2","pid":1,"tid":1,"ts":{0},"dur":{0}}})json",
      kUs);
  for (int i = 0; i < 40; ++i) {
    const int c = 1000 + i;
    const int stream = 7 + i % 4;
    events += fmt::format(
        R"json(,{{"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":{1},"dur":{0},"args":{{"External id":{2}}}}})json"
        R"json(,{{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":{3},"dur":1,"args":{{"correlation":{2},"External id":{2}}}}})json"
        R"json(,{{"ph":"X","cat":"kernel","name":"void gemm_kernel<float>(float*)","pid":0,"tid":{4},"ts":{5},"dur":{0},"args":{{"correlation":{2},"External id":{2},"stream":{4},"device":0}}}})json"
        R"json(,{{"ph":"X","cat":"gpu_memcpy","name":"Memcpy HtoD (Pageable -> Device)","pid":0,"tid":{4},"ts":{6},"dur":{0},"args":{{"correlation":{2},"stream":{4},"device":0,"bytes":4611686018427387904}}}})json"
        R"json(,{{"ph":"X","cat":"kernel","name":"ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)","pid":0,"tid":{7},"ts":{5},"dur":{0},"args":{{"stream":{7},"device":0}}}})json",
        kUs, 2 + i, c, 2 + i, stream, 10 + i, kUs + i, 20 + i % 4);
  }
  return R"json({"traceEvents":[)json" + events +
         R"json(],"deviceProperties":[{"id":0,"name":"NVIDIA A100-SXM4-80GB"}]})json";
}

TEST(SumsBounds, FortyKernelsOfTheLongestDurationSaturateTheirSums) {
  auto trace = perfdx::testing::ImportString(LongestDurationsTrace());
  ASSERT_TRUE(trace.ok()) << trace.status().message();
  ASSERT_EQ(trace->load_stats.Get(model::LoadStat::kEventInvalidDur), 0u) << "every event kept";
  const RankAnalysis a = AnalyzeRank(*trace, AnalysisOptions{});

  ASSERT_FALSE(a.kernels.kernels.empty());
  EXPECT_EQ(a.kernels.device_work_ns, kMax);
  for (const KernelStat& k : a.kernels.kernels) {
    EXPECT_GT(k.total_ns, 0) << k.name;
  }
  EXPECT_EQ(a.kernels.kernels.front().total_ns, kMax);
  ASSERT_FALSE(a.ops.ops.empty());
  for (const OpStat& op : a.ops.ops) {
    EXPECT_GE(op.host_self_ns, 0) << op.name;
    EXPECT_GE(op.device_self_ns, 0) << op.name;
    EXPECT_GE(op.device_total_ns, op.device_self_ns) << op.name;
  }
  const OpStat& mm = a.ops.ops.front();
  EXPECT_EQ(mm.name, "aten::mm");
  EXPECT_EQ(mm.host_total_ns, kMax);
  EXPECT_EQ(mm.device_self_ns, kMax);
  for (const CollectiveTypeTotal& t : a.collectives.by_type) {
    EXPECT_GE(t.total_ns, 0);
  }
  // The replay lays the work end to end: 160 ops of 2^60 ns are beyond what
  // its times can hold (kMaxReplayedWorkNs), and it says so instead.
  EXPECT_GT(a.replay_graph.work_ns, kMaxReplayedWorkNs);
  EXPECT_FALSE(a.replay.available);
  EXPECT_NE(a.replay.why_not.find("more than the"), std::string::npos) << a.replay.why_not;
}

// The top three operators' times summed past int64 (a saturated op total and
// a short one: 9223372036854775807 + 9800000 under UBSan, found by
// kineto_analyze_fuzzer); the sum saturates like the total.
TEST(SumsBounds, TheTopThreeOperatorsOfSaturatedTotalsShareAtMostTheWhole) {
  const auto [top1, top3] = TopOpShares({kMax, 9800000, 5});
  EXPECT_DOUBLE_EQ(top1, 1.0);
  EXPECT_DOUBLE_EQ(top3, 1.0);
  const auto [one, three] = TopOpShares({300, 100, 50, 50});
  EXPECT_DOUBLE_EQ(one, 0.6);
  EXPECT_DOUBLE_EQ(three, 0.9);
}

// Products of input values (base::SaturatingMul, base::ScaledPart), found by
// reading every multiplication of a time or count in the analyses, not by a
// fuzzer: each overflowed int64 (undefined behaviour) on the old code.
constexpr int64_t kLongestUs = 1152921504606846;  // just under 2^60 ns, in us
constexpr int64_t kLongestNs = kLongestUs * 1000;
constexpr int64_t kEarliestUs = -2305843009213693;  // just after -2^61 ns, in us

// A collective's bytes are its elements times its dtype's size: 2^62 floats
// are 2^64 bytes.
TEST(SumsBounds, TheBytesOfACollectiveOfTwoToTheSixtyTwoFloatsSaturate) {
  const std::string json =
      R"json({"traceEvents":[)json"
      R"json({"ph":"X","cat":"cpu_op","name":"record_param_comms","pid":1,"tid":1,"ts":0,"dur":100,)json"
      R"json("args":{"Collective name":"allreduce","In msg nelems":4611686018427387904,)json"
      R"json("Out msg nelems":4611686018427387904,"Group size":8,"dtype":"Float"}},)json"
      R"json({"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":10,"dur":5,"args":{"correlation":1}},)json"
      R"json({"ph":"X","cat":"kernel","name":"ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)",)json"
      R"json("pid":0,"tid":7,"ts":20,"dur":50,"args":{"correlation":1,"stream":7,"device":0}}]})json";
  auto trace = perfdx::testing::ImportString(json);
  ASSERT_TRUE(trace.ok()) << trace.status().message();
  const CollectiveSummary c = AnalyzeCollectives(*trace, nullptr, nullptr);
  ASSERT_EQ(c.collectives.size(), 1u);
  EXPECT_EQ(c.collectives[0].message_bytes, kMax);
  ASSERT_TRUE(c.collectives[0].algbw_gbps.has_value());
  EXPECT_GT(*c.collectives[0].algbw_gbps, 0);
}

// `n` cpu_op `name`s of just under 2^60 ns back to back from just after
// -2^61 ns, on one CPU thread.
Result<model::Trace> LongestOpsBackToBack(const std::string& name, int n) {
  std::string events;
  for (int k = 0; k < n; ++k) {
    events += fmt::format(
        R"json({}{{"ph":"X","cat":"cpu_op","name":"{}","pid":1,"tid":1,"ts":{},"dur":{}}})json",
        k == 0 ? "" : ",", name, kEarliestUs + k * kLongestUs, kLongestUs);
  }
  return perfdx::testing::ImportString(R"json({"traceEvents":[)json" + events + "]}");
}

// Five aten::add of just under 2^60 ns back to back on a CPU-only trace: one
// chain whose fusable time is span * 4 / 5, formed as span * 4 (2^62.3 * 4).
TEST(SumsBounds, AChainOfFiveLongestElementwiseOpsFusesFourFifthsOfItsSpan) {
  auto trace = LongestOpsBackToBack("aten::add", 5);
  ASSERT_TRUE(trace.ok()) << trace.status().message();
  ASSERT_EQ(trace->load_stats.Get(model::LoadStat::kEventInvalidTs), 0u) << "every event kept";
  const RankAnalysis a = AnalyzeRank(*trace, AnalysisOptions{});
  const ElementwiseChainSummary& e = a.elementwise_chains;
  ASSERT_EQ(e.chains, 1u);
  EXPECT_EQ(e.span_ns, 5 * kLongestNs);
  EXPECT_EQ(e.fusable_ns, 4 * kLongestNs);  // 5L * 4 / 5, exactly
}

// Three aten::item of just under 2^60 ns back to back are one cluster of
// syncs, whose span is credited to its calls in equal parts: the third
// part's bound, span * 3 / 3, was formed as 3L * 3 (past 2^63).
TEST(SumsBounds, AClusterOfThreeLongestSyncsCreditsEachCallAThirdOfItsSpan) {
  auto trace = LongestOpsBackToBack("aten::item", 3);
  ASSERT_TRUE(trace.ok()) << trace.status().message();
  const HostSyncSummary h = CountHostSyncs(*trace, {});
  ASSERT_EQ(h.clusters.size(), 1u);
  EXPECT_EQ(h.span_ns, 3 * kLongestNs);
  ASSERT_EQ(h.ops.size(), 1u);
  EXPECT_EQ(h.ops[0].count, 3u);
  EXPECT_EQ(h.ops[0].total_ns, 3 * kLongestNs);  // L + L + L
}

}  // namespace
}  // namespace perfdx::analysis
