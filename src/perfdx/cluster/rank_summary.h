// What the cluster analysis needs of one rank, and nothing else: its steps'
// device times, its collectives with their times and sizes, the links its
// transfers used, HTA's overlap. Made from the rank's analysis where its
// trace is (`perfdx summarize`, on the cluster's own scheduler), written as
// a small versioned file (summary_file.h) and merged with the others'
// (`perfdx analyze *.summary`): AnalyzeCluster reads only these, so merging
// summaries gives exactly what analysing the traces together gives.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "perfdx/analysis/collectives.h"
#include "perfdx/analysis/rank_analysis.h"
#include "perfdx/model/framework.h"

namespace perfdx::cluster {

struct SummaryStep {
  int64_t id = 0;
  int64_t step_ns = 0;
  int64_t computing_ns = 0;
  int64_t communication_ns = 0;
  int64_t communication_not_overlapped_ns = 0;
  int64_t free_ns = 0;
  int64_t preparing_ns = 0;
  // The host waiting for input with the device idle (the step breakdown's
  // DataLoader category, step_breakdown.h).
  int64_t dataloader_ns = 0;
};

// What a collective's transfers moved over one transport (SDMA, RDMA), from
// its HCCL tasks (analysis/collectives.h TransportTransit).
struct SummaryTransport {
  std::string transport;
  int64_t bytes = 0;
  int64_t transit_ns = 0;
  bool operator==(const SummaryTransport&) const = default;
};

// A kernel (device task) name's time over the analysed window
// (analysis/kernel_stats.h): what a slow rank's compute is compared by.
struct SummaryKernel {
  std::string name;
  int64_t count = 0;
  int64_t total_ns = 0;
};

struct SummaryCollective {
  // The communication group: Kineto's process group ("process group 3",
  // from the kernel's "Process Group Name"), else the group track's name
  // (HCCL's "Group 0 Communication", a CUDA stream).
  std::string group;
  // The group's parallel role where the trace names it (GroupRole): "world"
  // for PyTorch's default group, a DeviceMesh dimension's name ("dp",
  // "tp", ...); empty when unknown.
  std::string role;
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
  std::vector<SummaryTransport> transports;  // Ascend only
};

// The largest rank a link may name (an int32, as HCCL's ranks are); a task
// naming another is not a link (HCCL writes 4294967295 for "no peer").
inline constexpr int64_t kMaxLinkRank = std::numeric_limits<int32_t>::max();

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
  // Its transport's peak, one direction (analysis/link_peaks.h): set by
  // AnalyzeCluster; 0 where there is none to compare with (on-chip copies)
  // and in a summary, which carries measurements only.
  double peak_gbps = 0;
  double bandwidth_gbps() const {
    return transit_ns > 0 ? static_cast<double>(bytes) / static_cast<double>(transit_ns) : 0.0;
  }
  // Achieved bandwidth / peak; none without a peak or a transfer.
  std::optional<double> peak_share() const {
    if (peak_gbps <= 0 || transit_ns <= 0) return std::nullopt;
    return bandwidth_gbps() / peak_gbps;
  }
  // Equal as measurements: the peak is the job's reading of them, not
  // part of what a rank measured (a summary's link equals the job's copy).
  bool operator==(const ClusterLink& o) const {
    return group == o.group && src_rank == o.src_rank && dst_rank == o.dst_rank &&
           transport == o.transport && bytes == o.bytes && transit_ns == o.transit_ns;
  }
};

// The kernels a summary keeps: the most time-consuming of the window. A
// slow rank's compute excess is named by its kernels; the rest of the
// tail is too small to name.
inline constexpr size_t kSummaryKernels = 64;

struct RankSummary {
  std::optional<int64_t> rank;
  std::string path;
  // What the advisor's fix filter reads of the rank (fix_targets.h): its
  // framework, platform, features and distributed backend.
  model::FrameworkInfo runtime;
  std::string distributed_backend;
  // The step time every gain share of the rank is a share of
  // (analysis/rank_analysis.h GainStepNs), over the analysed steps.
  int64_t gain_step_ns = 0;
  bool complete_steps = false;
  // Steps whose launches stalled (analysis/gaps.h): the evidence of a busy
  // host the host fixes require.
  int64_t stalled_launch_steps = 0;
  // The DataLoader iterators the trace names (analysis/rank_layout.h): the
  // evidence that picks a late rank's loader fix.
  bool dataloader_single_process = false;
  bool dataloader_workers = false;
  std::vector<SummaryKernel> kernels;  // by total time, at most kSummaryKernels
  std::vector<SummaryStep> steps;
  std::vector<SummaryCollective> collectives;  // by start
  std::vector<ClusterLink> links;              // by (group, src, dst)
  std::optional<double> comm_comp_overlap;     // HTA's (temporal_breakdown.h)
};

// Reads the trace as well (the collectives' process groups): `analysis.trace`
// must be alive, as it is where BuildAnalyzeReport calls this, on the loader
// thread; after that, AnalyzeRank::summary holds the result.
RankSummary SummarizeRank(const analysis::RankAnalysis& analysis);

// The role a process group's description ("Process Group Description")
// gives it: "default_pg" (the default group of all ranks) -> "world";
// "mesh_<name>" (torch.distributed.device_mesh names each dimension's group
// so) -> <name>, unless it is "dim_<n>" (a mesh without names); else empty.
std::string GroupRole(std::string_view process_group_desc);

}  // namespace perfdx::cluster
