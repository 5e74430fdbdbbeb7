#include "perfdx/advisor/cluster_advisor.h"

#include <algorithm>
#include <limits>
#include <map>
#include <string>

#include <fmt/format.h>

#include "perfdx/advisor/advisor.h"
#include "perfdx/advisor/fix_targets.h"
#include "perfdx/advisor/knobs.h"
#include "perfdx/advisor/rules/rule_util.h"

namespace perfdx::advisor {
namespace {

// Per step id, each rank's communication time (from device_ns).
using CommByStep = std::map<int64_t, std::vector<std::pair<size_t, int64_t>>>;

Finding LateRank(const std::vector<const analysis::RankAnalysis*>& ranks, const CommByStep& by_step,
                 const Thresholds& t) {
  // For each step: the rank with the least communication is the one the
  // others waited for; the wait is everyone else's excess over it.
  std::vector<int64_t> late_count(ranks.size(), 0);
  std::vector<int64_t> wait_caused(ranks.size(), 0);
  int64_t steps = 0;
  for (const auto& [step, comms] : by_step) {
    if (comms.size() < 2) continue;
    ++steps;
    const auto min = std::min_element(comms.begin(), comms.end(), [](const auto& a, const auto& b) {
      return a.second < b.second;
    });
    int64_t max_wait = 0;
    for (const auto& [rank, comm] : comms) max_wait = std::max(max_wait, comm - min->second);
    ++late_count[min->first];
    wait_caused[min->first] += max_wait;
  }
  Finding f;
  if (steps == 0) return f;
  const size_t late = static_cast<size_t>(std::max_element(wait_caused.begin(), wait_caused.end()) -
                                          wait_caused.begin());
  const analysis::RankAnalysis& a = *ranks[late];
  const int64_t wait_per_step = wait_caused[late] / steps;
  const int64_t step_ns = a.step_time.mean_ns > 0 ? a.step_time.mean_ns : 1;
  const double share = static_cast<double>(wait_per_step) / static_cast<double>(step_ns);
  const Band& band = t.late_rank_wait_share;
  if (advisor::Evaluate(band, share) == HealthStatus::kHealthy) return f;

  f.rule = "late_rank";
  f.category = Category::kCommunication;
  f.gain = {wait_per_step, share};
  f.severity = SeverityFor(band, share, share);
  const std::string name =
      a.trace->info.rank ? fmt::format("Rank {}", *a.trace->info.rank) : a.trace->info.path;
  f.title = fmt::format(
      "{} is late to collectives in {} of {} steps: the other ranks wait up to {} per step for it "
      "({} of step time)",
      name, late_count[late], steps, Ms(wait_per_step), Pct(share));
  f.evidence.metric = "collective_wait_share";
  f.evidence.value = share;
  f.evidence.threshold = band.healthy;
  f.evidence.unit = "share";
  for (size_t r = 0; r < ranks.size(); ++r) {
    int64_t comm = 0;
    int64_t n = 0;
    for (const analysis::StepAnalysis& s : ranks[r]->steps) comm += s.device.communication_ns, ++n;
    const auto& info = ranks[r]->trace->info;
    f.evidence.contributors.push_back(
        {info.rank ? fmt::format("rank {}", *info.rank) : info.path, n ? comm / n : 0, 0});
  }
  // A late rank does more work before the collective, or does it slower:
  // uneven input, its own data loading, a busy or unpinned host.
  f.recommendations = RecommendationsFor("dataloader_parallel");
  for (Recommendation& r : RecommendationsFor("cpu_binding"))
    f.recommendations.push_back(std::move(r));
  f.rank = a.trace->info.rank;
  return f;
}

// msprof-analyze's slow-rank test (../shared/docs/ascend-advisor_rules.md
// row 1, ascend-cluster.md §6a; SlowRankAnalyzer): over every (step, rank),
// for each of Computing, Communication (not overlapped) and Free, the gap
// (max - min) / the mean of the per-(step, rank) totals Computing +
// Communication + Free. perfdx computes the three times itself from each
// rank's tasks (analysis/device_time.h, step_trace_time.csv's semantics).
struct Dimension {
  std::string_view name;   // msprof's
  std::string_view key;    // in the evidence details
  std::string_view label;  // in titles
  int64_t analysis::DeviceTime::*member;
};
constexpr Dimension kDimensions[] = {
    {"Computing", "computing", "computing", &analysis::DeviceTime::computing_ns},
    {"Communication", "communication", "exposed communication",
     &analysis::DeviceTime::communication_not_overlapped_ns},
    {"Free", "free", "free", &analysis::DeviceTime::free_ns},
};

struct DimensionGap {
  int64_t max_ns = 0, min_ns = 0;
  size_t max_rank = 0, min_rank = 0;
  double ratio = 0;
};
struct SlowRankGaps {
  double mean_total_ns = 0;
  DimensionGap dims[3];
  bool valid = false;
};

SlowRankGaps SlowRankGapsOf(const std::vector<const analysis::RankAnalysis*>& ranks) {
  SlowRankGaps g;
  double total = 0;
  size_t entries = 0;
  for (size_t d = 0; d < 3; ++d) {
    g.dims[d].max_ns = std::numeric_limits<int64_t>::min();
    g.dims[d].min_ns = std::numeric_limits<int64_t>::max();
  }
  for (size_t r = 0; r < ranks.size(); ++r) {
    for (const analysis::StepAnalysis& s : ranks[r]->steps) {
      ++entries;
      for (size_t d = 0; d < 3; ++d) {
        const int64_t v = s.device.*(kDimensions[d].member);
        total += static_cast<double>(v);
        DimensionGap& dim = g.dims[d];
        if (v > dim.max_ns) dim.max_ns = v, dim.max_rank = r;
        if (v < dim.min_ns) dim.min_ns = v, dim.min_rank = r;
      }
    }
  }
  if (entries < 2 || total <= 0) return g;
  g.valid = true;
  g.mean_total_ns = total / static_cast<double>(entries);
  for (DimensionGap& dim : g.dims) {
    dim.ratio = static_cast<double>(dim.max_ns - dim.min_ns) / g.mean_total_ns;
  }
  return g;
}

std::string RankName(const analysis::RankAnalysis& a) {
  const auto& info = a.trace->info;
  return info.rank ? fmt::format("rank {}", *info.rank) : info.path;
}

void AddGapDetails(const SlowRankGaps& g, Finding* f) {
  for (size_t d = 0; d < 3; ++d) {
    f->evidence.details.emplace_back(fmt::format("slow_rank_{}_gap_ratio", kDimensions[d].key),
                                     g.dims[d].ratio);
  }
  f->evidence.details.emplace_back("slow_rank_mean_total_ns", g.mean_total_ns);
}

// A slow rank that is not (only) late to the collectives: its Computing or
// Free time — or, without a late rank, its exposed communication — differs
// from the others' by more than slow_rank_gap_ratio of the mean step.
// The rank named is the one with the most of that time (for Communication:
// the least, the one the others wait for). Gain: the gap of the worst
// dimension — the what-if in which the slowest (step, rank) took as long in
// it as the fastest; an upper bound on what the synchronized step saves.
Finding SlowRank(const std::vector<const analysis::RankAnalysis*>& ranks, const SlowRankGaps& g,
                 const Thresholds& t) {
  Finding f;
  size_t worst = 0;
  for (size_t d = 1; d < 3; ++d) {
    if (g.dims[d].ratio > g.dims[worst].ratio) worst = d;
  }
  // msprof: an issue when the ratio exceeds the threshold.
  if (!g.valid || g.dims[worst].ratio <= t.slow_rank_gap_ratio) return f;
  const DimensionGap& dim = g.dims[worst];
  const bool communication = kDimensions[worst].name == "Communication";
  const analysis::RankAnalysis& a = *ranks[communication ? dim.min_rank : dim.max_rank];
  f.rule = "slow_rank";
  f.category = Category::kCommunication;
  f.gain.ns_per_step = dim.max_ns - dim.min_ns;
  f.gain.share = dim.ratio;
  f.severity = SeverityFor(t.late_rank_wait_share, dim.ratio, dim.ratio);
  std::string dims;
  for (size_t d = 0; d < 3; ++d) {
    if (g.dims[d].ratio <= t.slow_rank_gap_ratio) continue;
    if (!dims.empty()) dims += ", ";
    dims += fmt::format("{} by {} ({})", kDimensions[d].name,
                        Ms(g.dims[d].max_ns - g.dims[d].min_ns), Pct(g.dims[d].ratio));
  }
  f.title = fmt::format("Ranks differ in {} of the mean step; {} has the {} {} time", dims,
                        RankName(a), communication ? "least" : "most", kDimensions[worst].label);
  f.evidence.metric = "slow_rank_gap_ratio";
  f.evidence.value = dim.ratio;
  f.evidence.threshold = t.slow_rank_gap_ratio;
  f.evidence.unit = "share";
  AddGapDetails(g, &f);
  for (const analysis::RankAnalysis* r : ranks) {
    int64_t v = 0;
    int64_t n = 0;
    for (const analysis::StepAnalysis& s : r->steps) {
      v += s.device.*(kDimensions[worst].member);
      ++n;
    }
    f.evidence.contributors.push_back({RankName(*r), n ? v / n : 0, 0});
  }
  if (!communication) AppendFixes(&f.recommendations, {"dataloader_parallel", "cpu_binding"});
  f.rank = a.trace->info.rank;
  return f;
}

// msprof-analyze's slow link (row 2, ascend-cluster.md §7): per (step,
// rank), SDMA and RDMA bandwidth = sum of transit bytes / sum of transit
// time over all collectives (perfdx's own per-collective transit, from the
// HCCL tasks: analysis/collectives.h); a slow link when (max - min) / mean
// >= slow_link_gap_ratio, naming the rank with the lowest bandwidth (the
// one msprof drills into). Gain: that rank's transit time per step x (1 -
// min / max) — the what-if in which it moved its bytes at the fastest
// rank's bandwidth; an upper bound (not all transit time is exposed). No
// fix from the catalogue: a slow link is a hardware or network matter.
Finding SlowLink(const std::vector<const analysis::RankAnalysis*>& ranks, const Thresholds& t) {
  Finding f;
  struct Entry {
    size_t rank = 0;
    int64_t step = -1;  // -1: collectives outside every step
    int64_t bytes = 0, ns = 0;
    double gbps() const {
      return ns > 0 ? static_cast<double>(bytes) / static_cast<double>(ns) : 0;
    }
  };
  double worst_ratio = 0;
  std::string title;
  for (std::string_view link : {"SDMA", "RDMA"}) {
    std::map<std::pair<int64_t, size_t>, Entry> entries;  // (step, rank)
    for (size_t r = 0; r < ranks.size(); ++r) {
      for (const analysis::CollectiveStats& col : ranks[r]->collectives.collectives) {
        const analysis::TransportTransit* tr = col.Transport(link);
        if (tr == nullptr || tr->transit_ns <= 0) continue;
        Entry& e = entries[{col.step_id.value_or(-1), r}];
        e.rank = r;
        e.step = col.step_id.value_or(-1);
        e.bytes += tr->transit_bytes;
        e.ns += tr->transit_ns;
      }
    }
    if (entries.size() < 2) continue;
    double sum = 0;
    const Entry* lo = nullptr;
    const Entry* hi = nullptr;
    for (const auto& [key, e] : entries) {
      sum += e.gbps();
      if (lo == nullptr || e.gbps() < lo->gbps()) lo = &e;
      if (hi == nullptr || e.gbps() > hi->gbps()) hi = &e;
    }
    const double mean = sum / static_cast<double>(entries.size());
    const double ratio = mean > 0 ? (hi->gbps() - lo->gbps()) / mean : 0;
    const std::string key = std::string(link) == "SDMA" ? "sdma" : "rdma";
    f.evidence.details.emplace_back(key + "_mean_gbps", mean);
    f.evidence.details.emplace_back(key + "_max_gbps", hi->gbps());
    f.evidence.details.emplace_back(key + "_min_gbps", lo->gbps());
    f.evidence.details.emplace_back(key + "_gap_ratio", ratio);
    if (ratio < t.slow_link_gap_ratio) continue;
    if (!title.empty()) title += "; ";
    title += fmt::format(
        "{} bandwidth ranges from {:.1f} GB/s ({}) to {:.1f} GB/s (mean {:.1f}, "
        "{} apart)",
        link, lo->gbps(), RankName(*ranks[lo->rank]), hi->gbps(), mean, Pct(ratio));
    if (ratio > worst_ratio) {
      worst_ratio = ratio;
      const analysis::RankAnalysis& a = *ranks[lo->rank];
      // An entry is one step's transit, or the whole trace's without steps.
      const int64_t steps =
          lo->step >= 0 ? 1 : std::max<int64_t>(1, static_cast<int64_t>(a.steps.size()));
      const double saved = static_cast<double>(lo->ns) * (1.0 - lo->gbps() / hi->gbps());
      f.gain.ns_per_step = static_cast<int64_t>(saved) / steps;
      const int64_t step_ns = a.step_time.mean_ns > 0 ? a.step_time.mean_ns : a.window_ns;
      f.gain.share =
          step_ns > 0 ? static_cast<double>(f.gain.ns_per_step) / static_cast<double>(step_ns) : 0;
      f.rank = a.trace->info.rank;
    }
  }
  if (worst_ratio <= 0) return Finding{};
  f.rule = "slow_link";
  f.category = Category::kCommunication;
  f.severity = PrioritySeverity(f.gain.share);
  f.title = title;
  f.evidence.metric = "link_bandwidth_gap_ratio";
  f.evidence.value = worst_ratio;
  f.evidence.threshold = t.slow_link_gap_ratio;
  f.evidence.unit = "share";
  return f;
}

}  // namespace

std::vector<Finding> RunClusterAdvisor(const std::vector<const analysis::RankAnalysis*>& ranks,
                                       const Thresholds& thresholds) {
  std::vector<Finding> out;
  if (ranks.size() < 2) return out;
  CommByStep by_step;
  for (size_t r = 0; r < ranks.size(); ++r) {
    for (const analysis::StepAnalysis& s : ranks[r]->steps) {
      if (s.device.communication_ns > 0)
        by_step[s.window.id].emplace_back(r, s.device.communication_ns);
    }
  }
  // One finding per cause: a rank the others wait for in the collectives is
  // msprof's slow rank seen from the communication side, so when late_rank
  // fires it carries the slow-rank gaps and no slow_rank finding is added.
  const SlowRankGaps gaps = SlowRankGapsOf(ranks);
  Finding late = LateRank(ranks, by_step, thresholds);
  if (!late.rule.empty()) {
    if (gaps.valid) AddGapDetails(gaps, &late);
    out.push_back(std::move(late));
  } else {
    Finding slow = SlowRank(ranks, gaps, thresholds);
    if (!slow.rule.empty()) out.push_back(std::move(slow));
  }
  Finding link = SlowLink(ranks, thresholds);
  if (!link.rule.empty()) out.push_back(std::move(link));
  // The same filter as a rank's findings, with the evidence of the rank the
  // finding names: its data-loading stalls and its stalled launches.
  for (Finding& f : out) {
    const analysis::RankAnalysis* named = nullptr;
    for (const analysis::RankAnalysis* r : ranks) {
      if (r->trace->info.rank == f.rank) named = r;
    }
    if (named == nullptr) {  // no rank to read the framework from: no fix
      f.recommendations.clear();
      continue;
    }
    if (f.rule == "late_rank" || f.rule == "slow_rank") {
      f.host_cause = true;
      if (advisor::Evaluate(thresholds.dataloader_stall_share,
                            named->summary.dataloader_stall_share) != HealthStatus::kHealthy) {
        AddTag(&f, "data_loader_wait");
      }
      if (named->gaps.stalled_launch_steps.size() >= 2) AddTag(&f, "host_contention");
    }
    FinishClusterFinding(*named, &f);
    if (f.path.empty()) f.path = named->trace->info.path;
  }
  return out;
}

}  // namespace perfdx::advisor
