// `perfdx info`: what each rank's trace holds. The JSON form is a contract
// (keys other tools read):
//   {"schema_version", "report": "info", "perfdx_version", "ranks": [{"rank", "path", "source",
//   "device", "device_type", "span_ns",
//     "events", "events_by_phase", "events_by_kind", "steps", "tracks",
//     "flows", "load_stats", "warnings"}], "warnings": [...]}
#pragma once

#include <string>
#include <vector>

#include "perfdx/analysis/trace_summary.h"
#include "perfdx/base/value_sink.h"
#include "perfdx/model/trace.h"

namespace perfdx::report {

// Raised when a key is removed, renamed or changes meaning.
inline constexpr int kInfoSchemaVersion = 1;

struct InfoRank {
  const model::RankInfo* info = nullptr;
  analysis::TraceSummary summary;
};

struct InfoReport {
  std::vector<InfoRank> ranks;
  std::vector<std::string> warnings;  // discovery notes and every rank's warnings
};

InfoReport BuildInfoReport(const std::vector<model::Trace>& traces,
                           const std::vector<std::string>& discovery_warnings);

// The JSON contract as calls on `out` (RenderInfoJson: as text).
void WriteInfoReport(const InfoReport& report, ValueSink& out);
std::string RenderInfoJson(const InfoReport& report);
// Wrapped to `width` columns (40 at the least) as the analyze report is; the
// tracks as a table whose process / thread names shorten in the middle.
std::string RenderInfoText(const InfoReport& report, int width = 100);

}  // namespace perfdx::report
