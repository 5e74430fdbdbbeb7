// A run record from one rank's analysis: the analysed steps with their
// TensorBoard-style breakdown as phases, the summary health shares, and the
// complete operator/kernel inventory of the analysis window.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "perfdx/analysis/health.h"
#include "perfdx/analysis/rank_analysis.h"
#include "perfdx/baseline/record/inventory.h"
#include "perfdx/baseline/record/run_record.h"

namespace perfdx::baseline {

// The summary health keys, in the analyze report's order and spelling.
const std::vector<std::string_view>& HealthMetricNames();

// Adds the health shares under HealthMetricNames().
void AddHealthMetrics(const analysis::HealthMetrics& health, RunRecord& record);

// The inventory window of an analysis (the steps of its window, as
// rank_analysis.cc chooses them); nullopt: the whole trace.
std::optional<InventoryWindow> InventoryWindowOf(const analysis::RankAnalysis& analysis);

// Everything but the provenance (name, tags, host, fingerprint, version),
// which run_input.h fills in. The items are the inventory of `analysis.trace`,
// where it is still alive (none where the report freed it).
RunRecord RecordFromAnalysis(const analysis::RankAnalysis& analysis);

}  // namespace perfdx::baseline
