#include "perfdx/advisor/rules/rules.h"

namespace perfdx::advisor {

const std::vector<const Rule*>& AllRules() {
  static const std::vector<const Rule*> kRules = {
      &DataLoaderStall(),
  };
  return kRules;
}

}  // namespace perfdx::advisor
