#include "perfdx/cluster/joint_replay.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "perfdx/base/statistics.h"

namespace perfdx::cluster {
namespace {

using analysis::CollectiveJoin;
using analysis::kNoNode;
using analysis::ReplayGraph;

// The graph's collective op that started at `start_ns` (the rank's clock)
// and lasted `dur_ns`: the same event the cluster matched.
int32_t FindCollectiveOp(const ReplayGraph& g, int64_t start_ns, int64_t dur_ns) {
  auto it = std::lower_bound(
      g.device.begin(), g.device.end(), start_ns,
      [](const analysis::ReplayDeviceOp& op, int64_t t) { return op.start_ns < t; });
  for (; it != g.device.end() && it->start_ns == start_ns; ++it) {
    if ((it->flags & analysis::kReplayCommunication) && it->dur_ns == dur_ns) {
      return static_cast<int32_t>(it - g.device.begin());
    }
  }
  return kNoNode;
}

// A collective instance every rank ran: its op on each, and the shortest
// measured length (the transfer).
struct Instance {
  std::vector<int32_t> op;  // per member
  int64_t transfer_ns = std::numeric_limits<int64_t>::max();
};

std::string RankName(const analysis::RankAnalysis& a, size_t member) {
  return a.info().rank ? fmt::format("rank {}", *a.info().rank)
                       : fmt::format("trace {}", member + 1);
}

// Why the ranks cannot be replayed as one job; empty when they can.
std::string WhyNotJoint(const std::vector<const analysis::RankAnalysis*>& ranks,
                        const ClusterAnalysis& cluster) {
  if (ranks.size() < 2) return "one rank: nothing to replay jointly";
  if (cluster.ranks.size() != ranks.size()) return "the cluster analysis holds other ranks";
  const auto n = static_cast<int64_t>(ranks.size());
  const std::optional<int64_t> world = ranks[0]->info().world_size;
  if (!world) {
    // Without a world size (torch_npu's exports have none), the ranks given
    // are the job when they are 0..n-1 and the transfers (Level1 tasks)
    // name no other: a Level0 profile gives no evidence either way.
    std::vector<bool> seen(ranks.size(), false);
    for (const analysis::RankAnalysis* a : ranks) {
      const std::optional<int64_t> r = a->info().rank;
      if (!r || *r < 0 || *r >= n || seen[*r]) {
        return "the traces give no world size and their ranks are not 0..n-1: whether every rank "
               "is here is unknown";
      }
      seen[*r] = true;
    }
    if (cluster.links.empty()) {
      return "the traces give no world size and no transfer between ranks (profiler Level1 "
             "records them): whether every rank is here is unknown";
    }
    for (const ClusterLink& link : cluster.links) {
      if (link.src_rank >= n || link.dst_rank >= n) {
        return fmt::format("a transfer of group {} names rank {}, not given", link.group,
                           std::max(link.src_rank, link.dst_rank));
      }
    }
  } else if (*world != n) {
    return fmt::format(
        "{} of the job's {} ranks given: a collective's last arrival may be a rank "
        "not given, so each rank is replayed alone",
        ranks.size(), *world);
  }
  for (size_t m = 0; m < ranks.size(); ++m) {
    if (!ranks[m]->replay_graph.built || !ranks[m]->replay.available) {
      return fmt::format(
          "{}: {}", RankName(*ranks[m], m),
          ranks[m]->replay.why_not.empty() ? "no replay graph kept" : ranks[m]->replay.why_not);
    }
    if (!cluster.ranks[m].clock_aligned()) {
      return fmt::format("{}: no collective puts it on the first rank's clock",
                         RankName(*ranks[m], m));
    }
  }
  return "";
}

struct Rounds {
  std::vector<analysis::JoinedRun> runs;  // per member, at the fixpoint
  int rounds = 0;
  bool settled = false;
};

// Replays every rank, each with the others' arrivals of the round before,
// until no collective's end moves.
Rounds Settle(const std::vector<const analysis::RankAnalysis*>& ranks,
              const ClusterAnalysis& cluster, const std::vector<Instance>& instances,
              const std::vector<analysis::WhatIf>& fixes) {
  const size_t n = ranks.size();
  // The transfer of an instance is as fast as its slowest member's link.
  double speedup = std::numeric_limits<double>::max();
  for (const analysis::WhatIf& w : fixes) speedup = std::min(speedup, w.communication_speedup);
  std::vector<std::vector<CollectiveJoin>> joins(n);
  for (size_t m = 0; m < n; ++m) {
    for (const Instance& inst : instances) {
      CollectiveJoin j;
      j.op = inst.op[m];
      j.transfer_ns = speedup == 1 ? inst.transfer_ns
                                   : static_cast<int64_t>(std::llround(inst.transfer_ns / speedup));
      joins[m].push_back(j);
    }
  }
  Rounds out;
  out.runs.resize(n);
  while (out.rounds < kMaxJointRounds) {
    ++out.rounds;
    for (size_t m = 0; m < n; ++m) {
      out.runs[m] = analysis::ReplayJoined(ranks[m]->replay_graph, ranks[m]->timeline.steps,
                                           fixes[m], joins[m]);
    }
    bool moved = false;
    for (size_t i = 0; i < instances.size(); ++i) {
      int64_t last = std::numeric_limits<int64_t>::min();
      for (size_t m = 0; m < n; ++m) {
        last = std::max(last, out.runs[m].arrival_ns[i] + cluster.ranks[m].clock_offset_ns);
      }
      for (size_t m = 0; m < n; ++m) {
        const int64_t floor = last - cluster.ranks[m].clock_offset_ns + joins[m][i].transfer_ns;
        if (floor != joins[m][i].end_floor_ns) {
          joins[m][i].end_floor_ns = floor;
          moved = true;
        }
      }
    }
    if (!moved) {
      out.settled = true;
      break;
    }
  }
  return out;
}

}  // namespace

bool JointReplay::within_model_error() const {
  return measured_step_ns <= 0 || std::abs(static_cast<double>(gain_ns_per_step())) <
                                      median_abs_error * static_cast<double>(measured_step_ns);
}

JointReplay ReplayJob(const std::vector<const analysis::RankAnalysis*>& ranks,
                      const ClusterAnalysis& cluster, const analysis::WhatIf& fix,
                      const std::vector<analysis::WhatIf>& fixes) {
  JointReplay out;
  out.what_if = fix.Describe();
  out.why_not = WhyNotJoint(ranks, cluster);
  if (!out.why_not.empty()) return out;
  const size_t n = ranks.size();
  if (fixes.size() != n) {
    out.why_not = fmt::format("{} fixes for {} ranks", fixes.size(), n);
    return out;
  }

  std::vector<Instance> instances;
  for (const ClusterCollective& c : cluster.collectives) {
    if (c.ranks.size() != n) {
      ++out.unjoined_collectives;
      continue;
    }
    Instance inst;
    inst.op.assign(n, kNoNode);
    for (const CollectiveRankTiming& t : c.ranks) {
      const int64_t dur_ns = t.end_ns - t.start_ns;
      inst.op[t.member] =
          FindCollectiveOp(ranks[t.member]->replay_graph,
                           t.start_ns - cluster.ranks[t.member].clock_offset_ns, dur_ns);
      inst.transfer_ns = std::min(inst.transfer_ns, dur_ns);
    }
    if (std::find(inst.op.begin(), inst.op.end(), kNoNode) != inst.op.end()) {
      ++out.unjoined_collectives;
      continue;
    }
    instances.push_back(std::move(inst));
  }
  out.joined_collectives = instances.size();

  const std::vector<analysis::WhatIf> unchanged(n);
  const Rounds base = Settle(ranks, cluster, instances, unchanged);
  const Rounds with_fix = Settle(ranks, cluster, instances, fixes);
  if (!base.settled || !with_fix.settled) {
    out.why_not = fmt::format("the collectives' ends did not settle in {} rounds", kMaxJointRounds);
    return out;
  }
  out.rounds = with_fix.rounds;

  std::vector<double> errors;
  for (size_t m = 0; m < n; ++m) {
    JointRank r;
    r.member = m;
    r.rank = ranks[m]->info().rank;
    r.fixed = !fixes[m].identity();
    r.check = analysis::CheckOfRun(ranks[m]->replay_graph, base.runs[m].run);
    if (!r.check.available) {
      out.why_not = fmt::format("{}: {}", RankName(*ranks[m], m), r.check.why_not);
      return out;
    }
    r.prediction = analysis::PredictionOf(r.check, fixes[m], with_fix.runs[m].run);
    r.prediction.what_if = out.what_if;
    for (const analysis::ReplayedStep& s : r.check.run.steps) errors.push_back(std::abs(s.error()));
    out.measured_step_ns = std::max(out.measured_step_ns, r.check.run.measured_mean_ns);
    out.predicted_step_ns =
        std::max(out.predicted_step_ns, r.prediction.available ? r.prediction.predicted_step_ns
                                                               : r.check.run.measured_mean_ns);
    out.ranks.push_back(std::move(r));
  }
  out.max_abs_error = *std::max_element(errors.begin(), errors.end());
  out.median_abs_error = MedianInPlace(errors);
  out.available = true;
  return out;
}

}  // namespace perfdx::cluster
