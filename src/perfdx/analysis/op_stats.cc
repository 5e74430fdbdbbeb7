#include "perfdx/analysis/op_stats.h"

#include <algorithm>
#include <tuple>
#include <unordered_map>

#include "perfdx/analysis/slice_sets.h"
#include "perfdx/base/saturating.h"

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
    if (s.parent[i] >= 0) base::AddSaturating(child_time[s.parent[i]], s.dur_ns[i]);
  }
  bool any_device = false;
  // Device time launched from inside each slice's subtree (from each slice
  // itself first): parents come before their children in the slice table,
  // so one pass backwards sums every subtree.
  std::vector<int64_t> launched_ns(s.size(), 0);
  std::vector<uint8_t> launches(s.size(), 0);
  for (SliceId i = 0; i < s.size(); ++i) {
    if (s.kind[i] == EventKind::kFrameworkOp && OnHost(trace, i) && window.Contains(s.ts_ns[i])) {
      OpStat& op = stat_of(i);
      ++op.calls;
      base::AddSaturating(op.host_total_ns, s.dur_ns[i]);
      base::AddSaturating(op.host_self_ns, std::max<int64_t>(0, s.dur_ns[i] - child_time[i]));
    }
    const int32_t launcher = attribution.launching_op[i];
    if (launcher < 0 || !window.Contains(s.ts_ns[launcher])) continue;
    any_device = true;
    base::AddSaturating(stat_of(static_cast<SliceId>(launcher)).device_self_ns, s.dur_ns[i]);
    base::AddSaturating(launched_ns[launcher], s.dur_ns[i]);
    launches[launcher] = 1;
  }
  for (SliceId i = s.size(); i-- > 0;) {
    const int32_t parent = s.parent[i];
    if (parent < 0 || !launches[i]) continue;
    base::AddSaturating(launched_ns[parent], launched_ns[i]);
    launches[parent] = 1;
  }
  // Every enclosing op gets the device time in its total, once per name: the
  // outermost op of each name on the way up holds it all. A walk up from
  // each launcher with a list of the names seen cost depth x names per
  // device slice (#17); this is one walk down the nesting, names counted on
  // the way.
  std::vector<uint32_t> open_of_name;  // by StringId: ops of that name on the path
  std::vector<SliceId> path;
  for (const model::Track& track : trace.tracks) {
    path.clear();
    for (SliceId i = track.slice_begin; i < track.slice_end; ++i) {
      while (!path.empty() && static_cast<int32_t>(path.back()) != s.parent[i]) {
        if (s.kind[path.back()] == EventKind::kFrameworkOp) --open_of_name[s.name[path.back()]];
        path.pop_back();
      }
      if (path.empty() && s.parent[i] >= 0) continue;  // not reached from its parent: no path
      path.push_back(i);
      if (s.kind[i] != EventKind::kFrameworkOp) continue;
      const model::StringId name = s.name[i];
      if (name >= open_of_name.size()) open_of_name.resize(name + 1, 0);
      if (open_of_name[name]++ == 0 && launches[i])
        base::AddSaturating(stat_of(i).device_total_ns, launched_ns[i]);
    }
    for (SliceId p : path) {
      if (s.kind[p] == EventKind::kFrameworkOp) --open_of_name[s.name[p]];
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
  for (int64_t t : times) base::AddSaturating(total, t);
  if (total <= 0) return {0, 0};
  int64_t top3 = 0;
  for (size_t k = 0; k < times.size() && k < 3; ++k) base::AddSaturating(top3, times[k]);
  return {static_cast<double>(times[0]) / static_cast<double>(total),
          static_cast<double>(top3) / static_cast<double>(total)};
}

}  // namespace perfdx::analysis
