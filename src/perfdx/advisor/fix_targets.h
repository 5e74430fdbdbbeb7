// Which fixes a rank is shown: those written for its framework and platform.
// The one place that decides it (RunAdvisor applies it to every finding).
#pragma once

#include <vector>

#include "perfdx/advisor/finding.h"
#include "perfdx/model/framework.h"

namespace perfdx::advisor {

// The fix targets of a rank. Ascend traces whose framework is unknown (an
// msprof folder, a lone kernel CSV) get both Ascend frameworks' fixes; a
// rank whose framework perfdx cannot tell gets none (`--framework` sets it).
std::vector<FixTarget> TargetsFor(const model::FrameworkInfo& runtime);

// Drops the recommendations of `finding` that are not for one of `targets`.
void KeepFixesFor(const std::vector<FixTarget>& targets, Finding* finding);

}  // namespace perfdx::advisor
