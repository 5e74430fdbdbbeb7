#include "perfdx/advisor/cluster_advisor.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "perfdx/advisor/advisor.h"
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
    const auto min = std::min_element(comms.begin(), comms.end(),
                                      [](const auto& a, const auto& b) { return a.second < b.second; });
    int64_t max_wait = 0;
    for (const auto& [rank, comm] : comms) max_wait = std::max(max_wait, comm - min->second);
    ++late_count[min->first];
    wait_caused[min->first] += max_wait;
  }
  Finding f;
  if (steps == 0) return f;
  const size_t late = static_cast<size_t>(std::max_element(wait_caused.begin(), wait_caused.end()) - wait_caused.begin());
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
  const std::string name = a.trace->info.rank ? fmt::format("Rank {}", *a.trace->info.rank) : a.trace->info.path;
  f.title = fmt::format("{} is late to collectives in {} of {} steps: the other ranks wait up to {} per step for it "
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
    f.evidence.contributors.push_back({info.rank ? fmt::format("rank {}", *info.rank) : info.path,
                                       n ? comm / n : 0, 0});
  }
  // A late rank does more work before the collective, or does it slower:
  // uneven input, its own data loading, a busy or unpinned host.
  f.recommendations = RecommendationsFor("dataloader_parallel");
  for (Recommendation& r : RecommendationsFor("cpu_binding")) f.recommendations.push_back(std::move(r));
  f.rank = a.trace->info.rank;
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
      if (s.device.communication_ns > 0) by_step[s.window.id].emplace_back(r, s.device.communication_ns);
    }
  }
  Finding late = LateRank(ranks, by_step, thresholds);
  if (!late.rule.empty()) out.push_back(std::move(late));
  return out;
}

}  // namespace perfdx::advisor
