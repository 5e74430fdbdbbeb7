// Per collective: what it moved, over which link, how fast, and how long it
// waited — computed from the trace's own tasks.
//
// Ascend (HCCL): a collective is a `hcom_*` op on an HCCL group track; its
// tasks are the plane tasks (Memcpy, Reduce_Inline, Notify_Wait, RDMA sends,
// ...) that end inside it. The definitions are those of CANN's communication
// analysis behind torch_npu's communication.json (msprof
// analysis/msparser/cluster/communication_parser.py and meta_parser.py):
//   - a transfer is a Memcpy / Reduce_Inline task with transport SDMA over a
//     link (link type not ON_CHIP) — on-chip copies are not link traffic;
//     its transport key is its link type (HCCS_SW counts as HCCS; PCIE, SIO
//     as named; any other link, e.g. RESERVED, as SDMA);
//   - RDMA: a run of consecutive RDMA_SEND_PAYLOAD tasks on one plane is one
//     transfer: its size is the payloads' sum, its time runs from the first
//     payload's start to the end of the task closing the run (the 2nd task
//     after the run for send/receive, the 4th otherwise: the notify and
//     barrier tasks). Traces without "rdma type" (older trace_view.json)
//     count every RDMA task with a size as one transfer;
//   - per transport: transit bytes = sum of sizes, transit time = sum of
//     durations, bandwidth = bytes / ns = GB/s (10^9 B/s; torch_npu's
//     "Bandwidth(GB/s)" = "Transit Size(MB)" / "Transit Time(ms)" with
//     MB = 10^6 B); "SDMA" = HCCS + PCIE + SIO + its own;
//   - large packet ratio: the share of transfers larger than 32 MB (HCCS,
//     PCIE, SIO) or 0.5 MB (RDMA), msprof's thresholds;
//   - time: on the master plane — the lowest-numbered plane that carries
//     transfers (plane 0 holds the local on-chip copies) — transit = its
//     transfers' durations, wait = its Notify_Wait durations,
//     synchronization = the Notify_Waits that start before its first
//     transfer, idle = elapse − transit − wait. This reproduces
//     communication.json / analysis.db CommAnalyzerTime of the shared
//     level-1 samples (CANN 8.0); newer CANN marks the master tasks itself
//     and splits time per instant, which can differ when planes overlap.
// GPU (NCCL/RCCL kernels with Kineto's record_param_comms args): message
// bytes = max(In, Out msg nelems) x dtype size; algorithm bandwidth =
// message bytes / kernel duration; bus bandwidth = algbw x nccl-tests'
// factor (2(n-1)/n all-reduce, (n-1)/n all-gather / reduce-scatter /
// all-to-all, 1 otherwise). HCCL ops: message bytes = count x data type size.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "perfdx/analysis/interval_set.h"
#include "perfdx/analysis/steps.h"
#include "perfdx/base/saturating.h"
#include "perfdx/model/trace.h"

namespace perfdx::analysis {

enum class CollectiveType : uint8_t {
  kUnknown,
  kAllReduce,
  kAllGather,
  kReduceScatter,
  kAllToAll,
  kBroadcast,
  kReduce,
  kSend,
  kReceive,
  kBatchSendRecv,
  kScatter,
};
std::string_view CollectiveTypeName(CollectiveType type);
// From an HCCL op name ("hcom_allReduce__586_0_1") or a Kineto "Collective
// name" ("allreduce", "_allgather_base").
CollectiveType ParseCollectiveType(std::string_view name);
bool IsPointToPoint(CollectiveType type);

// nccl-tests' bus-bandwidth factor (doc/PERFORMANCE.md): busbw = algbw x
// factor, where algbw = S / t and S is the larger of the input and output
// size. 2(n-1)/n for all-reduce, (n-1)/n for all-gather, reduce-scatter and
// all-to-all, 1 for the others; 0 when the type or group size is unknown.
double BusBandwidthFactor(CollectiveType type, int64_t group_size);

// Bytes per element of a dtype as Kineto ("Float", "BFloat16") or HCCL
// ("FP32", "BFP16", "INT8") spell it; 0 when unknown.
int64_t DtypeBytes(std::string_view dtype);

struct PacketSize {
  int64_t bytes = 0;
  uint64_t count = 0;
  int64_t transit_ns = 0;
};

// The traffic of one transport type ("HCCS", "PCIE", "SIO", "SDMA", "RDMA").
struct TransportTransit {
  std::string transport;
  int64_t transit_bytes = 0;
  int64_t transit_ns = 0;
  uint64_t transfers = 0;
  uint64_t large_transfers = 0;
  std::vector<PacketSize> size_distribution;  // by size (SDMA has none: it sums the others)
  double bandwidth_gbps() const {
    return transit_ns > 0 ? static_cast<double>(transit_bytes) / static_cast<double>(transit_ns)
                          : 0.0;
  }
  double large_packet_ratio() const {
    return transfers > 0 ? static_cast<double>(large_transfers) / static_cast<double>(transfers)
                         : 0.0;
  }
};

struct CollectiveStats {
  model::SliceId slice = 0;
  model::TrackId track = 0;  // the HCCL group track / the NCCL kernel's stream
  std::string name;
  CollectiveType type = CollectiveType::kUnknown;
  int64_t start_ns = 0;
  int64_t dur_ns = 0;
  std::optional<int64_t> step_id;  // the step whose window holds its start

