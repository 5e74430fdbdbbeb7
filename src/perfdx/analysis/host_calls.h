// The host calls of the analysed window that the advisor's host-side checks
// count (../shared/docs/ascend-advisor_rules.md rows 8, 14, 16-18, 20, 22),
// each classified by what it is, from the table in host_calls.cc: CANN
// runtime APIs (stream synchronization, operator launch and compilation,
// device memory allocation), framework operators (SyncBatchNorm, the AdamW
// optimizer step) and Python garbage collections. Computed for every trace:
// the names are CANN's and torch's, so a trace without them has no records.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "perfdx/analysis/interval_set.h"
#include "perfdx/model/trace.h"

namespace perfdx::analysis {

enum class HostCallKind : uint8_t {
  kSynchronizeStream,    // runtime call AscendCL@aclrtSynchronizeStream* (…WithTimeout too)
  kNodeLaunch,           // runtime call Node@launch*: an operator launched
  kOpCompileAndExecute,  // runtime call AscendCL@aclopCompileAndExecute
  kOpCompile,            // runtime call AscendCL@opCompile: the compilation inside it
  kMallocMemInner,       // runtime call AscendCL@aclMallocMemInner
  kFreePhysical,         // runtime call AscendCL@aclrtFreePhysical
  kFree,                 // runtime call AscendCL@aclrtFree
  kSyncBatchNorm,        // framework operator SyncBatchNorm (any letter case)
  kAdamWStep,            // Optimizer.step#AdamW.step, any event on a host thread
  kOptimizerStep,        // Optimizer.step#<class>.step of any optimizer class, likewise
  kPythonGc,             // an event of category "gc" (torch_npu's "Python GC" process)
};

// The name the table matches for a kind (the prefix, for the prefix kinds),
// as the profiler writes it: "AscendCL@aclrtFree", "SyncBatchNorm", "gc".
std::string_view HostCallName(HostCallKind kind);

// The kinds a slice of this event kind, track kind, name and category is
// (usually none, at most a few), by the table.
std::vector<HostCallKind> ClassifyHostCall(model::EventKind kind, model::TrackKind track,
                                           std::string_view name, std::string_view category);

struct HostCall {
  HostCallKind kind = HostCallKind::kNodeLaunch;
  int64_t ts_ns = 0;
  int64_t dur_ns = 0;
  int64_t tid = -1;  // the thread's id as written; -1 when it is text
  int64_t end_ns() const { return ts_ns + dur_ns; }
};

struct HostCalls {
  // The window's calls (those starting in it), in the trace's slice order
  // (by thread, then by start time).
  std::vector<HostCall> calls;
  // The trace has a host side at all: some slice off the device and counter
  // tracks (a kernel table alone has none, so no call could be seen).
  bool host_recorded = false;
  // The optimizer classes of the window's kOptimizerStep calls, as the
  // profiler names them ("AdamW", "Shampoo"), sorted, each once.
  std::vector<std::string> optimizer_classes;

  // The calls of one kind, in the same order.
  std::vector<HostCall> Of(HostCallKind kind) const;
};

// `window`: the analysis window (RankAnalysis::window_intervals).
HostCalls CollectHostCalls(const model::Trace& trace, const IntervalSet& window);

}  // namespace perfdx::analysis
