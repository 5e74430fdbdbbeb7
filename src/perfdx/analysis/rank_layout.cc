#include "perfdx/analysis/rank_layout.h"

#include <set>

namespace perfdx::analysis {

RankLayout AnalyzeRankLayout(const model::Trace& trace) {
  RankLayout out;
  const model::SliceTable& s = trace.slices;
  std::set<int32_t> devices;
  for (model::SliceId i = 0; i < s.size(); ++i) {
    if (model::IsDeviceWork(s.kind[i])) devices.insert(trace.tracks[s.track[i]].device_id);
  }
  out.work_device_ids.assign(devices.begin(), devices.end());
  for (const model::Track& t : trace.tracks) {
    if (t.kind == model::TrackKind::kHostThread && t.slice_end > t.slice_begin) {
      out.host_traced = true;
      break;
    }
  }
  const model::StringId forward = trace.strings.Find("DataParallel.forward");
  if (forward != model::StringPool::kNotInterned) {
    for (model::StringId n : s.name) {
      if (n == forward) {
        out.data_parallel_forward = true;
        break;
      }
    }
  }
  return out;
}

}  // namespace perfdx::analysis
