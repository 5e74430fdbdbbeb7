// Queries shared by the Ascend rules (the msprof-analyze advisor's checks,
// ../shared/docs/ascend-advisor_rules.md): the kernel table rows of the
// analysed window, the operators' shape mode, the CANN host APIs by name,
// and msprof-analyze's priority colours as severities.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "perfdx/advisor/finding.h"
#include "perfdx/advisor/rule.h"
#include "perfdx/analysis/interval_set.h"
#include "perfdx/model/trace.h"

namespace perfdx::advisor {

// Does kernel row k start in the window? Its timeline slice's start when
// it has one, else the row's own start time.
bool KernelInWindow(const model::Trace& trace, const model::AscendKernel& k,
                    const analysis::IntervalSet& window);

// "OP State" of the window's kernel rows (HCCL rows aside). msprof-analyze
// (CANN >= 8.0) calls a profile dynamic-shape when no operator is static —
// also when the export records no state at all (the DB export's
// COMPUTE_TASK_INFO has no opState column on CANN 8.0).
struct OpStateCounts {
  uint64_t dynamic_ops = 0;
  uint64_t static_ops = 0;
  uint64_t unknown_ops = 0;  // compute rows without a recorded state
  // Recorded: some operator dynamic, none static.
  bool AllDynamic() const { return dynamic_ops > 0 && static_ops == 0; }
  // msprof's test: operators, and none recorded static.
  bool NoStatic() const { return static_ops == 0 && dynamic_ops + unknown_ops > 0; }
};
OpStateCounts CountOpStates(const model::Trace& trace, const analysis::IntervalSet& window);

// Host runtime calls (the CANN process's AscendCL@ / Node@ APIs) of the
// window whose name equals `name`, or starts with it when `prefix`.
std::vector<model::SliceId> RuntimeCallsNamed(const model::Trace& trace,
                                              const analysis::IntervalSet& window,
                                              std::string_view name, bool prefix = false);

// Task type of a kernel row / slice as written ("AI_CORE", "MIX_AIC", ...).
std::string_view KernelTaskType(const model::Trace& trace, const model::AscendKernel& k);

}  // namespace perfdx::advisor
