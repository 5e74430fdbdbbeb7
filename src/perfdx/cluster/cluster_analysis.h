// The ranks of one job seen together (issue #12): each rank's step table
// with wait vs transit, every collective matched across the ranks (arrival,
// end, skew, the last to arrive), each rank's clock offset estimated from
// the collectives' ends, and the links each rank's transfers used. A pure
// function of the ranks' analyses; docs/metrics.md ("Cluster") defines each
// number.
//
// It reads the ranks' summaries only (rank_summary.h): the same result from
// traces analysed together and from summaries made where each trace is.
//
// Matching: a collective instance is the n-th collective of one name on one
// communication group track of each rank (HCCL names carry the op's index,
// "hcom_allReduce__586_3_1", so n is 0 there; NCCL kernels repeat a name,
// so n counts them). Only instances seen on at least two ranks are listed.
//
// Clock offsets: a collective completes on every rank at nearly one moment
// (no rank can finish before the last has sent its share), so each rank's
// offset to the job's first rank is the median, over the instances both
// ran, of (first rank's end - its end); the residual is the median absolute
// difference left after the offset is applied. Every cross-rank time below
// (arrival, end, skew) is on the first rank's clock.
//
// Wait vs transit: on Ascend, from the collective's own tasks (CANN's
// communication analysis: transit = the master plane's transfers, wait =
// its Notify_Waits; analysis/collectives.h), which reproduces
// communication.json. Where the trace has no such tasks (NCCL kernels), a
// rank's wait in an instance is the time from its arrival to the last
// rank's arrival, over the ranks given (a lower bound when only some ranks
// of the job are given), and transit is the rest of the collective.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "perfdx/analysis/collectives.h"
#include "perfdx/analysis/link_peaks.h"
#include "perfdx/cluster/rank_summary.h"
#include "perfdx/cluster/stragglers.h"

namespace perfdx::cluster {

// A rank's step: its device times (SummaryStep) and what the other ranks
// decide of it.
struct ClusterStep : SummaryStep {
  int64_t wait_ns = 0;     // Σ over the step's collectives
  int64_t transit_ns = 0;  // Σ over the step's collectives
  // Pipeline receive wait: Σ durations of the step's receive collectives
  // (step_trace_time.csv "Bubble": hcom_receive*).
  int64_t bubble_ns = 0;
};

struct ClusterRank {
  size_t member = 0;  // index into the job's ranks
  std::optional<int64_t> rank;
  std::string path;
  std::vector<ClusterStep> steps;
  // Over every collective of the trace (communication.json's "Total Op
  // Info" on Ascend); -1 when the rank has no collective.
  int64_t wait_ns = -1;
  int64_t transit_ns = -1;
  // HTA's communication/computation overlap (temporal_breakdown.h).
  std::optional<double> comm_comp_overlap;
  int64_t clock_offset_ns = 0;  // added to its times to put them on the first rank's clock
  int64_t clock_residual_ns = 0;
  size_t clock_matches = 0;  // instances the offset stands on (0: no offset known)
  // Against the other ranks: late steps, the wait it caused, its phases
  // (stragglers.h).
  RankStanding standing;
  // On the first rank's clock: the first rank itself, or an offset known.
  bool clock_aligned() const { return member == 0 || clock_matches > 0; }
};

struct CollectiveRankTiming {
  size_t member = 0;
  int64_t start_ns = 0;  // on the first rank's clock
  int64_t end_ns = 0;
  int64_t wait_ns = 0;
  int64_t transit_ns = 0;
};

struct ClusterCollective {
  std::string name;
  std::string group;  // the communication group (SummaryCollective's)
  std::string role;   // the group's parallel role; empty: unknown
  analysis::CollectiveType type = analysis::CollectiveType::kUnknown;
  std::optional<int64_t> step;  // the step of the first rank's instance
  std::vector<CollectiveRankTiming> ranks;
  int64_t skew_ns = 0;               // last arrival - first arrival
  size_t last_member = 0;            // the rank that arrived last (the others waited for it)
  int64_t bytes = -1;                // message bytes (the first rank's; -1 unknown)
  std::optional<double> algbw_gbps;  // bytes / the first rank's duration
  std::optional<double> busbw_gbps;
};

// A communication group as the collectives show it (SummaryCollective's
// group) and the ranks that ran collectives on it. The parallel role where
// the trace names it (rank_summary.h GroupRole: Kineto process groups);
// HCCL groups have none (torch_npu's parallel_group_info keys groups by a
// hash the trace's tracks do not carry).
struct ClusterGroup {
  std::string name;
  std::string role;             // empty: unknown
  std::vector<size_t> members;  // indices into the job's ranks, ascending
  size_t collectives = 0;       // instances matched across ranks
  // The group's size as its links show it: the highest local rank a link
  // of the group names, + 1 (0: no links). More than `members`: ranks of
  // the group whose profiles were not given, whose lateness no wait here
  // can be pinned on.
  int64_t linked_ranks = 0;
};

// A group's role is pipeline parallel: "pp", "pp_...".
bool IsPipelineRole(std::string_view role);

struct ClusterAnalysis {
  std::vector<ClusterRank> ranks;              // in the job's order
  std::vector<ClusterCollective> collectives;  // by the first rank's start
  std::vector<ClusterLink> links;              // by (group, src, dst)
  std::vector<ClusterGroup> groups;            // by name
  // Pipeline stages: the members of each stage, ascending, stages in the
  // order of their first member; empty unless a group's role is pipeline
  // parallel ("pp..."). msprof-analyze's grouping (StageInfoAnalysis): the
  // pipeline groups joined where they share ranks cut across the stages;
  // every other group that holds at most one rank of each such union lies
  // within one stage, and the groups of that kind sharing ranks form a
  // stage. A pipeline rank in no such group is a stage of its own.
  std::vector<std::vector<size_t>> stages;
  // Instances seen on one rank only (not matched).
  size_t unmatched_collectives = 0;
  // The ranks the others waited for (late in at least one step), the most
  // wait caused first, at most kNamedRanks: members.
  std::vector<size_t> slow_ranks;
  // Links below their transport's median (stragglers.h), the largest
  // shortfall first, at most kListedSlowLinks.
  std::vector<SlowLink> slow_links;
};

// From the ranks' summaries (rank_summary.h), in the job's order; each
// link is measured against its transport's peak in `peaks`.
ClusterAnalysis AnalyzeCluster(const std::vector<const RankSummary*>& ranks,
                               const analysis::LinkPeaks& peaks);

}  // namespace perfdx::cluster
