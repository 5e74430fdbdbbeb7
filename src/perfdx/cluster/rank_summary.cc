#include "perfdx/cluster/rank_summary.h"

#include <map>
#include <string_view>
#include <tuple>

#include "perfdx/base/saturating.h"

namespace perfdx::cluster {
namespace {

// HCCL's "no peer" rank (dst 4294967295): a copy within the rank itself,
// beyond the ranks a link may name.
constexpr int64_t kNoPeerRank = 4294967295;
static_assert(kNoPeerRank > kMaxLinkRank);

std::string GroupOf(const model::Trace& trace, const analysis::CollectiveStats& c) {
  if (auto pg = trace.ArgString(c.slice, model::ArgKey::kProcessGroupName))
    return "process group " + std::string(*pg);
  return std::string(trace.strings.Get(trace.tracks[c.track].thread_name));
}

std::string LinkTransport(std::string_view transport, std::string_view link) {
  if (transport == "RDMA") return "RDMA";
  if (link == "ON_CHIP") return "LOCAL";
  if (link == "HCCS_SW") return "HCCS";
  return std::string(link);
}

// torch_npu's matrix counts the copies and RDMA transfers with a size, by
// their src and dst rank (the plane tasks filed under the collective).
std::vector<ClusterLink> LinksOf(const analysis::RankAnalysis& a) {
  const model::Trace& trace = *a.trace;
  const std::vector<analysis::CollectiveStats>& cs = a.collectives.collectives;
  std::map<std::tuple<std::string, int64_t, int64_t>, ClusterLink> links;
  for (const analysis::FiledTask& t : a.collectives.filed_tasks) {
    const std::string_view name = trace.slice_name(t.slice);
    const std::string_view transport =
        trace.ArgString(t.slice, model::ArgKey::kTransportType).value_or("");
    const int64_t bytes = trace.ArgInt(t.slice, model::ArgKey::kSizeBytes).value_or(0);
    if (bytes <= 0) continue;
    const bool copy = (name == "Memcpy" || name == "Reduce_Inline") && transport == "SDMA";
    if (!copy && transport != "RDMA") continue;
    const int64_t src = trace.ArgInt(t.slice, model::ArgKey::kSrcRank).value_or(-1);
    int64_t dst = trace.ArgInt(t.slice, model::ArgKey::kDstRank).value_or(-1);
    if (src < 0 || src > kMaxLinkRank) continue;
    if (dst < 0 || dst > kMaxLinkRank) dst = src;  // kNoPeerRank among them
    std::string group = GroupOf(trace, cs[t.collective]);
    ClusterLink& l = links[{group, src, dst}];
    if (l.transport.empty()) {
      l.group = std::move(group);
      l.src_rank = src;
      l.dst_rank = dst;
      l.transport =
          LinkTransport(transport, trace.ArgString(t.slice, model::ArgKey::kLinkType).value_or(""));
    }
    base::AddSaturating(l.bytes, bytes);
    base::AddSaturating(l.transit_ns, trace.slices.dur_ns[t.slice]);
  }
  std::vector<ClusterLink> out;
  for (auto& [key, link] : links) out.push_back(std::move(link));
  return out;
}

}  // namespace

std::string GroupRole(std::string_view desc) {
  if (desc == "default_pg") return "world";
  constexpr std::string_view kMesh = "mesh_";
  if (!desc.starts_with(kMesh)) return "";
  const std::string_view name = desc.substr(kMesh.size());
  if (name.empty() || name.starts_with("dim_")) return "";
  return std::string(name);
}

RankSummary SummarizeRank(const analysis::RankAnalysis& a) {
  RankSummary out;
  out.rank = a.info().rank;
  out.path = a.info().path;
  out.runtime = a.info().runtime;
  out.distributed_backend = a.info().distributed_backend;
  out.gain_step_ns = analysis::GainStepNs(a);
  out.complete_steps = a.complete_steps;
  out.stalled_launch_steps = static_cast<int64_t>(a.gaps.stalled_launch_steps.size());
  out.dataloader_single_process = a.layout.dataloader_single_process;
  out.dataloader_workers = a.layout.dataloader_workers;
  for (const analysis::StepAnalysis& s : a.steps) {
    out.steps.push_back({s.window.id, s.window.dur_ns(), s.device.computing_ns,
                         s.device.communication_ns, s.device.communication_not_overlapped_ns,
                         s.device.free_ns, s.device.preparing_ns, s.breakdown.dataloader_ns});
  }
  for (const analysis::KernelStat& k : a.kernels.kernels) {
    if (out.kernels.size() == kSummaryKernels) break;
    if (k.kind != model::EventKind::kComputeKernel) continue;
    out.kernels.push_back({k.name, static_cast<int64_t>(k.count), k.total_ns});
  }
  for (const analysis::CollectiveStats& c : a.collectives.collectives) {
    SummaryCollective x;
    x.group = GroupOf(*a.trace, c);
    x.role = GroupRole(a.trace->ArgString(c.slice, model::ArgKey::kProcessGroupDesc).value_or(""));
    x.name = c.name;
    x.type = c.type;
    x.step = c.step_id;
    x.start_ns = c.start_ns;
    x.dur_ns = c.dur_ns;
    x.bytes = c.message_bytes;
    x.algbw_gbps = c.algbw_gbps;
    x.busbw_gbps = c.busbw_gbps;
    if (c.transit_ns >= 0) {
      x.transit_ns = c.transit_ns;
      x.wait_ns = std::max<int64_t>(c.wait_ns, 0);
    }
    for (const analysis::TransportTransit& t : c.transports)
      x.transports.push_back({t.transport, t.transit_bytes, t.transit_ns});
    out.collectives.push_back(std::move(x));
  }
  out.links = LinksOf(a);
  out.comm_comp_overlap = a.temporal.comm_comp_overlap;
  return out;
}

}  // namespace perfdx::cluster
