#include "perfdx/cluster/cluster_analysis.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <string_view>
#include <tuple>

#include "perfdx/base/statistics.h"

namespace perfdx::cluster {
namespace {

using analysis::CollectiveStats;
using analysis::RankAnalysis;

// HCCL's "no peer" rank (dst 4294967295): a copy within the rank itself.
constexpr int64_t kNoPeerRank = 4294967295;

std::string GroupOf(const model::Trace& trace, const CollectiveStats& c) {
  return std::string(trace.strings.Get(trace.tracks[c.track].thread_name));
}

// (group, name, n): the n-th collective of that name on that group's track.
using InstanceKey = std::tuple<std::string, std::string, int64_t>;

std::map<InstanceKey, size_t> InstancesOf(const RankAnalysis& a) {
  std::map<InstanceKey, size_t> out;
  std::map<std::pair<std::string, std::string>, int64_t> seen;
  const std::vector<CollectiveStats>& cs = a.collectives.collectives;
  for (size_t k = 0; k < cs.size(); ++k) {
    std::string group = GroupOf(*a.trace, cs[k]);
    const int64_t n = seen[{group, cs[k].name}]++;
    out.emplace(InstanceKey{std::move(group), cs[k].name, n}, k);
  }
  return out;
}

std::vector<ClusterStep> StepsOf(const RankAnalysis& a, const std::vector<int64_t>& wait,
                                 const std::vector<int64_t>& transit) {
  std::vector<ClusterStep> out;
  std::map<int64_t, size_t> index;
  for (const analysis::StepAnalysis& s : a.steps) {
    ClusterStep row;
    row.id = s.window.id;
    row.step_ns = s.window.dur_ns();
    row.computing_ns = s.device.computing_ns;
    row.communication_ns = s.device.communication_ns;
    row.communication_not_overlapped_ns = s.device.communication_not_overlapped_ns;
    row.free_ns = s.device.free_ns;
    row.preparing_ns = s.device.preparing_ns;
    index.emplace(row.id, out.size());
    out.push_back(row);
  }
  const std::vector<CollectiveStats>& cs = a.collectives.collectives;
  for (size_t k = 0; k < cs.size(); ++k) {
    if (!cs[k].step_id) continue;
    auto it = index.find(*cs[k].step_id);
    if (it == index.end()) continue;
    ClusterStep& row = out[it->second];
    row.wait_ns += wait[k];
    row.transit_ns += transit[k];
    if (cs[k].type == analysis::CollectiveType::kReceive) row.bubble_ns += cs[k].dur_ns;
  }
  return out;
}

std::string LinkTransport(std::string_view transport, std::string_view link) {
  if (transport == "RDMA") return "RDMA";
  if (link == "ON_CHIP") return "LOCAL";
  if (link == "HCCS_SW") return "HCCS";
  return std::string(link);
}

void AddLinks(const RankAnalysis& a,
              std::map<std::tuple<std::string, int64_t, int64_t>, ClusterLink>* links) {
  const model::Trace& trace = *a.trace;
  const std::vector<CollectiveStats>& cs = a.collectives.collectives;
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
    if (src < 0) continue;
    if (dst == kNoPeerRank || dst < 0) dst = src;
    const std::string group = GroupOf(trace, cs[t.collective]);
    ClusterLink& l = (*links)[{group, src, dst}];
    if (l.transport.empty()) {
      l.group = group;
      l.src_rank = src;
      l.dst_rank = dst;
      l.transport =
          LinkTransport(transport, trace.ArgString(t.slice, model::ArgKey::kLinkType).value_or(""));
    }
    l.bytes += bytes;
    l.transit_ns += trace.slices.dur_ns[t.slice];
  }
}

}  // namespace

