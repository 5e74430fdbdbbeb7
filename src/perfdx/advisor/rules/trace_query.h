// What is left of the trace queries: DeviceSliceIn, for the Ascend operator
// rules that still scan the trace (being converted to read RankAnalysis).
// The communication and memory rules read analysis/collectives.h and
// analysis/activity.h instead; once no rule calls DeviceSliceIn this file
// goes.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "perfdx/advisor/finding.h"
#include "perfdx/advisor/rule.h"
#include "perfdx/analysis/collectives.h"
#include "perfdx/analysis/interval_set.h"
#include "perfdx/model/trace.h"

namespace perfdx::advisor {

// Is slice i device work whose start lies in the window (the kernel
// summary's rule for what a window holds)?
bool DeviceSliceIn(const model::Trace& trace, model::SliceId i,
                   const analysis::IntervalSet& window);

}  // namespace perfdx::advisor