  // The call's payload (NCCL: max(In, Out msg nelems) x dtype; HCCL: count x
  // data type); -1 when the trace does not say.
  int64_t message_bytes = -1;
  // Kineto "Group size"; -1 unknown (HCCL ops, and Kineto before the arg
  // existed, say nothing: the world size is no substitute, a job can run
  // groups of any size, e.g. HTA's nccl_data sample has groups of 1 in a
  // world of 2).
  int64_t group_size = -1;
  // message_bytes / dur_ns (GB/s) and x the bus factor; nullopt without both.
  std::optional<double> algbw_gbps;
  std::optional<double> busbw_gbps;

  // Ascend: the plane tasks that make it up.
  uint64_t tasks = 0;
  std::vector<TransportTransit> transports;  // non-empty transports, SDMA last
  int64_t transit_ns = -1;                   // master plane, -1 without plane tasks
  int64_t wait_ns = -1;
  int64_t synchronization_ns = -1;
  int64_t idle_ns = -1;
  std::optional<double> wait_ratio;             // wait / (wait + transit)
  std::optional<double> synchronization_ratio;  // sync / (sync + transit)
  // Its longest plane task, on any plane (the first of equal ones in plane
  // and time order): where time that is neither transfer nor the master
  // plane's wait sits. Empty name and -1 without plane tasks.
  std::string longest_task;
  int64_t longest_task_plane = -1;
  int64_t longest_task_ns = -1;

  const TransportTransit* Transport(std::string_view transport) const {
    for (const TransportTransit& t : transports) {
      if (t.transport == transport) return &t;
    }
    return nullptr;
  }
  // Link traffic: the SDMA total plus RDMA (each byte counted once).
  int64_t link_bytes() const {
    int64_t b = 0;
    for (const TransportTransit& t : transports) {
      if (t.transport == "SDMA" || t.transport == "RDMA") base::AddSaturating(b, t.transit_bytes);
    }
    return b;
  }
  // Some of its transfers went over RDMA (it leaves the server).
  bool rdma() const { return Transport("RDMA") != nullptr; }

  // Its start lies in the analysis window (AnalyzeCollectives' `window`).
  bool in_window = true;
};

// All collectives of one type.
struct CollectiveTypeTotal {
  CollectiveType type = CollectiveType::kUnknown;
  uint64_t count = 0;
  uint64_t in_window = 0;
  int64_t total_ns = 0;       // Σ durations
  int64_t message_bytes = 0;  // Σ message_bytes of those that have one
  uint64_t sized = 0;         // how many have one
};

// An Ascend HCCL plane task and the collective it is filed under: the op
// whose window holds the task's end (msprof files a task under the op its
// end time falls in), of the same process and, when the track names say,
// the same group. Tasks no op holds are left out.
struct FiledTask {
  model::SliceId slice = 0;
  int64_t plane = -1;     // the plane (track) number; the track id when unnamed
  size_t collective = 0;  // index into CollectiveSummary::collectives
};

// The time of the window's collectives split as CANN's communication
// analysis splits each op ("Communication Time Info"): elapse = transit +
// wait + idle, summed over those with plane tasks (communication.json's
// "Total Op Info" when the window is the step). CANN calls the idle part
// the op's dispatch time: neither its master plane's transfers nor its
// waits there (waits on its other planes fall in it).
struct CommTimeSplit {
  uint64_t collectives = 0;    // in the window, with plane tasks
  uint64_t without_tasks = 0;  // in the window, without: their time is not split
  int64_t elapse_ns = 0;
  int64_t transit_ns = 0;
  int64_t wait_ns = 0;
  int64_t idle_ns = 0;
  // The split one whose longest plane task is the longest (index into
  // CollectiveSummary::collectives; -1: none).
  int64_t longest_task_collective = -1;
  // Every collective of the window is split, and there is time to split.
  bool complete() const { return collectives > 0 && without_tasks == 0 && elapse_ns > 0; }
  double ShareOf(int64_t part_ns) const {
    return elapse_ns > 0 ? static_cast<double>(part_ns) / static_cast<double>(elapse_ns) : 0.0;
  }
};

struct CollectiveSummary {
  std::vector<CollectiveStats> collectives;  // by start time
  // Per transport over all collectives (communication.json "Total Op Info").
  std::vector<TransportTransit> totals;
  // The same over the collectives in the window: the link traffic the
  // window's metrics and rules read.
  std::vector<TransportTransit> window_totals;
  CommTimeSplit window_time;
  // Per type, most device time first (ties: enum order).
  std::vector<CollectiveTypeTotal> by_type;
  // Every Ascend plane task filed under its collective, in track order (the
  // one task-to-op rule; the Ascend transfer facts read it). Empty for
  // traces without HCCL op tracks.
  std::vector<FiledTask> filed_tasks;
};

// `timeline` (optional) assigns step ids; `window` (optional, default the
// whole trace) sets in_window and window_totals.
CollectiveSummary AnalyzeCollectives(const model::Trace& trace,
                                     const StepTimeline* timeline = nullptr,
                                     const IntervalSet* window = nullptr);

// The transfers of `transports` (an ordered list, SDMA the sum) over SDMA
// links other than HCCS, PCIE and SIO: SDMA minus the named links. Empty
// (transfers 0) when there are none.
TransportTransit OtherSdmaLinks(const std::vector<TransportTransit>& transports);

}  // namespace perfdx::analysis
