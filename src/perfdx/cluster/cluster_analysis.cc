#include "perfdx/cluster/cluster_analysis.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>
#include <tuple>

#include "perfdx/base/saturating.h"
#include "perfdx/base/statistics.h"

namespace perfdx::cluster {
namespace {

// (group, name, n): the n-th collective of that name on that group's track.
using InstanceKey = std::tuple<std::string, std::string, int64_t>;

std::map<InstanceKey, size_t> InstancesOf(const RankSummary& r) {
  std::map<InstanceKey, size_t> out;
  std::map<std::pair<std::string, std::string>, int64_t> seen;
  for (size_t k = 0; k < r.collectives.size(); ++k) {
    const SummaryCollective& c = r.collectives[k];
    const int64_t n = seen[{c.group, c.name}]++;
    out.emplace(InstanceKey{c.group, c.name, n}, k);
  }
  return out;
}

std::vector<ClusterStep> StepsOf(const RankSummary& r, const std::vector<int64_t>& wait,
                                 const std::vector<int64_t>& transit) {
  std::vector<ClusterStep> out;
  std::map<int64_t, size_t> index;
  for (const SummaryStep& s : r.steps) {
    index.emplace(s.id, out.size());
    out.push_back({s});
  }
  for (size_t k = 0; k < r.collectives.size(); ++k) {
    const SummaryCollective& c = r.collectives[k];
    if (!c.step) continue;
    auto it = index.find(*c.step);
    if (it == index.end()) continue;
    ClusterStep& row = out[it->second];
    base::AddSaturating(row.wait_ns, wait[k]);
    base::AddSaturating(row.transit_ns, transit[k]);
    if (c.type == analysis::CollectiveType::kReceive) base::AddSaturating(row.bubble_ns, c.dur_ns);
  }
  return out;
}

// Disjoint sets of members, each named by its root.
class DisjointSets {
 public:
  explicit DisjointSets(size_t n) : parent_(n) {
    for (size_t i = 0; i < n; ++i) parent_[i] = i;
  }
  size_t Find(size_t i) {
    while (parent_[i] != i) i = parent_[i] = parent_[parent_[i]];
    return i;
  }
  void Join(size_t a, size_t b) {
    a = Find(a), b = Find(b);
    if (a != b) parent_[std::max(a, b)] = std::min(a, b);
  }

