#include "perfdx/advisor/cluster_advisor.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "test_support.h"

namespace perfdx::advisor {
namespace {

// 3 steps of 20 ms; each rank computes, then an NCCL all-reduce that lasts
// `comm_us` in every step (its wait for the late rank included).
model::Trace RankTrace(int rank, int comm_us) {
  std::string json = fmt::format(
      R"({{"schemaVersion": 1, "distributedInfo": {{"backend": "nccl", "rank": {}, "world_size": 2}},
    "traceEvents": [)",
      rank);
  for (int k = 0; k < 3; ++k) {
    const int base = k * 20000;
    json += fmt::format(
        R"({{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#{0}", "pid": 1, "tid": 1, "ts": {1}, "dur": 20000}},
           {{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": {1}, "dur": 1, "args": {{"correlation": {2}}}}},
           {{"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": {3}, "dur": 8000, "args": {{"correlation": {2}}}}},
           {{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": {4}, "dur": 1, "args": {{"correlation": {5}}}}},
           {{"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllReduce_Sum_f32_RING_LL", "pid": 0, "tid": 20, "ts": {6}, "dur": {7}, "args": {{"correlation": {5}}}}},)",
        k, base, 2 * k + 1, base + 10, base + 5, 2 * k + 2, base + 8100, comm_us);
  }
  json.pop_back();
  json += "]}";
  auto t = perfdx::testing::ImportString(json);
  EXPECT_TRUE(t.ok()) << t.status().message();
  return std::move(*t);
}

TEST(ClusterAdvisorTest, LateRankIsTheOneThatWaitsLeast) {
  // Rank 1 arrives late: its all-reduce takes 2 ms, rank 0's 10 ms (8 ms of
  // waiting). Wait per step 8 ms of 20 ms = 40% -> critical, naming rank 1.
  const model::Trace r0 = RankTrace(0, 10000);
  const model::Trace r1 = RankTrace(1, 2000);
  const analysis::RankAnalysis a0 = analysis::AnalyzeRank(r0, {});
  const analysis::RankAnalysis a1 = analysis::AnalyzeRank(r1, {});
  const std::vector<Finding> findings = RunClusterAdvisor({&a0, &a1}, Thresholds{});
  ASSERT_EQ(findings.size(), 1u);
  const Finding& f = findings[0];
  EXPECT_EQ(f.rule, "late_rank");
  EXPECT_EQ(f.rank, 1);
  EXPECT_EQ(f.gain.ns_per_step, 8'000'000);
  EXPECT_NEAR(f.gain.share, 0.4, 1e-9);
  EXPECT_EQ(f.severity, Severity::kCritical);
  EXPECT_NE(f.title.find("Rank 1"), std::string::npos) << f.title;
}

TEST(ClusterAdvisorTest, BalancedRanksAndSingleRankFindNothing) {
  const model::Trace r0 = RankTrace(0, 5000);
  const model::Trace r1 = RankTrace(1, 4900);  // 0.1 ms of 20 ms: 0.5%
  const analysis::RankAnalysis a0 = analysis::AnalyzeRank(r0, {});
  const analysis::RankAnalysis a1 = analysis::AnalyzeRank(r1, {});
  EXPECT_TRUE(RunClusterAdvisor({&a0, &a1}, Thresholds{}).empty());
  EXPECT_TRUE(RunClusterAdvisor({&a0}, Thresholds{}).empty());
}

}  // namespace
}  // namespace perfdx::advisor
