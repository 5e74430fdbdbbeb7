#include "perfdx/analysis/op_stats.h"

#include <algorithm>
#include <tuple>
#include <unordered_map>

#include "perfdx/analysis/slice_sets.h"

namespace perfdx::analysis {

using model::EventKind;
using model::SliceId;

OpSummary SummarizeOps(const model::Trace& trace, const OpAttribution& attribution,
                       const IntervalSet& window) {
  OpSummary out;
  const model::SliceTable& s = trace.slices;
  std::unordered_map<model::StringId, size_t> index;
  auto stat_of = [&](SliceId op) -> OpStat& {
    auto [it, inserted] = index.try_emplace(s.name[op], out.ops.size());
    if (inserted) out.ops.push_back(OpStat{std::string(trace.slice_name(op))});
    return out.ops[it->second];
  };

  std::vector<int64_t> child_time(s.size(), 0);
  for (SliceId i = 0; i < s.size(); ++i) {
    if (s.parent[i] >= 0) child_time[s.parent[i]] += s.dur_ns[i];
  }
  bool any_device = false;
  for (SliceId i = 0; i < s.size(); ++i) {
    if (s.kind[i] == EventKind::kFrameworkOp && OnHost(trace, i) && window.Contains(s.ts_ns[i])) {
      OpStat& op = stat_of(i);
      ++op.calls;
      op.host_total_ns += s.dur_ns[i];
      op.host_self_ns += std::max<int64_t>(0, s.dur_ns[i] - child_time[i]);
    }
    const int32_t launcher = attribution.launching_op[i];
    if (launcher < 0 || !window.Contains(s.ts_ns[launcher])) continue;
    any_device = true;
    stat_of(static_cast<SliceId>(launcher)).device_self_ns += s.dur_ns[i];
    // Every enclosing op (by name, once per name) gets it in its total.
    std::vector<model::StringId> seen;
    for (int32_t p = launcher; p >= 0; p = s.parent[p]) {
      if (s.kind[p] != EventKind::kFrameworkOp) continue;
      if (std::find(seen.begin(), seen.end(), s.name[p]) != seen.end()) continue;
      seen.push_back(s.name[p]);
      stat_of(static_cast<SliceId>(p)).device_total_ns += s.dur_ns[i];
    }
  }

  out.ranked_by_device = any_device;
  auto key = [&](const OpStat& op) { return any_device ? op.device_self_ns : op.host_self_ns; };
  std::sort(out.ops.begin(), out.ops.end(), [&](const OpStat& a, const OpStat& b) {
    return key(a) != key(b) ? key(a) > key(b) : a.name < b.name;
  });
  std::vector<int64_t> times;
  times.reserve(out.ops.size());
  for (const OpStat& op : out.ops) times.push_back(key(op));
  std::tie(out.top1_share, out.top3_share) = TopOpShares(std::move(times));
  return out;
}

std::pair<double, double> TopOpShares(std::vector<int64_t> times) {
  std::sort(times.rbegin(), times.rend());
  int64_t total = 0;
  for (int64_t t : times) total += t;
  if (total <= 0) return {0, 0};
  int64_t top3 = 0;
  for (size_t k = 0; k < times.size() && k < 3; ++k) top3 += times[k];
  return {static_cast<double>(times[0]) / static_cast<double>(total),
          static_cast<double>(top3) / static_cast<double>(total)};
}

}  // namespace perfdx::analysis
