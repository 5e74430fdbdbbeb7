#include "perfdx/analysis/rank_analysis.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <unordered_map>
#include <utility>

#include <fmt/format.h>

#include "perfdx/analysis/activity.h"
#include "perfdx/analysis/op_attribution.h"
#include "perfdx/base/run_beside.h"
#include "perfdx/base/saturating.h"

namespace perfdx::analysis {
namespace {

using model::SliceId;

IntervalSet StepWindows(const std::vector<StepWindow>& steps) {
  std::vector<Interval> v;
  for (const StepWindow& s : steps) v.push_back({s.start_ns, s.end_ns});
  return IntervalSet::FromUnsorted(std::move(v));
}

// Top-1/top-3 operator shares per step in one pass over the device work:
// device self time per op name, bucketed by the step holding the launch.
std::vector<std::pair<double, double>> TopOpSharesPerStep(const model::Trace& trace,
                                                          const OpAttribution& attribution,
                                                          const std::vector<StepWindow>& steps,
                                                          bool cpu_only) {
  std::vector<std::unordered_map<model::StringId, int64_t>> per_step(steps.size());
  auto step_of = [&](int64_t ts) -> int64_t {
    auto it = std::upper_bound(steps.begin(), steps.end(), ts,
                               [](int64_t t, const StepWindow& s) { return t < s.start_ns; });
    if (it == steps.begin()) return -1;
    --it;
    return ts < it->end_ns ? it - steps.begin() : -1;
  };
  const model::SliceTable& s = trace.slices;
  std::vector<int64_t> child_time;
  if (cpu_only) {
    child_time.assign(s.size(), 0);
    for (SliceId i = 0; i < s.size(); ++i) {
      if (s.parent[i] >= 0) base::AddSaturating(child_time[s.parent[i]], s.dur_ns[i]);
    }
  }
  for (SliceId i = 0; i < s.size(); ++i) {
    if (cpu_only) {
      if (s.kind[i] != model::EventKind::kFrameworkOp) continue;
      const int64_t k = step_of(s.ts_ns[i]);
      if (k >= 0)
        base::AddSaturating(per_step[k][s.name[i]],
                            std::max<int64_t>(0, s.dur_ns[i] - child_time[i]));
      continue;
    }
    const int32_t op = attribution.launching_op[i];
    if (op < 0) continue;
    const int64_t k = step_of(s.ts_ns[op]);
    if (k >= 0) base::AddSaturating(per_step[k][s.name[op]], s.dur_ns[i]);
  }
  std::vector<std::pair<double, double>> out;
  for (const auto& by_name : per_step) {
    std::vector<int64_t> times;
    for (const auto& [name, ns] : by_name) times.push_back(ns);
    out.push_back(TopOpShares(std::move(times)));
  }
  return out;
}

}  // namespace

IntervalSet TraceSpan(const model::Trace& trace) {
  int64_t first = std::numeric_limits<int64_t>::max();
  int64_t last = std::numeric_limits<int64_t>::min();
  for (SliceId i = 0; i < trace.slices.size(); ++i) {
    if (trace.tracks[trace.slices.track[i]].kind == model::TrackKind::kProfilerInternal) continue;
    first = std::min(first, trace.slices.ts_ns[i]);
    last = std::max(last, trace.slices.end_ns(i));
  }
  return first < last ? IntervalSet::Single(first, last) : IntervalSet();
}

RankAnalysis AnalyzeRank(const model::Trace& trace, const AnalysisOptions& options) {
  RankAnalysis r;
  r.trace = &trace;
  r.rank_info = trace.info;
  r.trace_span = TraceSpan(trace);
  r.window = options.window;
  StepOptions step_options;
  step_options.include_incomplete = options.include_incomplete;
  r.timeline = BuildSteps(trace, step_options);
  r.notes = r.timeline.notes;
  if (options.step_range) {
    // Plain variables, not a structured binding: Clang 14 cannot capture one in a lambda (P1091).
    const int64_t first = options.step_range->first;
    const int64_t last = options.step_range->second;
    const size_t before = r.timeline.steps.size();
    std::erase_if(r.timeline.steps,
                  [&](const StepWindow& s) { return s.id < first || s.id > last; });
    r.notes.push_back(fmt::format("--steps {}..{}: analysing {} of {} steps", first, last,
                                  r.timeline.steps.size(), before));
  }

  r.complete_steps = HasCompleteSteps(trace, r.timeline);

  // The summary window.
  switch (options.window) {
    case AnalysisWindow::kSteps:
      r.window_steps = r.timeline.steps;
      break;
    case AnalysisWindow::kAll:
      break;
    case AnalysisWindow::kHta:
      r.window_steps = r.timeline.steps;
      if (r.window_steps.size() >= 2) r.window_steps.pop_back();
      break;
  }
  IntervalSet window = r.window_steps.empty() ? r.trace_span : StepWindows(r.window_steps);
  if (window.empty()) window = r.trace_span;
  r.window_ns = window.TotalLength();

  // Pieces that read the trace, the steps and the window and write results
  // of their own, taken by the threads as each comes free, the longest first
  // (1 GB trace, one thread: operators, kernels and the replay 0.21 s,
  // activity and gaps 0.19 s, the step breakdowns 0.16 s, the temporal
  // breakdown 0.09 s, host calls 0.08 s; the rest 0.01-0.03 s each). Two
  // halves fixed in advance left one thread 0.04 s behind the other.
  std::vector<StepBreakdown> breakdowns;
  std::vector<DeviceTime> device_times;
  Activity activity;
  OpAttribution attribution;
  const std::function<void()> pieces[] = {
      [&] {
        attribution = AttributeDeviceWork(trace);
        r.ops = SummarizeOps(trace, attribution, window);
        r.kernels = SummarizeKernels(trace, attribution, window);
        r.replay_graph = BuildReplayGraph(trace, r.kernels);
        r.replay = CheckReplay(r.replay_graph, r.timeline.steps, r.complete_steps);
      },
      [&] {
        activity = BuildActivity(trace);
        r.gaps = FindGaps(trace, activity, r.timeline, options.min_gap_ns);
      },
      [&] { breakdowns = ComputeStepBreakdowns(trace, r.timeline); },
      [&] { r.temporal = ComputeTemporalBreakdown(trace, options.window, r.timeline); },
      [&] { r.host_calls = CollectHostCalls(trace, window); },
      [&] { r.driver_allocs = SummarizeDriverAllocCalls(trace, window); },
      [&] { device_times = ComputeDeviceTime(trace, r.timeline); },
      [&] { r.host_syncs = CountHostSyncs(trace, r.window_steps); },
      [&] {
        r.memory = SummarizeMemory(trace, r.timeline);
        r.collectives = AnalyzeCollectives(trace, &r.timeline, &window);
        r.hccl_transfers = CollectHcclTransfers(trace, r.collectives, window);
        r.ascend_profile = ReadAscendProfile(trace);
        r.ascend_operators = CollectAscendOperators(trace, window);
        r.op_sequences = CollectOpSequences(trace, window);
      },
  };
  base::RunEach(options.threads, pieces);
  r.replay_graph.dispatch_cover = Union(activity.host_framework, activity.host_runtime);
  r.cpu_only = activity.cpu_only;
  if (r.cpu_only) {
    r.notes.push_back(
        "no device work in this trace: its framework operators (outside data loading) are "
        "used as the compute timeline");
  }
  // What needs the activity and the operators both.
  std::vector<std::pair<double, double>> top_ops;
  base::RunBeside(
      options.threads > 1,
      [&] {
        r.elementwise_chains =
            FindElementwiseChains(trace, attribution, r.window_steps, r.cpu_only);
      },
      [&] { top_ops = TopOpSharesPerStep(trace, attribution, r.timeline.steps, r.cpu_only); });
  r.summary = ComputeHealth(activity, window, r.ops.top1_share, r.ops.top3_share);
  r.step_time = ComputeStepTimeStats(r.timeline);

  // Per step.
  for (size_t k = 0; k < r.timeline.steps.size(); ++k) {
    StepAnalysis step;
    step.window = r.timeline.steps[k];
    if (k < breakdowns.size()) step.breakdown = breakdowns[k];
    if (k < device_times.size()) step.device = device_times[k];
    step.health =
        ComputeHealth(activity, IntervalSet::Single(step.window.start_ns, step.window.end_ns),
                      top_ops[k].first, top_ops[k].second);
    r.steps.push_back(step);
  }
  r.layout = AnalyzeRankLayout(trace);
  r.window_intervals = std::move(window);
  r.activity = std::move(activity);
  return r;
}

}  // namespace perfdx::analysis
