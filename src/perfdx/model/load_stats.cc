#include "perfdx/model/load_stats.h"

namespace perfdx::model {

const LoadStatInfo& GetLoadStatInfo(LoadStat stat) {
  static const LoadStatInfo kInfos[] = {
#define PERFDX_STAT_INFO(e, name, sev, desc) {name, StatSeverity::sev, desc},
      PERFDX_LOAD_STATS(PERFDX_STAT_INFO)
#undef PERFDX_STAT_INFO
  };
  return kInfos[static_cast<size_t>(stat)];
}

}  // namespace perfdx::model
