// A rank's summary as a file (`perfdx summarize`): small, versioned JSON,
// read back exactly (integers as written, doubles in their shortest
// round-trip form), so that `perfdx analyze *.summary` gives the cluster
// section analysing the traces together gives.
//
//   {"schema_version": 3, "report": "rank_summary", "perfdx_version",
//    "rank", "path", "framework", "platform", "features": {"compiled",
//    "triton", "cuda_graphs", "ddp", "fsdp"}, "detected_from",
//    "distributed_backend", "gain_step_ns", "complete_steps",
//    "stalled_launch_steps", "dataloader_single_process",
//    "dataloader_workers", "comm_comp_overlap",
//    "steps": [{"id", "step_ns", "computing_ns", "communication_ns",
//    "communication_not_overlapped_ns", "free_ns", "preparing_ns",
//    "dataloader_ns"}], "collectives": [{"group", "role", "name", "type", "step",
//    "start_ns", "dur_ns", "bytes", "algbw_gbps", "busbw_gbps", "wait_ns",
//    "transit_ns", "transports": [{"transport", "bytes", "transit_ns"}]}],
//    "kernels": [{"name", "count", "total_ns"}], "links": [{"group",
//    "src_rank", "dst_rank", "transport", "bytes", "transit_ns"}]}
//
// A perfdx reads the one schema it writes: summaries of another version are
// refused, naming the version (summarize again; they are cheap to remake).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "perfdx/base/status.h"
#include "perfdx/cluster/rank_summary.h"

namespace perfdx::cluster {

// 4: features.pytorch_before_1_13.
inline constexpr int kRankSummarySchemaVersion = 4;
// The suffix `perfdx analyze` reads as a summary.
inline constexpr std::string_view kSummarySuffix = ".summary";
// A summary is a few KB to a few MB (an entry per collective); a file larger
// than this is not one.
inline constexpr uint64_t kMaxRankSummaryBytes = uint64_t{256} << 20;

std::string WriteRankSummary(const RankSummary& summary);

// `display_name` names the file in errors.
Result<RankSummary> ParseRankSummary(std::string_view json, const std::string& display_name);

}  // namespace perfdx::cluster
