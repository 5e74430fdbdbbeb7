// The health table that heads every analysis: each metric, its value, the
// healthy range, and whether it is in it.
#pragma once

#include <string>
#include <vector>

#include "perfdx/advisor/thresholds.h"
#include "perfdx/analysis/rank_analysis.h"

namespace perfdx::advisor {

struct HealthRow {
  std::string metric;  // the JSON summary key
  std::string label;   // for people
  double value = 0;
  std::string healthy;  // "> 85%"
  HealthStatus status = HealthStatus::kHealthy;
  bool applicable = true;  // e.g. communication metrics on a single-device trace
  bool judged = true;      // false: shown beside another row, no band of its own
};

std::vector<HealthRow> BuildHealthTable(const analysis::RankAnalysis& analysis,
                                        const Thresholds& thresholds);

std::string_view HealthStatusName(HealthStatus status);

}  // namespace perfdx::advisor
