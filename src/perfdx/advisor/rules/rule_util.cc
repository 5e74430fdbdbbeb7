#include "perfdx/advisor/rules/rule_util.h"

#include <algorithm>
#include <tuple>

#include <fmt/format.h>

#include "perfdx/advisor/knobs.h"

namespace perfdx::advisor {
namespace {

constexpr double kHighPriorityRatio = 0.05;    // ANALYZER_HIGH_PRIORITY_TIME_RATIO
constexpr double kMediumPriorityRatio = 0.03;  // ANALYZER_MEDIUM_PRIORITY_TIME_RATIO

}  // namespace

std::string Pct(double share) {
  return fmt::format("{:.1f}%", share * 100);
}

std::string Ms(int64_t ns) {
  const double ms = static_cast<double>(ns) / 1e6;
  if (ms >= 10'000) return fmt::format("{:.1f} s", ms / 1000);
  return ms >= 100 ? fmt::format("{:.0f} ms", ms)
         : ms >= 1 ? fmt::format("{:.1f} ms", ms)
                   : fmt::format("{:.2f} ms", ms);
}

bool AllReduceDominates(const analysis::CollectiveSummary& collectives) {
  int64_t all_reduce_ns = 0;
  int64_t total_ns = 0;
  for (const analysis::CollectiveStats& s : collectives.collectives) {
    total_ns += s.dur_ns;
    if (s.type == analysis::CollectiveType::kAllReduce) all_reduce_ns += s.dur_ns;
  }
  return total_ns > 0 && 2 * all_reduce_ns >= total_ns;
}

std::string RankLabel(const analysis::RankAnalysis& a) {
  const model::RankInfo& info = a.info();
  return info.rank ? fmt::format("rank {}", *info.rank) : info.path;
}

std::string RankLabel(const cluster::RankSummary& s) {
  return s.rank ? fmt::format("rank {}", *s.rank) : s.path;
}

std::string ShortName(const std::string& name) {
  constexpr size_t kMaxNameChars = 80;
  if (name.size() <= kMaxNameChars) return name;
  return name.substr(0, kMaxNameChars - 3) + "...";
}

void KeepLargest(std::vector<Contributor>* contributors, size_t max) {
  std::sort(contributors->begin(), contributors->end(),
            [](const Contributor& a, const Contributor& b) {
              return std::tie(b.ns, b.share, a.name) < std::tie(a.ns, a.share, b.name);
            });
  if (contributors->size() > max) contributors->resize(max);
}

int64_t PerStep(const RuleContext& c, int64_t total_ns) {
  return total_ns / static_cast<int64_t>(c.step_count());
}

std::string Mb(int64_t bytes) {
  const double b = static_cast<double>(bytes);
  if (b >= 1e6) return fmt::format("{:.1f} MB", b / 1e6);
  if (b >= 1e3) return fmt::format("{:.1f} KB", b / 1e3);
  return fmt::format("{} B", bytes);
}

void AppendFixes(std::vector<Recommendation>* out,
                 std::initializer_list<std::string_view> fix_ids) {
  for (std::string_view fix : fix_ids) {
    for (Recommendation& r : RecommendationsFor(fix)) out->push_back(std::move(r));
  }
}

Severity PrioritySeverity(double gain_share) {
  if (gain_share >= kHighPriorityRatio) return Severity::kCritical;
  if (gain_share >= kMediumPriorityRatio) return Severity::kWarning;
  return Severity::kInfo;
}

void FlaggedTasks::Add(std::string_view op, int64_t dur_ns, double saved) {
  ++count;
  ns += dur_ns;
  longest_ns = std::max(longest_ns, dur_ns);
  saved_ns += saved;
  auto it = by_op.find(op);
  if (it == by_op.end()) it = by_op.emplace(std::string(op), Contributor{std::string(op)}).first;
  it->second.ns += dur_ns;
  it->second.share += saved;
}

std::vector<Contributor> FlaggedTasks::LargestContributors(size_t max) const {
  std::vector<Contributor> out;
  out.reserve(by_op.size());
  for (const auto& [op, x] : by_op) {
    out.push_back({op, x.ns, saved_ns > 0 ? x.share / saved_ns : 0});
  }
  KeepLargest(&out, max);
  return out;
}

}  // namespace perfdx::advisor
