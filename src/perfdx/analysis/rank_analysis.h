// Everything `perfdx analyze` computes for one rank, in one struct. Pure
// function of the trace and the options; the report renders it as is.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "perfdx/analysis/activity.h"
#include "perfdx/analysis/ascend_operators.h"
#include "perfdx/analysis/ascend_profile.h"
#include "perfdx/analysis/collectives.h"
#include "perfdx/analysis/device_time.h"
#include "perfdx/analysis/elementwise_chains.h"
#include "perfdx/analysis/gaps.h"
#include "perfdx/analysis/hccl_transfers.h"
#include "perfdx/analysis/health.h"
#include "perfdx/analysis/host_calls.h"
#include "perfdx/analysis/host_syncs.h"
#include "perfdx/analysis/kernel_stats.h"
#include "perfdx/analysis/memory_stats.h"
#include "perfdx/analysis/op_sequences.h"
#include "perfdx/analysis/op_stats.h"
#include "perfdx/analysis/rank_layout.h"
#include "perfdx/analysis/replay.h"
#include "perfdx/analysis/replay_graph.h"
#include "perfdx/analysis/step_breakdown.h"
#include "perfdx/analysis/step_stats.h"
#include "perfdx/analysis/steps.h"
#include "perfdx/analysis/temporal_breakdown.h"
#include "perfdx/model/trace.h"

namespace perfdx::analysis {

struct AnalysisOptions {
  AnalysisWindow window = AnalysisWindow::kSteps;
  // Inclusive range of step ids to analyse (--steps A..B).
  std::optional<std::pair<int64_t, int64_t>> step_range;
  bool include_incomplete = false;
  int64_t min_gap_ns = kDefaultMinGapNs;
  // Two or more: the per-step and host-call analyses run on a second thread
  // beside the activity, operator and replay ones (the results are the same).
  unsigned threads = 1;
};

struct StepAnalysis {
  StepWindow window;
  StepBreakdown breakdown;
  DeviceTime device;
  HealthMetrics health;
};

struct RankAnalysis {
  // The trace analysed, owned by the caller; null once the caller has freed
  // it (BuildAnalyzeReport does, unless asked to keep it: everything after
  // the analysis reads this struct, not the trace). What reads the trace
  // itself: the rank's summary (cluster/rank_summary.h), the baseline's
  // inventory and annotate, each while the trace is alive.
  const model::Trace* trace = nullptr;
  // The trace's RankInfo, copied: the advisor reads only this
  // (tests/architecture/rules_read_analysis_test.py).
  model::RankInfo rank_info;
  const model::RankInfo& info() const { return rank_info; }
  // TraceSpan of the trace (the job grouping compares ranks' spans).
  IntervalSet trace_span;
  AnalysisWindow window = AnalysisWindow::kSteps;
  bool cpu_only = false;
  StepTimeline timeline;  // after --steps filtering
  std::vector<StepAnalysis> steps;
  // The steps are complete (steps.h HasCompleteSteps): per-step gains stand
  // on them.
  bool complete_steps = false;
  // Over the analysis window: the analysed steps (kSteps), the whole trace
  // (kAll), or the steps HTA keeps — all but the last (kHta).
  int64_t window_ns = 0;
  // The steps that make up that window (empty: the whole trace).
  std::vector<StepWindow> window_steps;
  // That window as an interval set (what every window metric intersects).
  IntervalSet window_intervals;
  // What the device and the host were doing over the whole trace
  // (activity.h); rules clip it to window_intervals. Emptied with the trace
  // where BuildAnalyzeReport frees it (only annotate reads it after the rules).
  Activity activity;
  HealthMetrics summary;
  StepTimeStats step_time;
  TemporalBreakdown temporal;
  GapAnalysis gaps;
  KernelSummary kernels;
  OpSummary ops;
  MemorySummary memory;
  // Every collective of the trace (not only the window's), with step ids:
  // sizes, transports, bandwidths, wait/transit (analysis/collectives.h).
  CollectiveSummary collectives;
  // Over the window's steps: host syncs and small copies (host_syncs.h),
  // unfused elementwise chains (elementwise_chains.h).
  HostSyncSummary host_syncs;
  ElementwiseChainSummary elementwise_chains;
  std::vector<std::string> notes;
  // What the advisor's Ascend and host-call checks read, over the window:
  AscendProfile ascend_profile;      // the profile's device and settings (ascend_profile.h)
  AscendOperators ascend_operators;  // kernel rows, compute tasks, op states, AI Core clock
  HcclTransfers hccl_transfers;      // HCCL ops and their tasks (hccl_transfers.h)
  OpSequences op_sequences;          // each host thread's top-level aten ops (op_sequences.h)
  HostCalls host_calls;              // runtime APIs, SyncBatchNorm, AdamW steps, GC (host_calls.h)
  // Host time in driver-level alloc/free calls over the window (memory_stats.h).
  DriverAllocSummary driver_allocs;
  // Devices with work, host traced, nn.DataParallel (rank_layout.h).
  RankLayout layout;
  // The steps' dependency graph (replay_graph.h) and how well its unchanged
  // replay reproduces the analysed steps (replay.h): what every predicted
  // gain stands on. The graph is emptied with the trace where
  // BuildAnalyzeReport frees it, once the findings have been predicted.
  ReplayGraph replay_graph;
  ReplayCheck replay;
};

RankAnalysis AnalyzeRank(const model::Trace& trace, const AnalysisOptions& options);

// The steps a per-step gain is spread over: those of the analysis window.
// With `--window hta` that is every step but the last (the window's
// metrics cover only those), otherwise the analysed steps.
inline size_t GainStepCount(const RankAnalysis& a) {
  if (a.window == AnalysisWindow::kHta && !a.window_steps.empty()) return a.window_steps.size();
  return a.steps.empty() ? 1 : a.steps.size();
}

// Mean step time of that window; the denominator of every gain share.
inline int64_t GainStepNs(const RankAnalysis& a) {
  if (a.window == AnalysisWindow::kHta && !a.window_steps.empty())
    return a.window_ns / static_cast<int64_t>(a.window_steps.size());
  return a.step_time.mean_ns > 0 ? a.step_time.mean_ns : a.window_ns;
}

// From the first to the last instant of any slice, the profiler's own
// bookkeeping left out (the window of --window all); empty for no slices.
IntervalSet TraceSpan(const model::Trace& trace);

}  // namespace perfdx::analysis
