#include "perfdx/analysis/hccl_transfers.h"

#include <unordered_map>

namespace perfdx::analysis {

HcclTransfers CollectHcclTransfers(const model::Trace& trace, const CollectiveSummary& collectives,
                                   const IntervalSet& window) {
  HcclTransfers out;
  if (trace.info.device_type != model::DeviceType::kNpu) return out;
  const model::SliceTable& s = trace.slices;
  const std::vector<CollectiveStats>& ops = collectives.collectives;
  // Index in out.ops of each collective listed, -1 until it is.
  std::vector<int32_t> listed(ops.size(), -1);
  auto list = [&](size_t k) {
    if (listed[k] < 0) {
      listed[k] = static_cast<int32_t>(out.ops.size());
      out.ops.push_back({ops[k].name, ops[k].start_ns, ops[k].start_ns + ops[k].dur_ns});
    }
    return listed[k];
  };
  for (size_t k = 0; k < ops.size(); ++k) {
    if (window.Contains(ops[k].start_ns)) list(k);
  }
  std::unordered_map<model::SliceId, size_t> owner;
  for (const FiledTask& t : collectives.filed_tasks) owner.emplace(t.slice, t.collective);
  for (model::SliceId i = 0; i < s.size(); ++i) {
    if (s.kind[i] != model::EventKind::kCollectiveTask) continue;
    if (!model::IsDeviceTrack(trace.tracks[s.track[i]].kind) || !window.Contains(s.ts_ns[i]))
      continue;
    HcclTask task;
    task.name = std::string(trace.slice_name(i));
    task.transport = std::string(trace.ArgString(i, model::ArgKey::kTransportType).value_or(""));
    task.link = std::string(trace.ArgString(i, model::ArgKey::kLinkType).value_or(""));
    task.bytes = trace.ArgInt(i, model::ArgKey::kSizeBytes).value_or(0);
    task.ts_ns = s.ts_ns[i];
    task.dur_ns = s.dur_ns[i];
    if (auto it = owner.find(i); it != owner.end()) task.op = list(it->second);
    out.tasks.push_back(std::move(task));
  }
  return out;
}

}  // namespace perfdx::analysis
