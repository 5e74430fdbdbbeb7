#include "perfdx/cluster/stragglers.h"

#include <algorithm>
#include <map>
#include <string_view>

#include "perfdx/base/saturating.h"
#include "perfdx/base/statistics.h"

namespace perfdx::cluster {

std::string_view StepPhaseName(StepPhase p) {
  switch (p) {
    case StepPhase::kDataLoading:
      return "data_loading";
    case StepPhase::kHost:
      return "host";
    case StepPhase::kCompute:
      return "compute";
    case StepPhase::kTransit:
      return "transit";
  }
  return "compute";
}

namespace {

// A rank's phase times, per step on average over its steps.
std::array<int64_t, 4> PhasesOf(const RankSummary& r, const std::vector<int64_t>& transit) {
  std::array<int64_t, 4> sum{};
  for (size_t i = 0; i < r.steps.size(); ++i) {
    const SummaryStep& s = r.steps[i];
    base::AddSaturating(sum[0], s.dataloader_ns);
    base::AddSaturating(sum[1], std::max<int64_t>(0, s.free_ns - s.dataloader_ns));
    base::AddSaturating(sum[2], s.computing_ns);
    base::AddSaturating(sum[3], i < transit.size() ? transit[i] : 0);
  }
  const int64_t n = std::max<int64_t>(1, static_cast<int64_t>(r.steps.size()));
  for (int64_t& v : sum) v /= n;
  return sum;
}

// The median of v without its element `skip`.
template <typename T>
T MedianWithout(const std::vector<T>& v, size_t skip) {
  std::vector<T> others;
  others.reserve(v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    if (i != skip) others.push_back(v[i]);
  }
  return others.empty() ? T{} : MedianInPlace(others);
}

std::optional<KernelExcess> KernelExcessOf(const std::vector<const RankSummary*>& ranks,
                                           size_t member, const std::vector<size_t>& peers) {
  // Per kernel name, each peer's time and launches per step (peers that do
  // not list it in their top kernels are left out, not counted as 0).
  struct PerRank {
    std::vector<size_t> members;
    std::vector<int64_t> ns;
    std::vector<double> count;
  };
  std::map<std::string_view, PerRank> by_name;
  for (size_t m : peers) {
    const int64_t steps = std::max<int64_t>(1, static_cast<int64_t>(ranks[m]->steps.size()));
    for (const SummaryKernel& k : ranks[m]->kernels) {
      PerRank& p = by_name[k.name];
      p.members.push_back(m);
      p.ns.push_back(k.total_ns / steps);
      p.count.push_back(static_cast<double>(k.count) / static_cast<double>(steps));
    }
  }
  std::optional<KernelExcess> best;
  for (const SummaryKernel& k : ranks[member]->kernels) {
    const PerRank& p = by_name[k.name];
    // Against at least half of the other peers: a kernel the others do not
    // list is no measure of this rank's excess.
    if (2 * (p.members.size() - 1) < peers.size() - 1 || p.members.size() < 2) continue;
    const size_t self = static_cast<size_t>(std::find(p.members.begin(), p.members.end(), member) -
                                            p.members.begin());
    KernelExcess e;
    e.name = k.name;
    e.rank_ns = p.ns[self];
    e.others_ns = MedianWithout(p.ns, self);
    e.rank_count = p.count[self];
    e.others_count = MedianWithout(p.count, self);
    if (e.excess_ns() > 0 && (!best || e.excess_ns() > best->excess_ns())) best = std::move(e);
  }
  return best;
}

// Whom each member is compared with: its pipeline stage's members where
// stages are known, else every member (one list shared by all: a job of
// thousands of ranks holds no list per rank).
std::vector<const std::vector<size_t>*> PeersOf(const std::vector<size_t>& everyone,
                                                const std::vector<std::vector<size_t>>& stages) {
  std::vector<const std::vector<size_t>*> out(everyone.size(), &everyone);
  for (const std::vector<size_t>& stage : stages) {
    for (size_t m : stage) out[m] = &stage;
  }
  return out;
}

}  // namespace

std::vector<RankStanding> StandingsOf(const std::vector<const RankSummary*>& ranks,
                                      const std::vector<std::vector<int64_t>>& transit_per_step,
                                      const std::vector<std::vector<size_t>>& stages) {
  const size_t n = ranks.size();
  std::vector<size_t> everyone(n);
  for (size_t m = 0; m < n; ++m) everyone[m] = m;
  const std::vector<const std::vector<size_t>*> peers = PeersOf(everyone, stages);
  std::vector<RankStanding> out(n);
  // Late: per step id, the rank with the least communication.
  std::map<int64_t, std::vector<std::pair<size_t, int64_t>>> by_step;
  for (size_t m = 0; m < n; ++m) {
    for (const SummaryStep& s : ranks[m]->steps) {
      if (s.communication_ns > 0) by_step[s.id].emplace_back(m, s.communication_ns);
    }
  }
  std::vector<int64_t> wait_caused(n, 0);
  for (const auto& [step, comms] : by_step) {
    if (comms.size() < 2) continue;
    const auto min = std::min_element(comms.begin(), comms.end(), [](const auto& a, const auto& b) {
      return a.second < b.second;
    });
    int64_t max_wait = 0;
    for (const auto& [m, comm] : comms) {
      max_wait = std::max(max_wait, comm - min->second);
      ++out[m].steps;
    }
    ++out[min->first].late_steps;
    base::AddSaturating(wait_caused[min->first], max_wait);
  }
  std::array<std::vector<int64_t>, 4> phase_values;
  for (size_t m = 0; m < n; ++m) {
    const std::array<int64_t, 4> p = PhasesOf(*ranks[m], transit_per_step[m]);
    for (size_t i = 0; i < 4; ++i) phase_values[i].push_back(p[i]);
  }
  for (size_t m = 0; m < n; ++m) {
    RankStanding& s = out[m];
    s.member = m;
    s.wait_caused_ns = s.steps > 0 ? wait_caused[m] / s.steps : 0;
    const std::vector<size_t>& mine = *peers[m];
    if (mine.size() < 2) continue;
    const size_t self = static_cast<size_t>(std::find(mine.begin(), mine.end(), m) - mine.begin());
    int64_t best = 0;
    for (size_t i = 0; i < 4; ++i) {
      std::vector<int64_t> values;  // the peers' phase times, `self` among them
      values.reserve(mine.size());
      for (size_t p : mine) values.push_back(phase_values[i][p]);
      PhaseTime t{kStepPhases[i], phase_values[i][m], MedianWithout(values, self)};
      if (t.excess_ns() > best) best = t.excess_ns(), s.phase = t.phase;
      s.phases.push_back(t);
    }
  }
  // The kernels of the ranks a finding can name: those the others waited
  // for most, and the one that computes longest (the kernel tables of
  // thousands of ranks are compared for a few ranks only).
  std::vector<size_t> order(n);
  for (size_t m = 0; m < n; ++m) order[m] = m;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return out[a].wait_caused_ns > out[b].wait_caused_ns;
  });
  std::vector<size_t> named(order.begin(), order.begin() + std::min(n, kNamedRanks));
  named.push_back(static_cast<size_t>(
      std::max_element(phase_values[2].begin(), phase_values[2].end()) - phase_values[2].begin()));
  for (size_t m : named) {
    if (out[m].phase == StepPhase::kCompute && !out[m].kernel)
      out[m].kernel = KernelExcessOf(ranks, m, *peers[m]);
  }
  return out;
}

std::vector<SlowLink> SlowLinksOf(const std::vector<ClusterLink>& links) {
  std::map<std::string_view, std::vector<size_t>> by_transport;
  for (size_t i = 0; i < links.size(); ++i) {
    if (links[i].bytes > 0 && links[i].transit_ns > 0)
      by_transport[links[i].transport].push_back(i);
  }
  std::vector<SlowLink> out;
  for (const auto& [transport, members] : by_transport) {
    if (members.size() < 3) continue;
    std::vector<double> bw;
    for (size_t i : members) bw.push_back(links[i].bandwidth_gbps());
    const double median = MedianInPlace(bw);
    for (size_t i : members) {
      const double b = links[i].bandwidth_gbps();
      if (b < median) out.push_back({i, b, median, members.size()});
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const SlowLink& a, const SlowLink& b) {
    return a.shortfall() > b.shortfall();
  });
  return out;
}

}  // namespace perfdx::cluster
