// The late rank (late_rank) and msprof-analyze's slow rank (slow_rank):
// Computing, Communication or Free differ across ranks by more than 5% of
// the mean step. In a data-parallel collective every rank waits for the last
// to arrive, so the late rank shows the *least* communication time and the
// others show the wait (msprof-analyze's slow-rank analysis reads it the
// same way: the rank with the shortest communication time is the slow one).
// Either finding names the phase of the rank's step that is longer than the
// other ranks' (cluster/stragglers.h) and gives the fix for that phase only.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "perfdx/advisor/advisor.h"
#include "perfdx/advisor/knobs.h"
#include "perfdx/advisor/rules/rule_util.h"
#include "perfdx/advisor/rules/rules.h"

namespace perfdx::advisor {
namespace {

using cluster::ClusterRank;
using cluster::RankSummary;
using cluster::StepPhase;

// The ranks listed one by one in a finding's contributors; beyond, only the
// rank named (a 2,048-rank job lists one line, not 2,048).
constexpr size_t kListedRanks = 16;

// What the rank's longer phase says, the fixes for it and the evidence.
void AddPhase(const ClusterRank& rank, const RankSummary& summary, Finding* f) {
  const cluster::RankStanding& s = rank.standing;
  for (const cluster::PhaseTime& p : s.phases) {
    const std::string name(cluster::StepPhaseName(p.phase));
    f->evidence.details.emplace_back("phase_" + name + "_ns", static_cast<double>(p.rank_ns));
    f->evidence.details.emplace_back("phase_" + name + "_others_median_ns",
                                     static_cast<double>(p.others_ns));
  }
  if (!s.phase) {
    f->title +=
        "; none of its phases (data loading, host, compute, transit) is longer than the "
        "other ranks'";
    return;
  }
  const cluster::PhaseTime& p = s.phases[static_cast<size_t>(*s.phase)];
  const std::string more = Ms(p.excess_ns());
  switch (*s.phase) {
    case StepPhase::kDataLoading:
      f->title += fmt::format(
          "; its data loading takes {} more per step than the other ranks' median ({} vs {})", more,
          Ms(p.rank_ns), Ms(p.others_ns));
      f->category = Category::kDataPipeline;
      f->host_cause = true;
      AddTag(f, "data_loader_wait");
      if (summary.dataloader_single_process) AddTag(f, "dataloader_single_process");
      if (summary.dataloader_workers) AddTag(f, "dataloader_workers");
      AppendFixes(&f->recommendations, {"dataloader_parallel", "dataloader_more_workers"});
      break;
    case StepPhase::kHost:
      // Device idle that is not data loading: the host launches late.
      f->title += fmt::format(
          "; its device idles {} longer per step than the other ranks' median ({} vs {}) while "
          "its host launches the work",
          more, Ms(p.rank_ns), Ms(p.others_ns));
      f->category = Category::kScheduling;
      f->host_cause = true;
      if (summary.stalled_launch_steps >= 2) {
        AddTag(f, "host_contention");
        AppendFixes(&f->recommendations, {"cpu_binding", "host_tuning"});
      }
      break;
    case StepPhase::kCompute:
      f->title += fmt::format(
          "; its device computes {} more per step than the other ranks' median ({} vs {})", more,
          Ms(p.rank_ns), Ms(p.others_ns));
      if (s.kernel) {
        const cluster::KernelExcess& k = *s.kernel;
        f->evidence.details.emplace_back("kernel_ns", static_cast<double>(k.rank_ns));
        f->evidence.details.emplace_back("kernel_others_median_ns",
                                         static_cast<double>(k.others_ns));
        f->evidence.details.emplace_back("kernel_launches", k.rank_count);
        f->evidence.details.emplace_back("kernel_others_median_launches", k.others_count);
        // More launches is more work given to this rank. The same launches
        // taking longer is either the device or larger inputs per launch
        // (uneven shards): the trace does not tell which.
        const bool same_launches = std::abs(k.rank_count - k.others_count) <= 0.01 * k.others_count;
        f->title += fmt::format(
            ", most in {} ({} vs {} per step, {:.0f} vs {:.0f} launches): {}", ShortName(k.name),
            Ms(k.rank_ns), Ms(k.others_ns), k.rank_count, k.others_count,
            same_launches
                ? "as many launches take longer; compare the inputs' shapes across ranks "
                  "(record_shapes) and, if they match, this device's clocks and temperature"
                : "this rank launches more of it: it is given more work (uneven input across "
                  "ranks)");
        f->evidence.details.emplace_back("kernel_same_launches", same_launches ? 1.0 : 0.0);
        f->rests_on.push_back("kernel:" + k.name);
      }
      f->category = Category::kComputeUtilization;
      break;
    case StepPhase::kTransit:
      f->title += fmt::format(
          "; its transfers take {} longer per step than the other ranks' median ({} vs {}): see "
          "its links",
          more, Ms(p.rank_ns), Ms(p.others_ns));
      break;
  }
}

// Each rank's mean per-step value of `member` (all ranks, or the named one
// alone in a large job).
template <typename Member>
void AddContributors(const std::vector<const RankSummary*>& ranks, size_t named, Member member,
                     Finding* f) {
  for (size_t r = 0; r < ranks.size(); ++r) {
    if (ranks.size() > kListedRanks && r != named) continue;
    int64_t v = 0;
    int64_t n = 0;
    for (const cluster::SummaryStep& s : ranks[r]->steps) v += s.*member, ++n;
    f->evidence.contributors.push_back({RankLabel(*ranks[r]), n ? v / n : 0, 0});
  }
}

Finding LateRank(const JobRuleContext& c) {
  Finding f;
  if (c.cluster.slow_ranks.empty()) return f;
  const size_t late = c.cluster.slow_ranks.front();
  const ClusterRank& rank = c.cluster.ranks[late];
  const RankSummary& a = *c.ranks[late];
  const int64_t wait_per_step = rank.standing.wait_caused_ns;
  const double share = ShareOf(wait_per_step, a.gain_step_ns);
  const Band& band = c.thresholds.late_rank_wait_share;
  if (advisor::Evaluate(band, share) == HealthStatus::kHealthy) return f;

  f.rule = "late_rank";
  f.category = Category::kCommunication;
  f.gain = {wait_per_step, share};
  f.severity = SeverityFor(band, share, share);
  std::string name = RankLabel(a);
  if (a.rank) name[0] = 'R';  // starts the title
  f.title = fmt::format(
      "{} is late to collectives in {} of {} steps: the other ranks wait up to {} per step for it "
      "({} of step time)",
      name, rank.standing.late_steps, rank.standing.steps, Ms(wait_per_step), Pct(share));
  f.evidence.metric = "collective_wait_share";
  f.evidence.value = share;
  f.evidence.threshold = band.healthy;
  f.evidence.unit = "share";
  AddContributors(c.ranks, late, &cluster::SummaryStep::communication_ns, &f);
  AddPhase(rank, a, &f);
  f.rank = a.rank;
  f.path = a.path;
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
  int64_t cluster::SummaryStep::*member;
};
constexpr Dimension kDimensions[] = {
    {"Computing", "computing", "computing", &cluster::SummaryStep::computing_ns},
    {"Communication", "communication", "exposed communication",
     &cluster::SummaryStep::communication_not_overlapped_ns},
    {"Free", "free", "free", &cluster::SummaryStep::free_ns},
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

SlowRankGaps SlowRankGapsOf(const std::vector<const RankSummary*>& ranks) {
  SlowRankGaps g;
  double total = 0;
  size_t entries = 0;
  for (size_t d = 0; d < 3; ++d) {
    g.dims[d].max_ns = std::numeric_limits<int64_t>::min();
    g.dims[d].min_ns = std::numeric_limits<int64_t>::max();
  }
  for (size_t r = 0; r < ranks.size(); ++r) {
    for (const cluster::SummaryStep& s : ranks[r]->steps) {
      ++entries;
      for (size_t d = 0; d < 3; ++d) {
        const int64_t v = s.*(kDimensions[d].member);
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
Finding SlowRank(const JobRuleContext& c, const SlowRankGaps& g) {
  Finding f;
  size_t worst = 0;
  for (size_t d = 1; d < 3; ++d) {
    if (g.dims[d].ratio > g.dims[worst].ratio) worst = d;
  }
  // msprof: an issue when the ratio exceeds the threshold.
  if (!g.valid || g.dims[worst].ratio <= c.thresholds.slow_rank_gap_ratio) return f;
  const DimensionGap& dim = g.dims[worst];
  const bool communication = kDimensions[worst].name == "Communication";
  const size_t named = communication ? dim.min_rank : dim.max_rank;
  const RankSummary& a = *c.ranks[named];
  f.rule = "slow_rank";
  f.category = Category::kCommunication;
  f.gain.ns_per_step = dim.max_ns - dim.min_ns;
  f.gain.share = dim.ratio;
  f.severity = SeverityFor(c.thresholds.late_rank_wait_share, dim.ratio, dim.ratio);
  std::string dims;
  for (size_t d = 0; d < 3; ++d) {
    if (g.dims[d].ratio <= c.thresholds.slow_rank_gap_ratio) continue;
    if (!dims.empty()) dims += ", ";
    dims += fmt::format("{} by {} ({})", kDimensions[d].name,
                        Ms(g.dims[d].max_ns - g.dims[d].min_ns), Pct(g.dims[d].ratio));
  }
  f.title = fmt::format("Ranks differ in {} of the mean step; {} has the {} {} time", dims,
                        RankLabel(a), communication ? "least" : "most", kDimensions[worst].label);
  f.evidence.metric = "slow_rank_gap_ratio";
  f.evidence.value = dim.ratio;
  f.evidence.threshold = c.thresholds.slow_rank_gap_ratio;
  f.evidence.unit = "share";
  AddGapDetails(g, &f);
  AddContributors(c.ranks, named, kDimensions[worst].member, &f);
  AddPhase(c.cluster.ranks[named], a, &f);
  f.rank = a.rank;
  f.path = a.path;
  return f;
}

// late_rank, or slow_rank when no rank is late: one finding per cause. A
// rank the others wait for in the collectives is msprof's slow rank seen
// from the communication side, so when late_rank fires it carries the
// slow-rank gaps and no slow_rank finding is added.
class LateOrSlowRankRule final : public JobRule {
 public:
  std::string_view id() const override { return "late_rank"; }

  void Evaluate(const JobRuleContext& c, std::vector<Finding>* out) const override {
    if (c.ranks.size() < 2) return;
    const SlowRankGaps gaps = SlowRankGapsOf(c.ranks);
    Finding late = LateRank(c);
    if (!late.rule.empty()) {
      if (gaps.valid) AddGapDetails(gaps, &late);
      out->push_back(std::move(late));
    } else {
      Finding slow = SlowRank(c, gaps);
      if (!slow.rule.empty()) out->push_back(std::move(slow));
    }
  }
};

}  // namespace

const JobRule& LateOrSlowRank() {
  static const LateOrSlowRankRule rule;
  return rule;
}

}  // namespace perfdx::advisor
