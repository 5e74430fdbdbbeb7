#include "perfdx/baseline/record/trace_run.h"

#include <optional>

#include "perfdx/analysis/interval_set.h"
#include "perfdx/baseline/record/inventory.h"

namespace perfdx::baseline {

const std::vector<std::string_view>& HealthMetricNames() {
  static const std::vector<std::string_view> kNames = [] {
    std::vector<std::string_view> names;
    for (const analysis::HealthMetricDef& m : analysis::kHealthMetrics) names.push_back(m.name);
    return names;
  }();
  return kNames;
}

void AddHealthMetrics(const analysis::HealthMetrics& h, RunRecord& record) {
  for (const analysis::HealthMetricDef& m : analysis::kHealthMetrics) {
    record.metrics[std::string(m.name)] = h.*m.value;
  }
}

// The analysed steps (kSteps), all but the last of them (kHta), or the
// whole trace (kAll, or when there are no steps).
std::optional<InventoryWindow> InventoryWindowOf(const analysis::RankAnalysis& a) {
  if (a.window_steps.empty()) return std::nullopt;
  std::vector<analysis::Interval> host;
  std::vector<analysis::Interval> full;
  for (const analysis::StepWindow& s : a.window_steps) {
    host.push_back({s.host_start_ns, s.host_end_ns});
    full.push_back({s.start_ns, s.end_ns});
  }
  return InventoryWindow{analysis::IntervalSet::FromUnsorted(std::move(host)),
                         analysis::IntervalSet::FromUnsorted(std::move(full)),
                         a.timeline.source == analysis::StepSource::kProfilerStep};
}

RunRecord RecordFromAnalysis(const analysis::RankAnalysis& a) {
  RunRecord record;
  record.source = RunSource::kTrace;
  record.window = std::string(analysis::AnalysisWindowName(a.window));
  record.device = a.info().device_name;
  record.rank = a.info().rank;
  for (const analysis::StepAnalysis& s : a.steps) {
    StepSample step;
    step.id = s.window.id;
    step.dur_ns = s.window.dur_ns();
    const analysis::StepBreakdown& b = s.breakdown;
    // Sorted by name, as StepSample requires.
    step.phases_ns = {{"communication", b.communication_ns},
                      {"cpu_exec", b.cpu_exec_ns},
                      {"dataloader", b.dataloader_ns},
                      {"kernel", b.kernel_ns},
                      {"memcpy", b.memcpy_ns},
                      {"memset", b.memset_ns},
                      {"other", b.other_ns},
                      {"runtime", b.runtime_ns}};
    record.steps.push_back(std::move(step));
  }
  AddHealthMetrics(a.summary, record);
  AddStepMetrics(record);
  if (a.trace != nullptr) {
    const std::optional<InventoryWindow> window = InventoryWindowOf(a);
    record.items = TakeInventory(*a.trace, window ? &*window : nullptr);
    record.items_complete = true;
  }
  record.notes = a.notes;
  return record;
}

}  // namespace perfdx::baseline
