// The rule objects; AllRules() (rules.cc) lists them in a fixed order.
#pragma once

#include "perfdx/advisor/rule.h"

namespace perfdx::advisor {

const Rule& DataLoaderStall();

}  // namespace perfdx::advisor
