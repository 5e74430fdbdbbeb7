#include "perfdx/report/cluster_report.h"

#include <algorithm>

#include <fmt/format.h>

namespace perfdx::report {
namespace {

std::string RankName(const cluster::ClusterAnalysis& c, size_t member) {
  const cluster::ClusterRank& r = c.ranks[member];
  return r.rank ? fmt::format("{}", *r.rank) : r.path;
}

void WriteRankId(const cluster::ClusterAnalysis& c, size_t member, ValueSink& w) {
  const cluster::ClusterRank& r = c.ranks[member];
  r.rank ? w.Int(*r.rank) : w.Null();
}

// What names a link: its group, ends and transport.
void WriteLinkKey(const cluster::ClusterLink& l, ValueSink& w) {
  w.Key("group").String(l.group);
  w.Key("src_rank").Int(l.src_rank);
  w.Key("dst_rank").Int(l.dst_rank);
  w.Key("transport").String(l.transport);
}

void WriteStanding(const cluster::RankStanding& s, ValueSink& w) {
  w.BeginObject();
  w.Key("steps").Int(s.steps);
  w.Key("late_steps").Int(s.late_steps);
  w.Key("wait_caused_ns").Int(s.wait_caused_ns);
  w.Key("phase");
  s.phase ? w.String(cluster::StepPhaseName(*s.phase)) : w.Null();
  w.Key("phases").BeginArray();
  for (const cluster::PhaseTime& p : s.phases) {
    w.BeginObject();
    w.Key("phase").String(cluster::StepPhaseName(p.phase));
    w.Key("ns").Int(p.rank_ns);
    w.Key("others_median_ns").Int(p.others_ns);
    w.EndObject();
  }
  w.EndArray();
  w.Key("kernel");
  if (s.kernel) {
    w.BeginObject();
    w.Key("name").String(s.kernel->name);
    w.Key("ns").Int(s.kernel->rank_ns);
    w.Key("others_median_ns").Int(s.kernel->others_ns);
    w.Key("launches").Double(s.kernel->rank_count);
    w.Key("others_median_launches").Double(s.kernel->others_count);
    w.EndObject();
  } else {
    w.Null();
  }
  w.EndObject();
}

}  // namespace

RankListing ShownRanks(const cluster::ClusterAnalysis& c, size_t top) {
  RankListing out;
  out.shown.assign(c.ranks.size(), c.ranks.size() <= kAllRanksShown);
  for (size_t m = 0; m < c.ranks.size() && m < top; ++m) out.shown[m] = true;
  for (size_t m : c.slow_ranks) out.shown[m] = true;
  out.hidden = static_cast<size_t>(std::count(out.shown.begin(), out.shown.end(), false));
  return out;
}

void WriteClusterSection(const cluster::ClusterAnalysis& c, ValueSink& w) {
  w.BeginObject();
  w.Key("ranks").BeginArray();
  for (const cluster::ClusterRank& r : c.ranks) {
    w.BeginObject();
    w.Key("rank");
    WriteRankId(c, r.member, w);
    w.Key("path").String(r.path);
    w.Key("clock_offset_ns").Int(r.clock_offset_ns);
    w.Key("clock_residual_ns").Int(r.clock_residual_ns);
    w.Key("clock_matches").Uint(r.clock_matches);
    w.Key("wait_ns");
    r.wait_ns >= 0 ? w.Int(r.wait_ns) : w.Null();
    w.Key("transit_ns");
    r.transit_ns >= 0 ? w.Int(r.transit_ns) : w.Null();
    w.Key("comm_comp_overlap");
    r.comm_comp_overlap ? w.Double(*r.comm_comp_overlap) : w.Null();
    w.Key("standing");
    WriteStanding(r.standing, w);
    w.Key("steps").BeginArray();
    for (const cluster::ClusterStep& s : r.steps) {
      w.BeginObject();
      w.Key("id").Int(s.id);
      w.Key("step_ns").Int(s.step_ns);
      w.Key("computing_ns").Int(s.computing_ns);
      w.Key("communication_ns").Int(s.communication_ns);
      w.Key("communication_not_overlapped_ns").Int(s.communication_not_overlapped_ns);
      w.Key("wait_ns").Int(s.wait_ns);
      w.Key("transit_ns").Int(s.transit_ns);
      w.Key("free_ns").Int(s.free_ns);
      w.Key("preparing_ns").Int(s.preparing_ns);
      w.Key("bubble_ns").Int(s.bubble_ns);
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
  w.Key("collectives").BeginArray();
  for (const cluster::ClusterCollective& x : c.collectives) {
    w.BeginObject();
    w.Key("name").String(x.name);
    w.Key("group").String(x.group);
    w.Key("type").String(analysis::CollectiveTypeName(x.type));
    w.Key("step");
    x.step ? w.Int(*x.step) : w.Null();
    w.Key("ranks").BeginArray();
    for (const cluster::CollectiveRankTiming& t : x.ranks) {
      w.BeginObject();
      w.Key("rank");
      WriteRankId(c, t.member, w);
      w.Key("start_ns").Int(t.start_ns);
      w.Key("end_ns").Int(t.end_ns);
      w.Key("wait_ns").Int(t.wait_ns);
      w.Key("transit_ns").Int(t.transit_ns);
      w.EndObject();
    }
    w.EndArray();
    w.Key("skew_ns").Int(x.skew_ns);
    w.Key("last_rank");
    WriteRankId(c, x.last_member, w);
    w.Key("bytes");
    x.bytes >= 0 ? w.Int(x.bytes) : w.Null();
    w.Key("algbw_gbps");
    x.algbw_gbps ? w.Double(*x.algbw_gbps) : w.Null();
    w.Key("busbw_gbps");
    x.busbw_gbps ? w.Double(*x.busbw_gbps) : w.Null();
    w.EndObject();
  }
  w.EndArray();
  w.Key("links").BeginArray();
  for (const cluster::ClusterLink& l : c.links) {
    w.BeginObject();
    WriteLinkKey(l, w);
    w.Key("bytes").Int(l.bytes);
    w.Key("transit_ns").Int(l.transit_ns);
    w.Key("bandwidth_gbps").Double(l.bandwidth_gbps());
    w.Key("peak_gbps");
    l.peak_gbps > 0 ? w.Double(l.peak_gbps) : w.Null();
    w.Key("peak_share");
    const std::optional<double> share = l.peak_share();
    share ? w.Double(*share) : w.Null();
    w.EndObject();
  }
  w.EndArray();
  w.Key("groups").BeginArray();
  for (const cluster::ClusterGroup& g : c.groups) {
    w.BeginObject();
    w.Key("name").String(g.name);
    w.Key("role");
    g.role.empty() ? w.Null() : w.String(g.role);
    w.Key("ranks").BeginArray();
    for (size_t m : g.members) WriteRankId(c, m, w);
    w.EndArray();
    w.Key("collectives").Uint(g.collectives);
    w.Key("linked_ranks");
    g.linked_ranks > 0 ? w.Int(g.linked_ranks) : w.Null();
    w.EndObject();
  }
  w.EndArray();
  w.Key("stages").BeginArray();
  for (const std::vector<size_t>& stage : c.stages) {
    w.BeginArray();
    for (size_t m : stage) WriteRankId(c, m, w);
    w.EndArray();
  }
  w.EndArray();
  w.Key("clock_offsets_ns").BeginObject();
  for (const cluster::ClusterRank& r : c.ranks) {
    w.Key(RankName(c, r.member)).Int(r.clock_offset_ns);
  }
  w.EndObject();
  w.Key("unmatched_collectives").Uint(c.unmatched_collectives);
  // The ranks the others waited for and the links below their transport's
  // median (cluster/stragglers.h); whether they matter is the findings'.
  w.Key("slow_ranks").BeginArray();
  for (size_t m : c.slow_ranks) {
    const cluster::RankStanding& s = c.ranks[m].standing;
    w.BeginObject();
    w.Key("rank");
    WriteRankId(c, m, w);
    w.Key("late_steps").Int(s.late_steps);
    w.Key("steps").Int(s.steps);
    w.Key("wait_caused_ns").Int(s.wait_caused_ns);
    w.Key("phase");
    s.phase ? w.String(cluster::StepPhaseName(*s.phase)) : w.Null();
    w.EndObject();
  }
  w.EndArray();
  w.Key("slow_links").BeginArray();
  for (const cluster::SlowLink& x : c.slow_links) {
    const cluster::ClusterLink& l = c.links[x.link];
    w.BeginObject();
    WriteLinkKey(l, w);
    w.Key("bandwidth_gbps").Double(x.bandwidth_gbps);
    w.Key("transport_median_gbps").Double(x.transport_median_gbps);
    w.Key("transport_links").Uint(x.transport_links);
    w.Key("shortfall").Double(x.shortfall());
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
}

}  // namespace perfdx::report
