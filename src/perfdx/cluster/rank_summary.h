// What the cluster analysis needs of one rank, and nothing else: its steps'
// device times, its collectives with their times and sizes, the links its
// transfers used, HTA's overlap. Made from the rank's analysis where its
// trace is (`perfdx summarize`, on the cluster's own scheduler), written as
// a small versioned file (summary_file.h) and merged with the others'
// (`perfdx analyze *.summary`): AnalyzeCluster reads only these, so merging
// summaries gives exactly what analysing the traces together gives.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "perfdx/analysis/collectives.h"
#include "perfdx/analysis/rank_analysis.h"

namespace perfdx::cluster {

struct SummaryStep {
  int64_t id = 0;
  int64_t step_ns = 0;
  int64_t computing_ns = 0;
  int64_t communication_ns = 0;
  int64_t communication_not_overlapped_ns = 0;
  int64_t free_ns = 0;
  int64_t preparing_ns = 0;
};

struct SummaryCollective {
  std::string group;  // the communication group track's name
  std::string name;
  analysis::CollectiveType type = analysis::CollectiveType::kUnknown;
  std::optional<int64_t> step;
  int64_t start_ns = 0;  // on the rank's own clock
  int64_t dur_ns = 0;
  int64_t bytes = -1;
  std::optional<double> algbw_gbps;
  std::optional<double> busbw_gbps;
  // From the collective's own tasks (Ascend); -1 when the trace has none.
  int64_t wait_ns = -1;
  int64_t transit_ns = -1;
};

// The bytes a rank sent over one link of one group (Ascend: its sized
// Memcpy / Reduce_Inline / RDMA tasks by their src and dst rank, local to
// the group; communication_matrix.json's "-total" entry).
struct ClusterLink {
  std::string group;
  int64_t src_rank = -1;  // local ranks in the group
  int64_t dst_rank = -1;
  std::string transport;  // HCCS, PCIE, SIO, RDMA, LOCAL (on-chip)
  int64_t bytes = 0;
  int64_t transit_ns = 0;
  double bandwidth_gbps() const {
    return transit_ns > 0 ? static_cast<double>(bytes) / static_cast<double>(transit_ns) : 0.0;
  }
  bool operator==(const ClusterLink&) const = default;
};

struct RankSummary {
  std::optional<int64_t> rank;
  std::string path;
  std::vector<SummaryStep> steps;
  std::vector<SummaryCollective> collectives;  // by start
  std::vector<ClusterLink> links;              // by (group, src, dst)
  std::optional<double> comm_comp_overlap;     // HTA's (temporal_breakdown.h)
};

RankSummary SummarizeRank(const analysis::RankAnalysis& analysis);

}  // namespace perfdx::cluster
