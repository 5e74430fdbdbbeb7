#include "perfdx/advisor/rules/rule_util.h"

#include <algorithm>
#include <set>
#include <tuple>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "perfdx/advisor/knobs.h"
#include "perfdx/base/saturating.h"
#include "perfdx/base/utf8.h"

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
    base::AddSaturating(total_ns, s.dur_ns);
    if (s.type == analysis::CollectiveType::kAllReduce)
      base::AddSaturating(all_reduce_ns, s.dur_ns);
  }
  return total_ns > 0 && all_reduce_ns >= total_ns - all_reduce_ns;
}

bool CauseHasItsOwnRule(const std::string& kind) {
  return kind == "data_loader" || kind == "synchronization" || kind == "launch_overhead" ||
         kind == "stalled_call";
}

bool IsReportedRecurringGroup(const RuleContext& c, const analysis::GapGroup& g) {
  const std::string& kind = g.cause.kind;
  if (CauseHasItsOwnRule(kind)) return false;
  if (static_cast<double>(g.mean_dur_ns) < c.thresholds.min_recurring_gap_ns) return false;
  if (advisor::Evaluate(c.thresholds.recurring_gap_share, ShareOfStep(c, g.ns_per_step)) ==
      HealthStatus::kHealthy)
    return false;
  // The long gap itself must recur: one 19 ms pause (the scheduler) among
  // 0.1 ms gaps of the same cause lifts the group's mean past 1 ms, yet
  // nothing long happens in most steps (issue #10: no warning on a healthy
  // run).
  std::set<int64_t> long_steps;
  for (const analysis::Gap& gap : c.analysis.gaps.gaps) {
    if (gap.cause.kind == kind && gap.cause.name == g.cause.name && gap.position == g.position &&
        static_cast<double>(gap.dur_ns) >= c.thresholds.min_recurring_gap_ns) {
      long_steps.insert(gap.step);
    }
  }
  return long_steps.size() >= 2 && 2 * long_steps.size() > c.analysis.steps.size();
}

std::vector<GapKey> ReportedRecurringGroups(const RuleContext& c) {
  std::vector<GapKey> out;
  for (const analysis::GapGroup& g : c.analysis.gaps.recurring) {
    if (IsReportedRecurringGroup(c, g)) out.push_back({g.cause.kind, g.cause.name, g.position});
  }
  std::sort(out.begin(), out.end());
  return out;
}

bool IsDispatchGap(const analysis::Gap& gap, const Thresholds& thresholds,
                   const std::vector<GapKey>& reported) {
  if (gap.between_steps) return false;
  const std::string& kind = gap.cause.kind;
  const bool dispatch = (kind == "framework_op" || kind == "launch_overhead") &&
                        static_cast<double>(gap.dur_ns) < thresholds.min_recurring_gap_ns;
  if (!dispatch && kind != "optimizer_step") return false;
  return !std::binary_search(reported.begin(), reported.end(),
                             GapKey{kind, gap.cause.name, gap.position});
}

std::vector<std::pair<int64_t, int64_t>> NonDispatchHostNs(const RuleContext& c) {
  const std::vector<GapKey> reported = ReportedRecurringGroups(c);
  // The host's part of a gap ends where it launched the op that ended the
  // gap: the launch latency before the gap's end (that call is dispatch).
  const int64_t latency_ns = std::max<int64_t>(0, c.analysis.replay.params.launch_latency_ns);
  std::vector<std::pair<int64_t, int64_t>> out;
  for (const analysis::Gap& g : c.analysis.gaps.gaps) {
    // Data loading and syncs are kept as the replay's own spans, exactly (a
    // gap's interval runs past them into the dispatch); a burst of launch
    // calls is dispatch however long.
    const std::string& kind = g.cause.kind;
    if (kind == "data_loader" || kind == "synchronization" || kind == "launch_overhead") continue;
    if (IsDispatchGap(g, c.thresholds, reported)) continue;
    const int64_t end_ns = g.start_ns + g.dur_ns - latency_ns;
    if (end_ns > g.start_ns) out.emplace_back(g.start_ns, end_ns);
  }
  return out;
}

DispatchIdle MeasureDispatchIdle(const RuleContext& c) {
  DispatchIdle out;
  const analysis::GapAnalysis& gaps = c.analysis.gaps;
  const std::vector<GapKey> reported = ReportedRecurringGroups(c);
  const std::string optimizer =
      c.analysis.host_calls.optimizer_classes.empty()
          ? "optimizer.step()"
          : fmt::format("optimizer.step() ({})",
                        fmt::join(c.analysis.host_calls.optimizer_classes, ", "));
  for (const analysis::Gap& g : gaps.gaps) {
    if (!IsDispatchGap(g, c.thresholds, reported)) continue;
    base::AddSaturating(out.total_ns, g.dur_ns);
    base::AddSaturating(out.by_step[g.step], g.dur_ns);
    ++out.gaps;
    if (g.cause.kind == "optimizer_step") {
      base::AddSaturating(out.optimizer_ns, g.dur_ns);
      base::AddSaturating(out.by_cause[optimizer], g.dur_ns);
    } else {
      out.by_cause[g.cause.name.empty() ? std::string(kLaunchCallsCause) : g.cause.name] +=
          g.dur_ns;
    }
    if (out.ranges.size() < 5) out.ranges.push_back({g.start_ns, g.start_ns + g.dur_ns});
  }
  const analysis::ShortGapTotals& s = gaps.short_gaps;
  base::AddSaturating(out.total_ns, s.dispatch_ns + s.optimizer_ns);
  base::AddSaturating(out.optimizer_ns, s.optimizer_ns);
  out.gaps += s.dispatch_count;
  if (s.optimizer_ns > 0) base::AddSaturating(out.by_cause[optimizer], s.optimizer_ns);
  for (const auto& [step, ns] : s.dispatch_and_optimizer_ns_by_step) {
    base::AddSaturating(out.by_step[step], ns);
  }
  return out;
}

void AddOptimizerClassTag(const RuleContext& c, Finding* f) {
  const std::vector<std::string>& classes = c.analysis.host_calls.optimizer_classes;
  if (classes == std::vector<std::string>{"AdamW"}) AddTag(f, "adamw_optimizer");
  if (classes == std::vector<std::string>{"Adam"}) AddTag(f, "adam_optimizer");
  if (classes == std::vector<std::string>{"SGD"}) AddTag(f, "sgd_optimizer");
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
  return std::string(Utf8Prefix(name, kMaxNameChars - 3)) + "...";
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

Severity PrioritySeverity(double gain_share) {
  if (gain_share >= kHighPriorityRatio) return Severity::kCritical;
  if (gain_share >= kMediumPriorityRatio) return Severity::kWarning;
  return Severity::kInfo;
}

void FlaggedTasks::Add(std::string_view op, int64_t dur_ns, double saved) {
  ++count;
  base::AddSaturating(ns, dur_ns);
  longest_ns = std::max(longest_ns, dur_ns);
  saved_ns += saved;
  auto it = by_op.find(op);
  if (it == by_op.end()) it = by_op.emplace(std::string(op), Contributor{std::string(op)}).first;
  base::AddSaturating(it->second.ns, dur_ns);
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
