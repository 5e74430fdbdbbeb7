#include "perfdx/advisor/cluster_advisor.h"

#include <string>
#include <tuple>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "advisor/rule_test_support.h"
#include "perfdx/cluster/summary_file.h"
#include "test_support.h"

namespace perfdx::advisor {
namespace {

using testing::JobFindings;

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
  const std::vector<Finding> findings = JobFindings({&a0, &a1}, Thresholds{});
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
  EXPECT_TRUE(JobFindings({&a0, &a1}, Thresholds{}).empty());
  EXPECT_TRUE(JobFindings({&a0}, Thresholds{}).empty());
}

// A torch_npu job of four ranks from hand-made summaries (two steps of
// 200 us): rank 2 is late by 30 us per step, and `slow` sets what its step
// spends longer on.
struct Job {
  std::vector<cluster::RankSummary> ranks;
  std::vector<Finding> Findings() const {
    std::vector<const cluster::RankSummary*> p;
    for (const cluster::RankSummary& r : ranks) p.push_back(&r);
    const cluster::ClusterAnalysis c = cluster::AnalyzeCluster(p, LinkPeaksOf(Thresholds{}));
    return RunClusterAdvisor(c, p, Thresholds{});
  }
};

Job SlowRankJob(int64_t dataloader_ns, int64_t free_ns, int64_t computing_ns,
                int64_t stalled_launch_steps) {
  Job job;
  for (int64_t r = 0; r < 4; ++r) {
    cluster::RankSummary s;
    s.rank = r;
    s.path = fmt::format("rank{}_ascend_pt", r);
    s.runtime.framework = model::Framework::kTorchNpu;
    s.runtime.platform = model::Platform::kAscend;
    s.distributed_backend = "hccl";
    s.gain_step_ns = 200'000;
    s.complete_steps = true;
    const bool slow = r == 2;
    s.stalled_launch_steps = slow ? stalled_launch_steps : 0;
    for (int64_t id = 1; id <= 2; ++id) {
      cluster::SummaryStep step;
      step.id = id;
      step.step_ns = 200'000;
      step.computing_ns = slow ? computing_ns : 100'000;
      step.communication_ns = slow ? 10'000 : 40'000;
      step.communication_not_overlapped_ns = step.communication_ns;
      step.free_ns = slow ? free_ns : 60'000;
      step.dataloader_ns = slow ? dataloader_ns : 5'000;
      s.steps.push_back(step);
    }
    s.kernels.push_back({"MatMulV2", 8, slow ? 2 * (computing_ns - 20'000) : 160'000});
    s.kernels.push_back({"Add", 2, 40'000});
    job.ranks.push_back(std::move(s));
  }
  return job;
}

std::vector<std::string> FixIds(const Finding& f) {
  std::vector<std::string> ids;
  for (const Recommendation& r : f.recommendations) ids.push_back(r.fix_id);
  return ids;
}

TEST(ClusterAdvisorTest, LateRankNamesItsPhaseAndOnlyThatPhasesFix) {
  // Data loading: 35 us per step against 5 (free 90 against 60): the
  // loader's fix for torch_npu, nothing for another framework. The wait:
  // 40 - 10 = 30 us of 200 = 15% (critical from 15%).
  // Which fix depends on the loader its trace names: worker processes for a
  // single-process one, more of them where they exist, none where neither
  // is named (how to profile for the cause instead).
  for (const auto& [single, workers, fix] :
       {std::tuple<bool, bool, const char*>{true, false, "dataloader_parallel"},
        {false, true, "dataloader_more_workers"},
        {false, false, "profile_with_stack"}}) {
    Job job = SlowRankJob(35'000, 90'000, 100'000, 0);
    for (cluster::RankSummary& r : job.ranks) {
      r.dataloader_single_process = single;
      r.dataloader_workers = workers;
    }
    const std::vector<Finding> findings = job.Findings();
    ASSERT_EQ(findings.size(), 1u);
    const Finding& f = findings[0];
    EXPECT_EQ(f.rule, "late_rank");
    EXPECT_EQ(f.rank, 2);
    EXPECT_EQ(f.gain.ns_per_step, 30'000);
    EXPECT_NE(f.title.find("its data loading takes 0.03 ms more per step"), std::string::npos)
        << f.title;
    EXPECT_EQ(FixIds(f), std::vector<std::string>{fix});
    EXPECT_EQ(f.recommendations[0].framework, FixTarget::kTorchNpu);
  }
  // Host: free 90 us, data loading as the others': launches stalled in 2
  // steps -> the host fixes; none stalled -> how to profile for the cause.
  {
    const std::vector<Finding> stalled = SlowRankJob(5'000, 90'000, 100'000, 2).Findings();
    ASSERT_EQ(stalled.size(), 1u);
    EXPECT_NE(stalled[0].title.find("its device idles 0.03 ms longer"), std::string::npos)
        << stalled[0].title;
    EXPECT_EQ(FixIds(stalled[0]), (std::vector<std::string>{"cpu_binding", "host_tuning"}));
    const std::vector<Finding> unknown = SlowRankJob(5'000, 90'000, 100'000, 0).Findings();
    ASSERT_EQ(unknown.size(), 1u);
    EXPECT_EQ(FixIds(unknown[0]), std::vector<std::string>{"profile_with_stack"});
  }
  // Compute: 130 us against 100, MatMulV2 110 us against 80 in as many
  // launches: no knob, the kernel named, what to compare said.
  {
    const std::vector<Finding> findings = SlowRankJob(5'000, 60'000, 130'000, 0).Findings();
    ASSERT_EQ(findings.size(), 1u);
    const Finding& f = findings[0];
    EXPECT_TRUE(f.recommendations.empty());
    EXPECT_NE(f.title.find("its device computes 0.03 ms more per step"), std::string::npos)
        << f.title;
    EXPECT_NE(f.title.find("most in MatMulV2 (0.11 ms vs 0.08 ms per step, 4 vs 4 launches)"),
              std::string::npos)
        << f.title;
    EXPECT_NE(f.title.find("compare the inputs' shapes"), std::string::npos) << f.title;
  }
}

TEST(ClusterAdvisorTest, MergedSummariesGiveTheSameFindings) {
  // Written and read back, the summaries give the findings of the direct
  // analysis (the rules read nothing a summary lacks).
  Job job = SlowRankJob(35'000, 90'000, 100'000, 0);
  const std::vector<Finding> direct = job.Findings();
  for (cluster::RankSummary& s : job.ranks) {
    auto back = cluster::ParseRankSummary(cluster::WriteRankSummary(s), "x.summary");
    ASSERT_TRUE(back.ok()) << back.status().message();
    s = std::move(*back);
  }
  const std::vector<Finding> merged = job.Findings();
  ASSERT_EQ(merged.size(), direct.size());
  for (size_t i = 0; i < merged.size(); ++i) {
    EXPECT_EQ(merged[i].title, direct[i].title);
    EXPECT_EQ(FixIds(merged[i]), FixIds(direct[i]));
    EXPECT_EQ(merged[i].gain.ns_per_step, direct[i].gain.ns_per_step);
  }
}

TEST(ClusterAdvisorTest, SlowLinkAgainstTheOthersOfItsTransport) {
  // No rank is late (the same communication everywhere) and no collective
  // carries transports (msprof's per-rank test has nothing): rank 2's one
  // HCCS link moves 1 MB in 100 us (10 GB/s), the other three in 50 us (20
  // GB/s). Median 20, shortfall 50% >= 5%: the link alone makes the
  // finding. Gain: 100 us x 0.5 / 2 steps = 25 us of 200 us = 12.5%.
  Job job = SlowRankJob(5'000, 60'000, 100'000, 0);
  for (cluster::RankSummary& r : job.ranks) {
    for (cluster::SummaryStep& st : r.steps)
      st.communication_ns = st.communication_not_overlapped_ns = 40'000;
    const int64_t src = *r.rank;
    r.links.push_back({"g", src, (src + 1) % 4, "HCCS", 1'000'000, src == 2 ? 100'000 : 50'000});
  }
  const std::vector<Finding> findings = job.Findings();
  ASSERT_EQ(findings.size(), 1u);
  const Finding& f = findings[0];
  EXPECT_EQ(f.rule, "slow_link");
  EXPECT_EQ(f.rank, 2);
  EXPECT_DOUBLE_EQ(f.evidence.value, 0.5);
  EXPECT_EQ(f.gain.ns_per_step, 25'000);
  EXPECT_NE(f.title.find("The HCCS link 2 -> 3 of group g runs at 10.0 GB/s, 50.0% below the "
                         "median 20.0 GB/s of the job's 4 HCCS links"),
            std::string::npos)
      << f.title;
  EXPECT_TRUE(f.recommendations.empty());
}

}  // namespace
}  // namespace perfdx::advisor
