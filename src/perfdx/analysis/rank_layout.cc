#include "perfdx/analysis/rank_layout.h"

#include <algorithm>
#include <set>
#include <string_view>

namespace perfdx::analysis {

RankLayout AnalyzeRankLayout(const model::Trace& trace) {
  RankLayout out;
  const model::SliceTable& s = trace.slices;
  std::set<int32_t> devices;
  for (model::SliceId i = 0; i < s.size(); ++i) {
    if (model::IsDeviceWork(s.kind[i])) devices.insert(trace.tracks[s.track[i]].device_id);
    out.python_stacks |= s.kind[i] == model::EventKind::kPythonFunction;
  }
  out.work_device_ids.assign(devices.begin(), devices.end());
  for (const model::Track& t : trace.tracks) {
    if (t.kind == model::TrackKind::kHostThread && t.slice_end > t.slice_begin) {
      out.host_traced = true;
      break;
    }
  }
  // Does some slice carry this exact name?
  auto named = [&](std::string_view name) {
    const model::StringId id = trace.strings.Find(name);
    if (id == model::StringPool::kNotInterned) return false;
    return std::find(s.name.begin(), s.name.end(), id) != s.name.end();
  };
  out.data_parallel_forward = named("DataParallel.forward");
  out.dataloader_single_process =
      named("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__");
  out.dataloader_workers = named("enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__");
  return out;
}

}  // namespace perfdx::analysis
