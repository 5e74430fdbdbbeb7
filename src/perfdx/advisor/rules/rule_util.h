// Small helpers shared by the rules.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "perfdx/advisor/rule.h"
#include "perfdx/base/statistics.h"

namespace perfdx::advisor {

// share * the analysed window, spread over the steps: the per-step time a
// window-level share stands for.
inline int64_t PerStepNs(const RuleContext& c, double share) {
  return static_cast<int64_t>(share * static_cast<double>(c.analysis.window_ns) /
                              static_cast<double>(c.step_count()));
}

inline double ShareOfStep(const RuleContext& c, int64_t ns_per_step) {
  return ShareOf(ns_per_step, c.step_ns());
}

// "12.3%" / "15.0 ms" (seconds from 10 s), for titles.
std::string Pct(double share);
std::string Ms(int64_t ns);

// Records evidence the rule established (knobs.toml [tags]).
inline void AddTag(Finding* f, std::string_view tag) {
  for (const std::string& t : f->evidence_tags) {
    if (t == tag) return;
  }
  f->evidence_tags.emplace_back(tag);
}

// Is the collectives' device time at least half all-reduce (gradient
// synchronization), rather than all-to-all, all-gather, ...?
bool AllReduceDominates(const analysis::CollectiveSummary& collectives);

// A gap cause with a rule of its own (data_loader_stall, sync_in_step, the
// dispatch and stalled-call rules): data loading, a sync, a launch burst, a
// stalled call. recurring_gap leaves such groups to them.
bool CauseHasItsOwnRule(const std::string& kind);

// Does recurring_gap report this group (its conditions, in one place)? A
// cause the host names (not data loading, syncs, launches or stalled calls,
// which have their own rules), gaps of at least min_recurring_gap_ns on
// average and long ones in most steps, and enough time per step.
bool IsReportedRecurringGroup(const RuleContext& c, const analysis::GapGroup& group);

// A listed gap that host_bound_dispatch counts, inside a step and not part
// of a group recurring_gap reports: the host running optimizer.step(), or
// dispatching operators (a framework op, many launch calls) in a gap shorter
// than a recurring gap (a longer one inside one op is that op's own host
// work, not dispatch). `reported`: ReportedRecurringGroups(c).
struct GapKey {
  std::string kind, name, position;
  friend auto operator<=>(const GapKey&, const GapKey&) = default;
};
std::vector<GapKey> ReportedRecurringGroups(const RuleContext& c);
bool IsDispatchGap(const analysis::Gap& gap, const Thresholds& thresholds,
                   const std::vector<GapKey>& reported);

// The host time a captured step keeps (analysis::WhatIf::kept_host_ns):
// the listed gaps host_bound_dispatch does not count, whose host-side cause
// is not dispatch (a recurring gap's work, one operator's own long host
// work, untraced code, logging, a stalled call), each as its gap's
// interval up to the launch that ended it (the replay's launch latency
// before the gap's end); data loading and syncs the replay keeps by their
// own spans. The trace shows no dispatch there, so the fix is not credited
// with it.
std::vector<std::pair<int64_t, int64_t>> NonDispatchHostNs(const RuleContext& c);

// What DispatchIdle::by_cause calls the gaps caused by many short runtime
// calls (gaps.h launch_overhead), which name no operator.
inline constexpr std::string_view kLaunchCallsCause = "bursts of launch calls";

// The device idle time the host's dispatch explains: the listed dispatch
// gaps and the short gaps' dispatch and optimizer time (gaps.h).
struct DispatchIdle {
  int64_t total_ns = 0;
  int64_t optimizer_ns = 0;  // of which the host ran optimizer.step()
  uint64_t gaps = 0;         // listed dispatch gaps and short ones mostly dispatch
  // The listed gaps' and the optimizer's time by what the host was inside:
  // the operator, kLaunchCallsCause, "optimizer.step() (AdamW)".
  std::map<std::string, int64_t> by_cause;
  std::map<int64_t, int64_t> by_step;  // total_ns by step id
  std::vector<TimeRange> ranges;       // the first five listed gaps
};
DispatchIdle MeasureDispatchIdle(const RuleContext& c);

// Tags the optimizer class when every step of the window ran the one class
// (its fused implementation is a fix for it alone).
void AddOptimizerClassTag(const RuleContext& c, Finding* f);

// "rank 3", or the trace's path when it names no rank.
std::string RankLabel(const analysis::RankAnalysis& a);
std::string RankLabel(const cluster::RankSummary& s);

// A kernel or operator name as a title quotes it: at most 80 characters
// (C++ template kernels run to thousands); the evidence keeps it whole.
std::string ShortName(const std::string& name);

// Keeps the `max` contributors with the most time (ties: larger share, then
// name, so the order never depends on the input's), largest first.
void KeepLargest(std::vector<Contributor>* contributors, size_t max);

// A window total spread over the analysed steps, as PerStepNs does for shares.
int64_t PerStep(const RuleContext& c, int64_t total_ns);

// "2.1 MB" (decimal megabytes, as msprof-analyze reports transit sizes).
std::string Mb(int64_t bytes);

// msprof-analyze base_analyzer get_priority_by_time_ratio: a cause worth
// >= 5% of the step is high priority (critical), >= 3% medium (warning),
// less low (info).
Severity PrioritySeverity(double gain_share);

// The kernel tasks a rule flags and the time each could save (an upper
// bound), summed per operator.
struct FlaggedTasks {
  uint64_t count = 0;
  int64_t ns = 0;
  int64_t longest_ns = 0;
  double saved_ns = 0;
  std::map<std::string, Contributor, std::less<>> by_op;  // share: saved ns

  void Add(std::string_view op, int64_t dur_ns, double saved);
  // The `max` operators with the most flagged time; share: of the saving.
  std::vector<Contributor> LargestContributors(size_t max) const;
};

}  // namespace perfdx::advisor
