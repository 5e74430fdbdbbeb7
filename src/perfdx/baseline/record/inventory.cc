#include "perfdx/baseline/record/inventory.h"

#include <algorithm>
#include <cstdint>
#include <unordered_map>

#include "perfdx/analysis/slice_sets.h"
#include "perfdx/base/saturating.h"

namespace perfdx::baseline {
using model::EventKind;

namespace {
constexpr int64_t kNoLaunch = INT64_MIN;
}  // namespace

std::string_view InventoryKind(EventKind kind) {
  switch (kind) {
    case EventKind::kFrameworkOp:
    case EventKind::kUserAnnotation:
    case EventKind::kDataLoading:
      return "operator";
    case EventKind::kRuntimeCall:
      return "runtime";
    case EventKind::kPythonFunction:
      return "python";
    case EventKind::kComputeKernel:
      return "kernel";
    case EventKind::kMemcpyH2D:
    case EventKind::kMemcpyD2H:
    case EventKind::kMemcpyD2D:
    case EventKind::kMemcpyP2P:
    case EventKind::kMemcpyOther:
      return "memcpy";
    case EventKind::kMemset:
      return "memset";
    case EventKind::kCollective:
      return "collective";
    case EventKind::kDeviceSync:
      return "sync";
    case EventKind::kCollectiveTask:
    case EventKind::kDeviceAnnotation:
    case EventKind::kStepMarker:
    case EventKind::kCounter:
    case EventKind::kMemoryEvent:
    case EventKind::kOther:
      return {};
  }
  return {};
}

std::vector<RunItem> TakeInventory(const model::Trace& trace, const InventoryWindow* window) {
  const model::SliceTable& s = trace.slices;
  // The start of the host call that launched each device slice, if traced.
  std::vector<int64_t> launch_ts;
  if (window != nullptr && window->by_launch) {
    launch_ts.assign(s.size(), kNoLaunch);
    const model::FlowTable& f = trace.flows;
    for (size_t k = 0; k < f.size(); ++k) {
      const model::SliceId to = f.to[k];
      if (launch_ts[to] == kNoLaunch && !analysis::OnDevice(trace, f.from[k])) {
        launch_ts[to] = s.ts_ns[f.from[k]];
      }
    }
  }
  auto counts = [&](model::SliceId i) {
    if (window == nullptr) return true;
    if (!window->by_launch) return window->full.Contains(s.ts_ns[i]);
    if (!analysis::OnDevice(trace, i)) return window->host.Contains(s.ts_ns[i]);
    if (launch_ts[i] != kNoLaunch) return window->host.Contains(launch_ts[i]);
    return !window->drop_unlaunched && window->full.Contains(s.ts_ns[i]);
  };
  std::vector<RunItem> items;
  // By name, as TraceDiff re-groups by name: the same name under two
  // categories is one entry (it keeps the kind it was first seen with).
  std::unordered_map<model::StringId, size_t> index;
  for (model::SliceId i = 0; i < s.size(); ++i) {
    if (s.flags[i] & model::kSliceInstant) continue;
    if (trace.tracks[s.track[i]].kind == model::TrackKind::kProfilerInternal) continue;
    const std::string_view kind = InventoryKind(s.kind[i]);
    if (kind.empty()) continue;
    if (!counts(i)) continue;
    auto [it, inserted] = index.try_emplace(s.name[i], items.size());
    if (inserted) items.push_back(RunItem{std::string(trace.slice_name(i)), std::string(kind)});
    RunItem& item = items[it->second];
    ++item.count;
    base::AddSaturating(item.total_ns, s.dur_ns[i]);
  }
  std::sort(items.begin(), items.end(), [](const RunItem& a, const RunItem& b) {
    return a.total_ns != b.total_ns ? a.total_ns > b.total_ns : a.name < b.name;
  });
  return items;
}

}  // namespace perfdx::baseline
