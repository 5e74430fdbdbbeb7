#include "perfdx/advisor/health_table.h"

#include <cstdint>
#include <string_view>

#include <fmt/format.h>

namespace perfdx::advisor {
namespace {

std::string Range(const Band& band, bool percent) {
  auto fmt_value = [&](double v) {
    return percent ? fmt::format("{:.0f}%", v * 100) : fmt::format("{:.2f}", v);
  };
  return fmt::format("{} {}", band.higher_is_better ? ">=" : "<=", fmt_value(band.healthy));
}

}  // namespace

std::string_view HealthStatusName(HealthStatus status) {
  switch (status) {
    case HealthStatus::kHealthy:
      return "healthy";
    case HealthStatus::kWarning:
      return "warning";
    case HealthStatus::kAbnormal:
      return "abnormal";
  }
  return "healthy";
}

namespace {

// When a row applies to a rank.
enum class Applies : uint8_t {
  kAlways,
  kDevice,       // the rank has device work (not a CPU-only trace)
  kOperators,    // the window has operators
  kCollectives,  // the window has communication
};

// The judged rows, in report order: a health metric (its name is the one of
// analysis::kHealthMetrics) and its band (thresholds.def). The step-time CV,
// not a health metric, and the unjudged compute share are added beside them.
struct HealthRowDef {
  double analysis::HealthMetrics::*value;
  Band Thresholds::*band;
  std::string_view label;
  Applies applies;
};
constexpr HealthRowDef kRows[] = {
    {&analysis::HealthMetrics::idle_share, &Thresholds::idle_share, "idle share", Applies::kAlways},
    {&analysis::HealthMetrics::top1_op_share, &Thresholds::top1_op_share, "top-1 operator share",
     Applies::kOperators},
    {&analysis::HealthMetrics::top3_op_share, &Thresholds::top3_op_share, "top-3 operator share",
     Applies::kOperators},
    {&analysis::HealthMetrics::memcpy_share, &Thresholds::memcpy_share, "memory copy share",
     Applies::kDevice},
    {&analysis::HealthMetrics::framework_overhead_share, &Thresholds::framework_overhead_share,
     "framework overhead", Applies::kDevice},
    {&analysis::HealthMetrics::dataloader_stall_share, &Thresholds::dataloader_stall_share,
     "data-loading stall", Applies::kAlways},
    {&analysis::HealthMetrics::comm_share, &Thresholds::comm_share, "communication share",
     Applies::kCollectives},
    {&analysis::HealthMetrics::comm_not_overlapped_share, &Thresholds::comm_not_overlapped_share,
     "exposed communication", Applies::kCollectives},
};

std::string_view MetricName(double analysis::HealthMetrics::*value) {
  for (const analysis::HealthMetricDef& m : analysis::kHealthMetrics) {
    if (m.value == value) return m.name;
  }
  return "";
}

}  // namespace

std::vector<HealthRow> BuildHealthTable(const analysis::RankAnalysis& a, const Thresholds& t) {
  std::vector<HealthRow> rows;
  auto add = [&](std::string_view metric, std::string_view label, double value, const Band& band,
                 bool applicable, bool percent = true) {
    HealthRow row;
    row.metric = std::string(metric);
    row.label = std::string(label);
    row.value = value;
    row.healthy = Range(band, percent);
    row.status = applicable ? Evaluate(band, value) : HealthStatus::kHealthy;
    row.applicable = applicable;
    rows.push_back(std::move(row));
  };
  const analysis::HealthMetrics& h = a.summary;
  const bool device = !a.cpu_only;
  auto applies = [&](Applies when) {
    switch (when) {
      case Applies::kAlways:
        return true;
      case Applies::kDevice:
        return device;
      case Applies::kOperators:
        return !a.ops.ops.empty();
      case Applies::kCollectives:
        return h.comm_share > 0;
    }
    return true;
  };
  // Device utilization counts communication and copies as busy; the compute
  // share beside it does not, so a communication-bound step cannot pass as
  // a busy one. It is shown, not judged: the band is for utilization.
  add(MetricName(&analysis::HealthMetrics::device_utilization),
      device ? "device busy (incl. comm, copies)" : "compute utilization (host ops)",
      h.device_utilization, t.device_utilization, true);
  if (device) {
    HealthRow row;
    row.metric = std::string(MetricName(&analysis::HealthMetrics::device_compute_share));
    row.label = "  of which compute kernels";
    row.value = h.device_compute_share;
    row.judged = false;
    rows.push_back(std::move(row));
  }
  for (const HealthRowDef& r : kRows) {
    add(MetricName(r.value), r.label, h.*(r.value), t.*(r.band), applies(r.applies));
  }
  add("step_time_cv", "step-time variation (CV)", a.step_time.cv, t.step_time_cv,
      a.step_time.count >= 3, false);
  return rows;
}

}  // namespace perfdx::advisor
