// The late rank (late_rank) and msprof-analyze's slow rank (slow_rank):
// Computing, Communication or Free differ across ranks by more than 5% of
// the mean step. In a data-parallel collective every rank waits for the last
// to arrive, so the late rank shows the *least* communication time and the
// others show the wait (msprof-analyze's slow-rank analysis reads it the
// same way: the rank with the shortest communication time is the slow one).
#include <algorithm>
#include <limits>
#include <map>
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
  const double share = ShareOf(wait_per_step, GainStepNs(a));
  const Band& band = t.late_rank_wait_share;
  if (advisor::Evaluate(band, share) == HealthStatus::kHealthy) return f;

  f.rule = "late_rank";
  f.category = Category::kCommunication;
  f.gain = {wait_per_step, share};
  f.severity = SeverityFor(band, share, share);
  std::string name = RankLabel(a);
  if (a.info().rank) name[0] = 'R';  // starts the title
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
    f.evidence.contributors.push_back({RankLabel(*ranks[r]), n ? comm / n : 0, 0});
  }
  // A late rank does more work before the collective, or does it slower:
  // uneven input, its own data loading, a busy or unpinned host.
  AppendFixes(&f.recommendations, {"dataloader_parallel", "cpu_binding", "host_tuning"});
  f.rank = a.info().rank;
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
                        RankLabel(a), communication ? "least" : "most", kDimensions[worst].label);
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
    f.evidence.contributors.push_back({RankLabel(*r), n ? v / n : 0, 0});
  }
  if (!communication)
    AppendFixes(&f.recommendations, {"dataloader_parallel", "cpu_binding", "host_tuning"});
  f.rank = a.info().rank;
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
    const std::vector<const analysis::RankAnalysis*>& ranks = c.ranks;
    if (ranks.size() < 2) return;
    CommByStep by_step;
    for (size_t r = 0; r < ranks.size(); ++r) {
      for (const analysis::StepAnalysis& s : ranks[r]->steps) {
        if (s.device.communication_ns > 0)
          by_step[s.window.id].emplace_back(r, s.device.communication_ns);
      }
    }
    const SlowRankGaps gaps = SlowRankGapsOf(ranks);
    Finding late = LateRank(ranks, by_step, c.thresholds);
    if (!late.rule.empty()) {
      if (gaps.valid) AddGapDetails(gaps, &late);
      out->push_back(std::move(late));
    } else {
      Finding slow = SlowRank(ranks, gaps, c.thresholds);
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
