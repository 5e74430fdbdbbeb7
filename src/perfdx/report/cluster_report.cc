#include "perfdx/report/cluster_report.h"

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

}  // namespace

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
    w.Key("group").String(l.group);
    w.Key("src_rank").Int(l.src_rank);
    w.Key("dst_rank").Int(l.dst_rank);
    w.Key("transport").String(l.transport);
    w.Key("bytes").Int(l.bytes);
    w.Key("transit_ns").Int(l.transit_ns);
    w.Key("bandwidth_gbps").Double(l.bandwidth_gbps());
    w.EndObject();
  }
  w.EndArray();
  w.Key("groups").BeginArray();
  for (const cluster::ClusterGroup& g : c.groups) {
    w.BeginObject();
    w.Key("name").String(g.name);
    w.Key("role").Null();
    w.Key("ranks").BeginArray();
    for (size_t m : g.members) WriteRankId(c, m, w);
    w.EndArray();
    w.Key("collectives").Uint(g.collectives);
    w.EndObject();
  }
  w.EndArray();
  w.Key("clock_offsets_ns").BeginObject();
  for (const cluster::ClusterRank& r : c.ranks) {
    w.Key(RankName(c, r.member)).Int(r.clock_offset_ns);
  }
  w.EndObject();
  w.Key("unmatched_collectives").Uint(c.unmatched_collectives);
  w.EndObject();
}

}  // namespace perfdx::report
