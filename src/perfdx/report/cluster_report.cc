#include "perfdx/report/cluster_report.h"

#include <algorithm>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "perfdx/report/text_layout.h"
#include "perfdx/report/text_table.h"
#include "perfdx/report/units.h"

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

std::string RenderClusterText(const cluster::ClusterAnalysis& c, size_t width, size_t top) {
  std::string out;
  auto say = [&](std::string_view text) {
    AppendLines(out, Wrap(Printable(text), width, "  ", 4));
  };
  auto table_lines = [&](const TextTable& t) {
    AppendLines(out, t.Render(width, 2));
    if (t.dropped().empty()) return;
    std::string names;
    for (const std::string& d : t.dropped()) names += (names.empty() ? "" : ", ") + d;
    say(fmt::format("(columns left out at this width: {})", names));
  };
  say("per rank and step: computing, communication (exposed), wait vs transit");
  TextTable table({{.header = "rank", .shrink = true},
                   {.header = "step", .right = true},
                   {.header = "time", .right = true},
                   {.header = "computing", .right = true},
                   {.header = "comm", .right = true, .drop = 4},
                   {.header = "exposed", .right = true},
                   {.header = "wait", .right = true},
                   {.header = "transit", .right = true},
                   {.header = "free", .right = true, .drop = 3},
                   {.header = "preparing", .right = true, .drop = 2},
                   {.header = "bubble", .right = true, .drop = 1}});
  for (const cluster::ClusterRank& r : c.ranks) {
    for (const cluster::ClusterStep& s : r.steps) {
      table.AddRow({RankName(c, r.member), fmt::format("{}", s.id), FormatDuration(s.step_ns),
                    FormatDuration(s.computing_ns), FormatDuration(s.communication_ns),
                    FormatDuration(s.communication_not_overlapped_ns), FormatDuration(s.wait_ns),
                    FormatDuration(s.transit_ns), FormatDuration(s.free_ns),
                    FormatDuration(s.preparing_ns), FormatDuration(s.bubble_ns)});
    }
  }
  table_lines(table);
  for (const cluster::ClusterRank& r : c.ranks) {
    if (r.member == 0) continue;
    say(r.clock_matches == 0
            ? fmt::format("rank {}: no collective in common with rank {}: clock not aligned",
                          RankName(c, r.member), RankName(c, 0))
            : fmt::format("rank {}: clock offset {} to rank {} (residual {}, from {} "
                          "collectives)",
                          RankName(c, r.member), FormatDuration(r.clock_offset_ns), RankName(c, 0),
                          FormatDuration(r.clock_residual_ns), r.clock_matches));
  }
  std::vector<const cluster::ClusterCollective*> skewed;
  for (const cluster::ClusterCollective& x : c.collectives) skewed.push_back(&x);
  std::stable_sort(skewed.begin(), skewed.end(),
                   [](const auto* a, const auto* b) { return a->skew_ns > b->skew_ns; });
  if (skewed.size() > top) skewed.resize(top);
  if (!skewed.empty()) {
    say(fmt::format("collectives matched across ranks: {} (most arrival skew first)",
                    c.collectives.size()));
    TextTable t({{.header = "collective", .shrink = true},
                 {.header = "step", .right = true, .drop = 2},
                 {.header = "skew", .right = true},
                 {.header = "last", .right = true},
                 {.header = "bytes", .right = true, .drop = 1}});
    for (const cluster::ClusterCollective* x : skewed) {
      t.AddRow({x->name, x->step ? fmt::format("{}", *x->step) : "", FormatDuration(x->skew_ns),
                RankName(c, x->last_member), x->bytes >= 0 ? FormatBytes(x->bytes) : ""});
    }
    table_lines(t);
  }
  if (!c.links.empty()) {
    say("links (bytes each rank sent, by group and local rank)");
    TextTable t({{.header = "group", .shrink = true},
                 {.header = "src", .right = true},
                 {.header = "dst", .right = true},
                 {.header = "transport"},
                 {.header = "bytes", .right = true},
                 {.header = "time", .right = true, .drop = 1},
                 {.header = "GB/s", .right = true}});
    for (const cluster::ClusterLink& l : c.links) {
      t.AddRow({l.group, fmt::format("{}", l.src_rank), fmt::format("{}", l.dst_rank), l.transport,
                FormatBytes(l.bytes), FormatDuration(l.transit_ns),
                fmt::format("{:.1f}", l.bandwidth_gbps())});
    }
    table_lines(t);
  }
  return out;
}

}  // namespace perfdx::report
