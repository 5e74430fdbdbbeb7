// The joint replay of a job's ranks (cluster/joint_replay.h): a collective
// ends when its last rank arrives. By hand on two made ranks, and on the
// shared multi-rank traces, none of which is a whole job (each is refused,
// for its own reason).
#include "perfdx/cluster/joint_replay.h"

#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "perfdx/pipeline/analyze.h"
#include "perfdx/report/text_layout.h"
#include "perfdx/report/whatif_report.h"
#include "test_support.h"

namespace perfdx::cluster {
namespace {

using perfdx::testing::SharedPath;
using perfdx::testing::TempDir;

// One rank of a two-rank NCCL job, in µs; 3 steps 20 ms apart, each from
// t0: the marker [t0, t0+7500); the host launches an sgemm at t0+100 that
// runs [t0+110, t0+110+`gemm_us`) on stream 7, then the all-reduce, queued
// behind it on the same stream, which ends at t0+7110 on both ranks; the
// host syncs from t0+130 until t0+7130. Rank 0's sgemm is 4 ms, rank 1's
// 6 ms: rank 1 arrives last, and its all-reduce's 1 ms is the transfer;
// rank 0's 3 ms holds 2 ms of waiting for rank 1.
// Latencies: launch 10 µs (the sgemm), queue gap 0, sync return 20 µs: the
// replay, alone or joint, is exact.
std::string RankTrace(int rank, int gemm_us) {
  std::string events;
  for (int k = 0; k < 3; ++k) {
    const int t0 = k * 20'000;
    const int c = 2 * k + 1;
    const int arrival = t0 + 110 + gemm_us;
    events += fmt::format(
        R"({{"ph":"X","name":"ProfilerStep#{}","cat":"user_annotation","ts":{},"dur":7500,"pid":1,"tid":1}},)",
        k, t0);
    for (const auto& [corr, launch_ts] : {std::pair{c, t0 + 100}, std::pair{c + 1, t0 + 110}}) {
      events += fmt::format(
          R"({{"ph":"X","name":"cudaLaunchKernel","cat":"cuda_runtime","ts":{},"dur":5,"pid":1,"tid":1,"args":{{"correlation":{}}}}},)",
          launch_ts, corr);
    }
    events += fmt::format(
        R"({{"ph":"X","name":"cudaStreamSynchronize","cat":"cuda_runtime","ts":{},"dur":7000,"pid":1,"tid":1}},)",
        t0 + 130);
    const struct {
      std::string_view name;
      int corr, launch_ts, ts, dur;
    } ops[] = {
        {"volta_sgemm_128x64_nn", c, t0 + 100, t0 + 110, gemm_us},
        {"ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)", c + 1,
         t0 + 110, arrival, t0 + 7110 - arrival},
    };
    for (const auto& op : ops) {
      events += fmt::format(
          R"({{"ph":"X","name":"{}","cat":"kernel","ts":{},"dur":{},"pid":0,"tid":7,"args":{{"correlation":{},"stream":7,"device":{}}}}},)",
          op.name, op.ts, op.dur, op.corr, rank);
      events += fmt::format(
          R"({{"ph":"s","name":"ac2g","cat":"ac2g","id":{},"ts":{},"pid":1,"tid":1}},{{"ph":"f","bp":"e","name":"ac2g","cat":"ac2g","id":{},"ts":{},"pid":0,"tid":7}},)",
          op.corr, op.launch_ts, op.corr, op.ts);
    }
  }
  events.pop_back();
  return fmt::format(
      R"({{"distributedInfo":{{"backend":"nccl","rank":{},"world_size":2}},"traceEvents":[{}],"deviceProperties":[{{"id":{},"name":"Tesla V100"}}]}})",
      rank, events, rank);
}

struct JobRun {
  report::AnalyzeReport report;
  const JointReplay* joint = nullptr;
};

JobRun WhatIf(const std::vector<std::string>& paths, const analysis::WhatIf& fix,
              const std::vector<int64_t>& fix_ranks = {}) {
  pipeline::AnalyzeRequest request;
  request.paths = paths;
  request.what_if = fix;
  request.fix_ranks = fix_ranks;
  auto report = pipeline::BuildAnalyzeReport(request);
  EXPECT_TRUE(report.ok()) << report.status().message();
  JobRun run;
  if (!report.ok()) return run;
  run.report = std::move(*report);
  for (const report::AnalyzeJob& j : run.report.jobs) {
    if (j.joint_replay) run.joint = &*j.joint_replay;
  }
  return run;
}

analysis::WhatIf MatrixTwiceAsFast() {
  analysis::WhatIf fix;
  EXPECT_TRUE(analysis::AddSpeedup("matrix=2", &fix).ok());
  return fix;
}

// Each rank's predicted mean step, alone and jointly, in µs.
struct Expected {
  int64_t alone_us, joint_us;
};

void ExpectPredictions(const JobRun& run, const Expected (&ranks)[2], int64_t job_us) {
  ASSERT_NE(run.joint, nullptr);
  const JointReplay& j = *run.joint;
  ASSERT_TRUE(j.available) << j.why_not;
  EXPECT_EQ(j.joined_collectives, 3u);
  EXPECT_EQ(j.unjoined_collectives, 0u);
  EXPECT_EQ(j.median_abs_error, 0);
  ASSERT_EQ(j.ranks.size(), 2u);
  ASSERT_EQ(run.report.ranks.size(), 2u);
  for (size_t m = 0; m < 2; ++m) {
    SCOPED_TRACE(m);
    EXPECT_EQ(j.ranks[m].check.run.measured_mean_ns, 7'500'000);
    EXPECT_EQ(j.ranks[m].check.run.replayed_mean_ns, 7'500'000);
    EXPECT_EQ(run.report.ranks[m].what_if.predicted_step_ns, ranks[m].alone_us * 1000);
    ASSERT_TRUE(j.ranks[m].prediction.available);
    EXPECT_EQ(j.ranks[m].prediction.predicted_step_ns, ranks[m].joint_us * 1000);
  }
  EXPECT_EQ(j.measured_step_ns, 7'500'000);
  EXPECT_EQ(j.predicted_step_ns, job_us * 1000);
}

class JointReplayByHand : public ::testing::Test {
 protected:
  void SetUp() override {
    paths_ = {dir_.Write("rank0.json", RankTrace(0, 4000)),
              dir_.Write("rank1.json", RankTrace(1, 6000))};
  }
  TempDir dir_;
  std::vector<std::string> paths_;
};

// Both ranks' sgemms twice as fast: rank 0 arrives at 2110, rank 1 at 3110;
// the all-reduce ends at 3110 + 1000 on both, the sync returns 20 later and
// each step ends 3 ms early: 4.5 ms. Alone, rank 0 keeps its 3 ms
// all-reduce (its old wait): 5.5 ms, 1 ms too pessimistic.
TEST_F(JointReplayByHand, EveryRankFixed) {
  const JobRun run = WhatIf(paths_, MatrixTwiceAsFast());
  ExpectPredictions(run, {{5500, 4500}, {4500, 4500}}, 4500);
}

// Only the early rank fixed: it arrives at 2110 and waits for rank 1 until
// 7110, as before. Alone it would claim 2 ms; the job gains nothing.
TEST_F(JointReplayByHand, TheEarlyRankFixedBuysNothing) {
  const JobRun run = WhatIf(paths_, MatrixTwiceAsFast(), {0});
  ExpectPredictions(run, {{5500, 7500}, {7500, 7500}}, 7500);
  EXPECT_TRUE(run.joint->ranks[0].fixed);
  EXPECT_FALSE(run.joint->ranks[1].fixed);
  EXPECT_EQ(run.joint->gain_ns_per_step(), 0);
}

// Only the late rank fixed: it arrives at 3110, rank 0 (4110) is now the
// last, and the all-reduce ends at 5110: both steps 5.5 ms, not the 4.5 ms
// rank 1 would claim alone.
TEST_F(JointReplayByHand, TheLateRankFixedBuysUpToTheNextLast) {
  const JobRun run = WhatIf(paths_, MatrixTwiceAsFast(), {1});
  ExpectPredictions(run, {{7500, 5500}, {4500, 5500}}, 5500);
  const std::string text = report::RenderWhatIfText(run.report, 100);
  EXPECT_NE(text.find("replayed jointly: 3 collectives end when their last rank arrives"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("rank 0 — "), std::string::npos);
  EXPECT_NE(text.find("not fixed (--fix-rank names other ranks)"), std::string::npos) << text;
  // At 40 columns every sentence wraps to fit (they ran past it).
  const std::string narrow = report::RenderWhatIfText(run.report, 40);
  for (const std::string& l : perfdx::testing::SplitLines(narrow)) {
    EXPECT_LE(report::DisplayWidth(l), 40u) << l;
  }
  EXPECT_NE(narrow.find("replayed jointly"), std::string::npos) << narrow;
  const std::string json = report::RenderWhatIfJson(run.report);
  EXPECT_NE(json.find(R"("joined_collectives": 3)"), std::string::npos) << json;
}

TEST_F(JointReplayByHand, AFixRankNotLoadedIsAnError) {
  pipeline::AnalyzeRequest request;
  request.paths = paths_;
  request.what_if = MatrixTwiceAsFast();
  request.fix_ranks = {5};
  auto report = pipeline::BuildAnalyzeReport(request);
  ASSERT_FALSE(report.ok());
  EXPECT_NE(report.status().message().find("--fix-rank 5"), std::string::npos);
}

// A job missing a rank is never replayed jointly: the last arrival may be
// the rank not given.
TEST_F(JointReplayByHand, OneRankOfTwoIsNotAJob) {
  std::string three = RankTrace(0, 4000);
  const size_t at = three.find(R"("world_size":2)");
  ASSERT_NE(at, std::string::npos);
  three.replace(at, 14, R"("world_size":3)");
  const std::string other = dir_.Write("world3_rank0.json", three);
  std::string rank1 = RankTrace(1, 6000);
  rank1.replace(rank1.find(R"("world_size":2)"), 14, R"("world_size":3)");
  const JobRun run = WhatIf({other, dir_.Write("world3_rank1.json", rank1)}, MatrixTwiceAsFast());
  ASSERT_NE(run.joint, nullptr);
  EXPECT_FALSE(run.joint->available);
  EXPECT_EQ(run.joint->why_not,
            "2 of the job's 3 ranks given: a collective's last arrival may be a rank not given, "
            "so each rank is replayed alone");
}

// The shared multi-rank traces are parts of bigger jobs, and each is
// refused for what shows it: HTA's sampled pair says 128 ranks; the Ascend
// Level1 pair's transfers reach ranks 2-7 (an 8-rank all-reduce, two
// kept); the Level0 pairs record no transfer to count the ranks by.
TEST(JointReplayShared, NoSharedJobIsWhole) {
  PERFDX_REQUIRE_SHARED();
  const struct {
    std::string path, why_not;
  } cases[] = {
      {"traces/kineto/hta/trace_filter",
       "2 of the job's 128 ranks given: a collective's last arrival may be a rank not given, so "
       "each rank is replayed alone"},
      {"traces/ascend/torch_npu_2rank_text_level1",
       "a transfer of group Group 0 Communication names rank 2, not given"},
      {"traces/ascend/torch_npu_2rank_db_level1",
       "a transfer of group Group 0 Communication names rank 2, not given"},
      {"traces/ascend/torch_npu_2rank_text_level0",
       "the traces give no world size and no transfer between ranks (profiler Level1 records "
       "them): whether every rank is here is unknown"},
      {"traces/ascend/torch_npu_2rank_db_level0",
       "the traces give no world size and no transfer between ranks (profiler Level1 records "
       "them): whether every rank is here is unknown"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.path);
    const JobRun run = WhatIf({SharedPath(c.path)}, MatrixTwiceAsFast());
    ASSERT_NE(run.joint, nullptr);
    EXPECT_FALSE(run.joint->available);
    EXPECT_EQ(run.joint->why_not, c.why_not);
    // Each rank still has its own prediction.
    for (const report::AnalyzeRank& r : run.report.ranks) EXPECT_TRUE(r.what_if.available);
  }
}

}  // namespace
}  // namespace perfdx::cluster