 private:
  std::vector<size_t> parent_;
};

std::vector<std::vector<size_t>> StagesOf(const std::vector<ClusterGroup>& groups, size_t n) {
  DisjointSets pipelines(n);
  std::vector<bool> in_pipeline(n, false);
  for (const ClusterGroup& g : groups) {
    if (!IsPipelineRole(g.role)) continue;
    for (size_t m : g.members) {
      in_pipeline[m] = true;
      pipelines.Join(g.members.front(), m);
    }
  }
  if (std::find(in_pipeline.begin(), in_pipeline.end(), true) == in_pipeline.end()) return {};
  DisjointSets stages(n);
  for (const ClusterGroup& g : groups) {
    if (IsPipelineRole(g.role)) continue;
    // A group with two ranks of one pipeline spans stages (the world group).
    std::set<size_t> pipelines_met;
    bool spans = false;
    for (size_t m : g.members) {
      if (in_pipeline[m] && !pipelines_met.insert(pipelines.Find(m)).second) spans = true;
    }
    if (spans) continue;
    for (size_t m : g.members) stages.Join(g.members.front(), m);
  }
  // Only the pipeline's ranks have a stage; a group beside the pipeline
  // (its ranks in no pipeline group) is not one.
  std::map<size_t, std::vector<size_t>> by_root;
  for (size_t m = 0; m < n; ++m) {
    if (in_pipeline[m]) by_root[stages.Find(m)].push_back(m);
  }
  for (size_t m = 0; m < n; ++m) {
    auto it = by_root.find(stages.Find(m));
    if (!in_pipeline[m] && it != by_root.end()) it->second.push_back(m);
  }
  std::vector<std::vector<size_t>> out;
  for (auto& [root, members] : by_root) {
    std::sort(members.begin(), members.end());
    out.push_back(std::move(members));
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The largest clock offset between two ranks taken for one (2^50 ns, 13
// days): beyond it the ranks are not aligned.
constexpr int64_t kMaxClockOffsetNs = int64_t{1} << 50;

}  // namespace

bool IsPipelineRole(std::string_view role) {
  return role == "pp" || role.starts_with("pp_");
}

ClusterAnalysis AnalyzeCluster(const std::vector<const RankSummary*>& ranks,
                               const analysis::LinkPeaks& peaks) {
  ClusterAnalysis out;
  if (ranks.empty()) return out;
  const size_t n = ranks.size();
  std::vector<std::map<InstanceKey, size_t>> instances;
  for (const RankSummary* r : ranks) instances.push_back(InstancesOf(*r));

  // Clock offsets against the first rank, from the ends of the instances
  // both ran.
  std::vector<int64_t> offset(n, 0);
  std::vector<int64_t> residual(n, 0);
  std::vector<size_t> matches(n, 0);
  const std::vector<SummaryCollective>& first = ranks[0]->collectives;
  for (size_t m = 1; m < n; ++m) {
    std::vector<int64_t> diffs;
    const std::vector<SummaryCollective>& mine = ranks[m]->collectives;
    for (const auto& [key, k] : instances[m]) {
      auto it = instances[0].find(key);
      if (it == instances[0].end()) continue;
      diffs.push_back((first[it->second].start_ns + first[it->second].dur_ns) -
                      (mine[k].start_ns + mine[k].dur_ns));
    }
    matches[m] = diffs.size();
    if (diffs.empty()) continue;
    std::vector<int64_t> sorted = diffs;
    const int64_t median = MedianInPlace(sorted);
    // Ranks of one job run on clocks seconds apart at most; an offset of
    // days says the instances only share names (or a summary was forged),
    // and adding it to times could overflow.
    if (median > kMaxClockOffsetNs || median < -kMaxClockOffsetNs) {
      matches[m] = 0;
      continue;
    }
    offset[m] = median;
    for (int64_t& d : diffs) d = std::llabs(d - offset[m]);
    residual[m] = MedianInPlace(diffs);
  }
  matches[0] = n > 1 ? *std::max_element(matches.begin() + 1, matches.end()) : 0;

  // Wait and transit from the tasks where the trace has them; else the
  // arrivals decide below.
  std::vector<std::vector<int64_t>> wait(n), transit(n);
  for (size_t m = 0; m < n; ++m) {
    const std::vector<SummaryCollective>& cs = ranks[m]->collectives;
    wait[m].assign(cs.size(), 0);
    transit[m].assign(cs.size(), 0);
    for (size_t k = 0; k < cs.size(); ++k) {
      if (cs[k].transit_ns >= 0) {
        wait[m][k] = cs[k].wait_ns;
        transit[m][k] = cs[k].transit_ns;
      } else {
        transit[m][k] = cs[k].dur_ns;
      }
    }
  }
  // Every instance seen on two ranks or more, from the first rank that ran it.
  std::set<InstanceKey> done;
  for (size_t m = 0; m < n; ++m) {
    for (const auto& [key, k0] : instances[m]) {
      if (!done.insert(key).second) continue;
      ClusterCollective c;
      const SummaryCollective& own = ranks[m]->collectives[k0];
      c.name = own.name;
      c.group = own.group;
      c.role = own.role;
      c.type = own.type;
      c.step = own.step;
      c.bytes = own.bytes;
      c.algbw_gbps = own.algbw_gbps;
      c.busbw_gbps = own.busbw_gbps;
      std::vector<size_t> index;  // per c.ranks entry: the collective's index on its rank
      for (size_t r = m; r < n; ++r) {
        auto it = instances[r].find(key);
        if (it == instances[r].end()) continue;
        const SummaryCollective& x = ranks[r]->collectives[it->second];
        c.ranks.push_back({r, x.start_ns + offset[r], x.start_ns + x.dur_ns + offset[r], 0, 0});
        index.push_back(it->second);
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
      for (size_t i = 0; i < c.ranks.size(); ++i) {
        CollectiveRankTiming& t = c.ranks[i];
        const size_t k = index[i];
        const SummaryCollective& x = ranks[t.member]->collectives[k];
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

  for (size_t m = 0; m < n; ++m) {
    const RankSummary& s = *ranks[m];
    ClusterRank r;
    r.member = m;
    r.rank = s.rank;
    r.path = s.path;
    r.steps = StepsOf(s, wait[m], transit[m]);
    if (!s.collectives.empty()) {
      r.wait_ns = 0;
      r.transit_ns = 0;
      for (size_t k = 0; k < wait[m].size(); ++k) {
        base::AddSaturating(r.wait_ns, wait[m][k]);
        base::AddSaturating(r.transit_ns, transit[m][k]);
      }
    }
    r.comm_comp_overlap = s.comm_comp_overlap;
    r.clock_offset_ns = offset[m];
    r.clock_residual_ns = residual[m];
    r.clock_matches = matches[m];
    out.ranks.push_back(std::move(r));
    out.links.insert(out.links.end(), s.links.begin(), s.links.end());
  }
  std::map<std::string, ClusterGroup> groups;
  for (const ClusterCollective& c : out.collectives) {
    ClusterGroup& g = groups[c.group];
    g.name = c.group;
    if (g.role.empty()) g.role = c.role;
    ++g.collectives;
    for (const CollectiveRankTiming& t : c.ranks) g.members.push_back(t.member);
  }
  for (auto& [name, g] : groups) {
    std::sort(g.members.begin(), g.members.end());
    g.members.erase(std::unique(g.members.begin(), g.members.end()), g.members.end());
    out.groups.push_back(std::move(g));
  }
  out.stages = StagesOf(out.groups, n);
  std::vector<std::vector<int64_t>> transit_per_step(n);
  for (size_t m = 0; m < n; ++m) {
    for (const ClusterStep& s : out.ranks[m].steps) transit_per_step[m].push_back(s.transit_ns);
  }
  std::vector<RankStanding> standings = StandingsOf(ranks, transit_per_step, out.stages);
  for (size_t m = 0; m < n; ++m) {
    out.ranks[m].standing = std::move(standings[m]);
    if (out.ranks[m].standing.late_steps > 0 && out.ranks[m].standing.wait_caused_ns > 0)
      out.slow_ranks.push_back(m);
  }
  std::stable_sort(out.slow_ranks.begin(), out.slow_ranks.end(), [&](size_t a, size_t b) {
    return out.ranks[a].standing.wait_caused_ns > out.ranks[b].standing.wait_caused_ns;
  });
  if (out.slow_ranks.size() > kNamedRanks) out.slow_ranks.resize(kNamedRanks);
  std::stable_sort(out.links.begin(), out.links.end(),
                   [](const ClusterLink& a, const ClusterLink& b) {
                     return std::tie(a.group, a.src_rank, a.dst_rank) <
                            std::tie(b.group, b.src_rank, b.dst_rank);
                   });
  for (ClusterLink& l : out.links) l.peak_gbps = analysis::PeakOf(peaks, l.transport);
  for (ClusterGroup& g : out.groups) {
    for (const ClusterLink& l : out.links) {
      if (l.group == g.name)
        g.linked_ranks = std::max({g.linked_ranks, l.src_rank + 1, l.dst_rank + 1});
    }
  }
  out.slow_links = SlowLinksOf(out.links);
  if (out.slow_links.size() > kListedSlowLinks) out.slow_links.resize(kListedSlowLinks);
  return out;
}

}  // namespace perfdx::cluster
