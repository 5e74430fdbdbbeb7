// The cluster section of `perfdx analyze` (cluster/cluster_analysis.h) in
// the JSON contract (the text, Markdown and HTML renderers show it too).
#pragma once

#include <cstddef>
#include <vector>

#include "perfdx/base/value_sink.h"
#include "perfdx/cluster/cluster_analysis.h"

namespace perfdx::report {

// JSON: {"ranks": [{"rank", "path", "clock_offset_ns", "clock_residual_ns",
// "clock_matches", "wait_ns", "transit_ns", "comm_comp_overlap", "steps":
// [{"id", "step_ns", "computing_ns", "communication_ns",
// "communication_not_overlapped_ns", "wait_ns", "transit_ns", "free_ns",
// "preparing_ns", "bubble_ns"}]}], "collectives": [{"name", "group", "type",
// "step", "ranks": [{"rank", "start_ns", "end_ns", "wait_ns", "transit_ns"}],
// "skew_ns", "last_rank", "bytes", "algbw_gbps", "busbw_gbps"}], "links":
// [{"group", "src_rank", "dst_rank", "transport", "bytes", "transit_ns",
// "bandwidth_gbps"}], "groups": [{"name", "role" (null: not known), "ranks",
// "collectives"}], "clock_offsets_ns": {rank: ns}, "unmatched_collectives",
// "slow_ranks": [{"rank", "late_steps", "steps", "wait_caused_ns",
// "phase"}], "slow_links": [{"group", "src_rank", "dst_rank", "transport",
// "bandwidth_gbps", "transport_median_gbps", "transport_links",
// "shortfall"}]}; each rank also has its "standing" (stragglers.h).
void WriteClusterSection(const cluster::ClusterAnalysis& cluster, ValueSink& out);

// The ranks the text, Markdown and HTML reports list one by one: every rank
// of a job of up to kAllRanksShown, else the first `top` and the slow ones
// (the JSON report has them all).
inline constexpr size_t kAllRanksShown = 16;
struct RankListing {
  std::vector<bool> shown;  // per member
  size_t hidden = 0;        // members not shown
};
RankListing ShownRanks(const cluster::ClusterAnalysis& cluster, size_t top);

}  // namespace perfdx::report