ClusterAnalysis AnalyzeCluster(const std::vector<const RankAnalysis*>& ranks) {
  ClusterAnalysis out;
  if (ranks.empty()) return out;
  const size_t n = ranks.size();
  std::vector<std::map<InstanceKey, size_t>> instances;
  for (const RankAnalysis* a : ranks) instances.push_back(InstancesOf(*a));

  // Clock offsets against the first rank, from the ends of the instances
  // both ran.
  std::vector<int64_t> offset(n, 0);
  std::vector<int64_t> residual(n, 0);
  std::vector<size_t> matches(n, 0);
  const std::vector<CollectiveStats>& first = ranks[0]->collectives.collectives;
  for (size_t m = 1; m < n; ++m) {
    std::vector<int64_t> diffs;
    const std::vector<CollectiveStats>& mine = ranks[m]->collectives.collectives;
    for (const auto& [key, k] : instances[m]) {
      auto it = instances[0].find(key);
      if (it == instances[0].end()) continue;
      diffs.push_back((first[it->second].start_ns + first[it->second].dur_ns) -
                      (mine[k].start_ns + mine[k].dur_ns));
    }
    matches[m] = diffs.size();
    if (diffs.empty()) continue;
    std::vector<int64_t> sorted = diffs;
    offset[m] = MedianInPlace(sorted);
    for (int64_t& d : diffs) d = std::llabs(d - offset[m]);
    residual[m] = MedianInPlace(diffs);
  }
  matches[0] = n > 1 ? *std::max_element(matches.begin() + 1, matches.end()) : 0;

  // Every instance seen on two ranks or more, from the first rank that ran it.
  std::vector<std::vector<int64_t>> wait(n), transit(n);
  for (size_t m = 0; m < n; ++m) {
    const std::vector<CollectiveStats>& cs = ranks[m]->collectives.collectives;
    wait[m].assign(cs.size(), 0);
    transit[m].assign(cs.size(), 0);
    for (size_t k = 0; k < cs.size(); ++k) {
      // From the tasks where the trace has them; else arrivals decide below.
      if (cs[k].transit_ns >= 0) {
        wait[m][k] = std::max<int64_t>(cs[k].wait_ns, 0);
        transit[m][k] = cs[k].transit_ns;
      } else {
        transit[m][k] = cs[k].dur_ns;
      }
    }
  }
  std::map<InstanceKey, bool> done;
  for (size_t m = 0; m < n; ++m) {
    for (const auto& [key, k0] : instances[m]) {
      if (done.contains(key)) continue;
      done.emplace(key, true);
      ClusterCollective c;
      const CollectiveStats& own = ranks[m]->collectives.collectives[k0];
      c.name = own.name;
      c.group = std::get<0>(key);
      c.type = own.type;
      c.step = own.step_id;
      c.bytes = own.message_bytes;
      c.algbw_gbps = own.algbw_gbps;
      c.busbw_gbps = own.busbw_gbps;
      for (size_t r = m; r < n; ++r) {
        auto it = instances[r].find(key);
        if (it == instances[r].end()) continue;
        const CollectiveStats& x = ranks[r]->collectives.collectives[it->second];
        c.ranks.push_back({r, x.start_ns + offset[r], x.start_ns + x.dur_ns + offset[r], 0, 0});
      }
      if (c.ranks.size() < 2) {
        ++out.unmatched_collectives;
        continue;
      }
      int64_t first_arrival = c.ranks[0].start_ns;
      int64_t last_arrival = c.ranks[0].start_ns;
      c.last_member = c.ranks[0].member;
      for (const CollectiveRankTiming& t : c.ranks) {
        first_arrival = std::min(first_arrival, t.start_ns);
        if (t.start_ns > last_arrival) last_arrival = t.start_ns, c.last_member = t.member;
      }
      c.skew_ns = last_arrival - first_arrival;
      for (CollectiveRankTiming& t : c.ranks) {
        const size_t k = instances[t.member].at(key);
        const CollectiveStats& x = ranks[t.member]->collectives.collectives[k];
        if (x.transit_ns < 0) {  // no tasks: the wait is the time to the last arrival
          wait[t.member][k] = std::min(last_arrival - t.start_ns, x.dur_ns);
          transit[t.member][k] = x.dur_ns - wait[t.member][k];
        }
        t.wait_ns = wait[t.member][k];
        t.transit_ns = transit[t.member][k];
      }
      out.collectives.push_back(std::move(c));
    }
  }
  std::stable_sort(out.collectives.begin(), out.collectives.end(),
                   [](const ClusterCollective& a, const ClusterCollective& b) {
                     return a.ranks[0].start_ns < b.ranks[0].start_ns;
                   });

  std::map<std::tuple<std::string, int64_t, int64_t>, ClusterLink> links;
  for (size_t m = 0; m < n; ++m) {
    const RankAnalysis& a = *ranks[m];
    ClusterRank r;
    r.member = m;
    r.rank = a.info().rank;
    r.path = a.info().path;
    r.steps = StepsOf(a, wait[m], transit[m]);
    if (!a.collectives.collectives.empty()) {
      r.wait_ns = 0;
      r.transit_ns = 0;
      for (size_t k = 0; k < wait[m].size(); ++k) {
        r.wait_ns += wait[m][k];
        r.transit_ns += transit[m][k];
      }
    }
    r.comm_comp_overlap = a.temporal.comm_comp_overlap;
    r.clock_offset_ns = offset[m];
    r.clock_residual_ns = residual[m];
    r.clock_matches = matches[m];
    out.ranks.push_back(std::move(r));
    AddLinks(a, &links);
  }
  for (auto& [key, link] : links) out.links.push_back(std::move(link));
  return out;
}

}  // namespace perfdx::cluster
