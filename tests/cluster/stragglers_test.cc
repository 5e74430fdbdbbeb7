// The slow rank's phase, kernel and the wait it causes, and the slow links,
// on hand-made summaries whose every number is worked out in the comments.
#include "perfdx/cluster/stragglers.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "perfdx/cluster/cluster_analysis.h"

namespace perfdx::cluster {
namespace {

// Two steps; per step: computing c, communication m, free f of which data
// loading d; one kernel "MatMul" of k ns in `launches` launches per step.
RankSummary Rank(int64_t rank, int64_t c, int64_t m, int64_t f, int64_t d, int64_t k,
                 int64_t launches) {
  RankSummary s;
  s.rank = rank;
  s.path = "rank" + std::to_string(rank);
  for (int64_t id = 1; id <= 2; ++id) s.steps.push_back({id, c + m + f, c, m, m, f, 0, d});
  s.kernels.push_back({"MatMul", 2 * launches, 2 * k});
  s.kernels.push_back({"Add", 2, 2 * 1000});
  return s;
}

ClusterAnalysis Analyze(const std::vector<RankSummary>& ranks) {
  std::vector<const RankSummary*> p;
  for (const RankSummary& r : ranks) p.push_back(&r);
  return AnalyzeCluster(p, analysis::LinkPeaks{});
}

TEST(StragglersTest, ComputeSlowRankIsLateAndNamesItsKernel) {
  // Ranks 0, 1, 2, 4 compute 100 us and wait 30 us in the all-reduce (m =
  // 40 us); rank 3 computes 130 us and spends 10 us in it: the others wait
  // up to 40 - 10 = 30 us per step for it, in both steps.
  std::vector<RankSummary> ranks;
  for (int64_t r = 0; r < 5; ++r) {
    ranks.push_back(r == 3 ? Rank(r, 130'000, 10'000, 5'000, 1'000, 90'000, 4)
                           : Rank(r, 100'000, 40'000, 5'000, 1'000, 60'000, 4));
  }
  const ClusterAnalysis c = Analyze(ranks);
  ASSERT_EQ(c.slow_ranks.size(), 1u);
  EXPECT_EQ(c.slow_ranks[0], 3u);
  const RankStanding& s = c.ranks[3].standing;
  EXPECT_EQ(s.steps, 2);
  EXPECT_EQ(s.late_steps, 2);
  EXPECT_EQ(s.wait_caused_ns, 30'000);
  ASSERT_TRUE(s.phase.has_value());
  EXPECT_EQ(*s.phase, StepPhase::kCompute);
  ASSERT_EQ(s.phases.size(), 4u);
  EXPECT_EQ(s.phases[2].rank_ns, 130'000);
  EXPECT_EQ(s.phases[2].others_ns, 100'000);
  EXPECT_EQ(s.phases[0].rank_ns, 1'000);  // data loading
  EXPECT_EQ(s.phases[1].rank_ns, 4'000);  // host: free 5 us - data loading 1 us
  ASSERT_TRUE(s.kernel.has_value());
  EXPECT_EQ(s.kernel->name, "MatMul");  // Add is the same on every rank
  EXPECT_EQ(s.kernel->rank_ns, 90'000);
  EXPECT_EQ(s.kernel->others_ns, 60'000);
  EXPECT_DOUBLE_EQ(s.kernel->rank_count, 4);
  EXPECT_DOUBLE_EQ(s.kernel->others_count, 4);
  // The others caused no wait.
  EXPECT_EQ(c.ranks[0].standing.late_steps, 0);
  EXPECT_EQ(c.ranks[0].standing.wait_caused_ns, 0);
}

TEST(StragglersTest, DataLoadingSlowRankHasThatPhaseAndNoKernel) {
  // Rank 1 loads data 50 us per step (others 2 us), its free time 60 us
  // (others 10 us): data loading excess 48 us > host excess (10 - 8 = 2).
  std::vector<RankSummary> ranks;
  for (int64_t r = 0; r < 3; ++r) {
    ranks.push_back(r == 1 ? Rank(r, 100'000, 10'000, 60'000, 50'000, 60'000, 4)
                           : Rank(r, 100'000, 60'000, 10'000, 2'000, 60'000, 4));
  }
  const ClusterAnalysis c = Analyze(ranks);
  const RankStanding& s = c.ranks[1].standing;
  ASSERT_TRUE(s.phase.has_value());
  EXPECT_EQ(*s.phase, StepPhase::kDataLoading);
  EXPECT_EQ(s.phases[0].excess_ns(), 48'000);
  EXPECT_EQ(s.phases[1].excess_ns(), 2'000);
  EXPECT_FALSE(s.kernel.has_value());
  EXPECT_EQ(s.wait_caused_ns, 50'000);
}

// A collective of rank s on group `group` (role `role`) in step 1.
void AddCollective(RankSummary& s, const std::string& group, const std::string& role) {
  SummaryCollective c;
  c.group = group;
  c.role = role;
  c.name = "nccl:all_reduce";
  c.type = analysis::CollectiveType::kAllReduce;
  c.step = 1;
  c.start_ns = 10'000;
  c.dur_ns = 1'000;
  s.collectives.push_back(c);
}

// A pipeline of `stages` stages, `width` data-parallel ranks each (rank =
// stage * width + i, as Megatron orders them): pipeline group "pp<i>" holds
// rank i of every stage; with `data_parallel`, group "dp<k>" holds stage
// k's ranks; a world group holds every rank.
std::vector<RankSummary> Pipeline(int64_t stages, int64_t width, bool data_parallel,
                                  int64_t slow_rank = -1) {
  std::vector<RankSummary> ranks;
  for (int64_t r = 0; r < stages * width; ++r) {
    const int64_t stage = r / width;
    // Stage k computes (k + 1) x 100 us; `slow_rank` 60 us more.
    const int64_t compute = (stage + 1) * 100'000 + (r == slow_rank ? 60'000 : 0);
    RankSummary s = Rank(r, compute, 40'000, 5'000, 1'000, compute / 2, 4);
    AddCollective(s, "world", "world");
    AddCollective(s, fmt::format("pp{}", r % width), "pp");
    if (data_parallel) AddCollective(s, fmt::format("dp{}", stage), "dp");
    ranks.push_back(std::move(s));
  }
  return ranks;
}

TEST(StragglersTest, PipelineStagesAreTheGroupsWithinOneStage) {
  // PP 2 x DP 2: pp0 = {0, 2}, pp1 = {1, 3} cut across the stages; dp0 =
  // {0, 1} and dp1 = {2, 3} hold one rank of each: the stages; the world
  // group holds two ranks of pp0 and is no stage.
  const ClusterAnalysis c = Analyze(Pipeline(2, 2, true));
  EXPECT_EQ(c.stages, (std::vector<std::vector<size_t>>{{0, 1}, {2, 3}}));
  // Without data-parallel groups each rank is a stage of its own.
  EXPECT_EQ(Analyze(Pipeline(2, 2, false)).stages,
            (std::vector<std::vector<size_t>>{{0}, {1}, {2}, {3}}));
  // No pipeline group, no stages.
  std::vector<RankSummary> flat;
  for (int64_t r = 0; r < 3; ++r) {
    flat.push_back(Rank(r, 100'000, 40'000, 5'000, 1'000, 60'000, 4));
    AddCollective(flat.back(), "world", "world");
  }
  EXPECT_TRUE(Analyze(flat).stages.empty());
}

TEST(StragglersTest, PhasesAreComparedWithinAPipelineStage) {
  // PP 2 x DP 3: stage 0 = {0, 1, 2} computes 100 us, stage 1 = {3, 4, 5}
  // 200 us, rank 4 260 us. Against its stage rank 4 computes 60 us more
  // than the median of {200, 200}; ranks 3 and 5 compute no more than the
  // median of their stage peers ({200, 260}: 230 us), though twice stage 0.
  const ClusterAnalysis c = Analyze(Pipeline(2, 3, true, 4));
  ASSERT_EQ(c.stages, (std::vector<std::vector<size_t>>{{0, 1, 2}, {3, 4, 5}}));
  const RankStanding& slow = c.ranks[4].standing;
  ASSERT_TRUE(slow.phase.has_value());
  EXPECT_EQ(*slow.phase, StepPhase::kCompute);
  EXPECT_EQ(slow.phases[2].rank_ns, 260'000);
  EXPECT_EQ(slow.phases[2].others_ns, 200'000);
  for (size_t m : {size_t{3}, size_t{5}}) {
    SCOPED_TRACE(m);
    EXPECT_EQ(c.ranks[m].standing.phases[2].others_ns, 230'000);
    EXPECT_FALSE(c.ranks[m].standing.phase.has_value());
  }
  EXPECT_EQ(c.ranks[0].standing.phases[2].others_ns, 100'000);
}

TEST(StragglersTest, LinkBelowItsTransportsMedian) {
  // Four HCCS links of 1 MB: three in 50 us (20 GB/s), one in 80 us (12.5
  // GB/s): median of {12.5, 20, 20, 20} = 20, shortfall 1 - 12.5/20 =
  // 0.375. Two RDMA links are too few for a median: not compared.
  std::vector<ClusterLink> links;
  for (int64_t dst = 1; dst <= 4; ++dst)
    links.push_back({"g", 0, dst, "HCCS", 1'000'000, dst == 2 ? 80'000 : 50'000});
  links.push_back({"g", 0, 5, "RDMA", 1'000'000, 50'000});
  links.push_back({"g", 0, 6, "RDMA", 1'000'000, 500'000});
  const std::vector<SlowLink> slow = SlowLinksOf(links);
  ASSERT_EQ(slow.size(), 1u);
  EXPECT_EQ(slow[0].link, 1u);
  EXPECT_DOUBLE_EQ(slow[0].bandwidth_gbps, 12.5);
  EXPECT_DOUBLE_EQ(slow[0].transport_median_gbps, 20);
  EXPECT_EQ(slow[0].transport_links, 4u);
  EXPECT_DOUBLE_EQ(slow[0].shortfall(), 0.375);
}

// Two ranks whose common collective ends 2^58 ns (9 years) apart: no clock
// is that far off, so the second rank is not aligned (and the arithmetic on
// such times must not overflow: the rank summary fuzzer found an end of
// 1.7e18 + 8.5e18 ns).
TEST(StragglersTest, ClocksDaysApartAreNotAligned) {
  std::vector<RankSummary> ranks = {Rank(0, 100'000, 40'000, 5'000, 1'000, 60'000, 4),
                                    Rank(1, 100'000, 40'000, 5'000, 1'000, 60'000, 4)};
  for (int64_t r = 0; r < 2; ++r) {
    SummaryCollective c;
    c.group = "g";
    c.name = "hcom_allReduce__1_0_1";
    c.start_ns = r == 0 ? -(int64_t{1} << 60) : int64_t{1} << 61;  // the model's range
    c.dur_ns = 1000;
    ranks[r].collectives.push_back(c);
  }
  const ClusterAnalysis c = Analyze(ranks);
  ASSERT_EQ(c.ranks.size(), 2u);
  EXPECT_EQ(c.ranks[1].clock_matches, 0u);
  EXPECT_EQ(c.ranks[1].clock_offset_ns, 0);
}

}  // namespace
}  // namespace perfdx::cluster
