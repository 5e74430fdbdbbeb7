// The operators and kernels of a trace, by name: every host and device slice
// counted once, with its count and summed duration — the lists `perfdx diff`
// compares, as HTA's TraceDiff does (../shared/docs/hta-definitions.md §10).
//
// Unlike the analyze report's "ops" and "kernels" (framework operators and
// device work only, top 50), the inventory is complete and also holds runtime
// calls (cudaLaunchKernel, cudaGraphLaunch), user annotations, data loading
// and Python functions, because a change often shows up exactly there.
//
//   kind        slices (model::EventKind)
//   operator    framework ops, record_function ranges, data loading
//   runtime     CUDA/HIP/ACL runtime and driver calls
//   python      Python functions (with_stack traces)
//   kernel, memcpy, memset, collective, sync   device work and device waits
// Left out: step markers (ProfilerStep#N differs between runs by design),
// device-side copies of host annotations, collective sub-tasks, instants,
// counters and the profiler's own spans.
#pragma once

#include <string_view>
#include <vector>

#include "perfdx/analysis/interval_set.h"
#include "perfdx/baseline/record/run_record.h"
#include "perfdx/model/trace.h"

namespace perfdx::baseline {

// The inventory kind of a slice kind ("kernel", "operator", ...); empty for
// the kinds left out.
std::string_view InventoryKind(model::EventKind kind);

// Which slices count. Host slices count when they start inside `host` (the
// steps' host-side ProfilerStep ranges); device work counts when the host
// call that launched it (its launch flow) does, and by its own start inside
// `full` (the steps' complete windows) when it has no traced launcher. This
// is how HTA assigns rows to iterations: work still draining after the last
// step, or launched after it, stays out, on both sides of a diff alike.
// Steps detected without markers have no host range: then every slice
// counts by its own start inside `full` (by_launch false).
//
// Device work with no traced launch (CUDA-graph replays, work whose launch
// the profiler missed) counts by its own start; HTA instead drops it (its
// iteration is -1). drop_unlaunched reproduces HTA, for the golden test;
// perfdx keeps that work, because a run that moves kernels into a CUDA graph
// still runs them.
struct InventoryWindow {
  analysis::IntervalSet host;
  analysis::IntervalSet full;
  bool by_launch = true;
  bool drop_unlaunched = false;
};

// By total time descending, then name. `window` null: every slice.
std::vector<RunItem> TakeInventory(const model::Trace& trace, const InventoryWindow* window);

}  // namespace perfdx::baseline
