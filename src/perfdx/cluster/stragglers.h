// Which rank the others wait for, where its step time goes against the
// other ranks', and which link is slow against the others of its transport
// (issue #12 item 3). Statistics only: the advisor's late_rank, slow_rank
// and slow_link rules compare them with their thresholds and give the fix
// for the phase found. docs/metrics.md ("Cluster") defines each number.
//
// Late: in each step, the rank with the least communication time is the
// one the others waited for (a collective ends when its last rank arrives,
// so the last to arrive spends the least time in it; msprof-analyze's
// slow-rank reading), and the wait it caused is the largest excess of
// another rank's communication time over its own.
//
// Phases: per step, on average over a rank's steps: data loading (the step
// breakdown's DataLoader time), host (device free time that is not data
// loading: launches, syncs, Python), compute (device computing) and
// transit (its collectives' transfer time). A rank's excess in a phase is
// its time minus the median of the other ranks' (of its pipeline stage,
// where the job has stages: stages differ in their work); the phase of a rank is the
// one of largest excess, and for compute the kernel of largest excess names
// the work.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "perfdx/cluster/rank_summary.h"

namespace perfdx::cluster {

enum class StepPhase : uint8_t { kDataLoading, kHost, kCompute, kTransit };
inline constexpr std::array<StepPhase, 4> kStepPhases = {StepPhase::kDataLoading, StepPhase::kHost,
                                                         StepPhase::kCompute, StepPhase::kTransit};
std::string_view StepPhaseName(StepPhase p);  // "data_loading", "host", "compute", "transit"

struct PhaseTime {
  StepPhase phase = StepPhase::kCompute;
  int64_t rank_ns = 0;    // the rank's, per step
  int64_t others_ns = 0;  // the median of the other ranks', per step
  int64_t excess_ns() const { return rank_ns - others_ns; }
};

// The kernel whose time per step exceeds the other ranks' median the most.
struct KernelExcess {
  std::string name;
  int64_t rank_ns = 0;  // per step
  int64_t others_ns = 0;
  double rank_count = 0;  // launches per step
  double others_count = 0;
  int64_t excess_ns() const { return rank_ns - others_ns; }
};

struct RankStanding {
  size_t member = 0;
  int64_t steps = 0;              // steps with communication shared with another rank
  int64_t late_steps = 0;         // of those, the steps it was the last to arrive
  int64_t wait_caused_ns = 0;     // per step (of `steps`), the others' wait for it
  std::vector<PhaseTime> phases;  // in kStepPhases order
  // The phase of largest positive excess; none when no phase exceeds the
  // others'.
  std::optional<StepPhase> phase;
  std::optional<KernelExcess> kernel;  // when the phase is compute and kernels are known
};

// A link against the other links of its transport over the whole job.
struct SlowLink {
  size_t link = 0;  // index into ClusterAnalysis::links
  double bandwidth_gbps = 0;
  double transport_median_gbps = 0;  // over the job's links of that transport with bytes
  size_t transport_links = 0;
  double shortfall() const {  // (median - bandwidth) / median
    return transport_median_gbps > 0 ? 1.0 - bandwidth_gbps / transport_median_gbps : 0.0;
  }
};

// The ranks the report lists as slow (the others' wait for them, most
// first), and whose kernels are compared.
inline constexpr size_t kNamedRanks = 8;
// The slow links the report lists.
inline constexpr size_t kListedSlowLinks = 16;

// One standing per rank, in the job's order; transit_per_step[m][i] is
// rank m's transit time in its i-th step; `stages` as ClusterAnalysis's.
std::vector<RankStanding> StandingsOf(const std::vector<const RankSummary*>& ranks,
                                      const std::vector<std::vector<int64_t>>& transit_per_step,
                                      const std::vector<std::vector<size_t>>& stages);

// Per transport with at least three links (a median needs others to stand
// on), every link below its transport's median, the largest shortfall
// first.
std::vector<SlowLink> SlowLinksOf(const std::vector<ClusterLink>& links);

}  // namespace perfdx::cluster
