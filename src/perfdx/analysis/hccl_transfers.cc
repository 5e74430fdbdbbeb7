#include "perfdx/analysis/hccl_transfers.h"

#include <algorithm>

namespace perfdx::analysis {

HcclTransfers CollectHcclTransfers(const model::Trace& trace, const IntervalSet& window) {
  HcclTransfers out;
  if (trace.info.device_type != model::DeviceType::kNpu) return out;
  using model::EventKind;
  using model::SliceId;
  const model::SliceTable& s = trace.slices;
  auto in_window = [&](SliceId i) {
    return model::IsDeviceTrack(trace.tracks[s.track[i]].kind) && window.Contains(s.ts_ns[i]);
  };
  for (SliceId i = 0; i < s.size(); ++i) {
    if (s.kind[i] != EventKind::kCollective || !in_window(i)) continue;
    out.ops.push_back({std::string(trace.slice_name(i)), s.ts_ns[i], s.end_ns(i)});
  }
  // The ops by start, each with its index in `out.ops`, to find a task's op.
  std::vector<int32_t> by_start(out.ops.size());
  for (size_t k = 0; k < by_start.size(); ++k) by_start[k] = static_cast<int32_t>(k);
  std::sort(by_start.begin(), by_start.end(),
            [&](int32_t a, int32_t b) { return out.ops[a].start_ns < out.ops[b].start_ns; });
  for (SliceId i = 0; i < s.size(); ++i) {
    if (s.kind[i] != EventKind::kCollectiveTask || !in_window(i)) continue;
    HcclTask task;
    task.name = std::string(trace.slice_name(i));
    task.transport = std::string(trace.ArgString(i, model::ArgKey::kTransportType).value_or(""));
    task.link = std::string(trace.ArgString(i, model::ArgKey::kLinkType).value_or(""));
    task.bytes = trace.ArgInt(i, model::ArgKey::kSizeBytes).value_or(0);
    task.ts_ns = s.ts_ns[i];
    task.dur_ns = s.dur_ns[i];
    auto it = std::upper_bound(by_start.begin(), by_start.end(), s.ts_ns[i],
                               [&](int64_t ts, int32_t op) { return ts < out.ops[op].start_ns; });
    task.op = it == by_start.begin() ? -1 : *(it - 1);
    out.tasks.push_back(std::move(task));
  }
  return out;
}

}  // namespace perfdx::analysis
