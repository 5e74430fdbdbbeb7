#include "perfdx/advisor/rules/rules.h"

namespace perfdx::advisor {

const std::vector<const Rule*>& AllRules() {
#define PERFDX_LIST_RULE(name) &name(),
  static const std::vector<const Rule*> kRules = {PERFDX_RANK_RULES(PERFDX_LIST_RULE)};
  return kRules;
}

const std::vector<const JobRule*>& AllJobRules() {
  static const std::vector<const JobRule*> kRules = {PERFDX_JOB_RULES(PERFDX_LIST_RULE)};
#undef PERFDX_LIST_RULE
  return kRules;
}

}  // namespace perfdx::advisor
