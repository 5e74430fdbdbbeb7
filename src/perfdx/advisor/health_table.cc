#include "perfdx/advisor/health_table.h"

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

std::vector<HealthRow> BuildHealthTable(const analysis::RankAnalysis& a, const Thresholds& t) {
  std::vector<HealthRow> rows;
  auto add = [&](std::string metric, std::string label, double value, const Band& band,
                 bool applicable, bool percent = true) {
    HealthRow row;
    row.metric = std::move(metric);
    row.label = std::move(label);
    row.value = value;
    row.healthy = Range(band, percent);
    row.status = applicable ? Evaluate(band, value) : HealthStatus::kHealthy;
    row.applicable = applicable;
    rows.push_back(std::move(row));
  };
  const analysis::HealthMetrics& h = a.summary;
  const bool device = !a.cpu_only;
  const bool comm = a.summary.comm_share > 0;
  // Device utilization counts communication and copies as busy; the compute
  // share beside it does not, so a communication-bound step cannot pass as
  // a busy one. It is shown, not judged: the band is for utilization.
  add("device_utilization",
      device ? "device busy (incl. comm, copies)" : "compute utilization (host ops)",
      h.device_utilization, t.device_utilization, true);
  if (device) {
    HealthRow row;
    row.metric = "device_compute_share";
    row.label = "  of which compute kernels";
    row.value = h.device_compute_share;
    row.judged = false;
    rows.push_back(std::move(row));
  }
  add("idle_share", "idle share", h.idle_share, t.idle_share, true);
  add("top1_op_share", "top-1 operator share", h.top1_op_share, t.top1_op_share,
      !a.ops.ops.empty());
  add("top3_op_share", "top-3 operator share", h.top3_op_share, t.top3_op_share,
      !a.ops.ops.empty());
  add("memcpy_share", "memory copy share", h.memcpy_share, t.memcpy_share, device);
  add("framework_overhead_share", "framework overhead", h.framework_overhead_share,
      t.framework_overhead_share, device);
  add("dataloader_stall_share", "data-loading stall", h.dataloader_stall_share,
      t.dataloader_stall_share, true);
  add("comm_share", "communication share", h.comm_share, t.comm_share, comm);
  add("comm_not_overlapped_share", "exposed communication", h.comm_not_overlapped_share,
      t.comm_not_overlapped_share, comm);
  add("step_time_cv", "step-time variation (CV)", a.step_time.cv, t.step_time_cv,
      a.step_time.count >= 3, false);
  return rows;
}

}  // namespace perfdx::advisor
