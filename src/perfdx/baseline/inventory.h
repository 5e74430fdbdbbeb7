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
#include "perfdx/baseline/run_record.h"
#include "perfdx/model/trace.h"

namespace perfdx::baseline {

// The inventory kind of a slice kind ("kernel", "operator", ...); empty for
// the kinds left out.
std::string_view InventoryKind(model::EventKind kind);

// Slices whose start lies in `window` (all slices when it is null), by total
// time descending, then name.
std::vector<RunItem> TakeInventory(const model::Trace& trace, const analysis::IntervalSet* window);

}  // namespace perfdx::baseline
