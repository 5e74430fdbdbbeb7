#include "perfdx/analysis/op_sequences.h"

#include <cstdint>
#include <limits>
#include <string_view>

namespace perfdx::analysis {
namespace {

bool StartsWithNoCase(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i) {
    const char ch = s[i] >= 'A' && s[i] <= 'Z' ? static_cast<char>(s[i] - 'A' + 'a') : s[i];
    if (ch != prefix[i]) return false;
  }
  return true;
}

}  // namespace

OpSequences CollectOpSequences(const model::Trace& trace, const IntervalSet& window) {
  OpSequences out;
  if (trace.info.device_type != model::DeviceType::kNpu) return out;
  const model::SliceTable& s = trace.slices;
  // Slices are grouped by track and sorted by start within it.
  for (const model::Track& track : trace.tracks) {
    if (track.kind != model::TrackKind::kHostThread) continue;
    std::vector<std::string> sequence;
    int64_t covered_until = std::numeric_limits<int64_t>::min();
    for (model::SliceId i = track.slice_begin; i < track.slice_end; ++i) {
      if (s.kind[i] != model::EventKind::kFrameworkOp || !window.Contains(s.ts_ns[i])) continue;
      const std::string_view name = trace.slice_name(i);
      const bool aten = StartsWithNoCase(name, "aten::");
      if (!aten && !StartsWithNoCase(name, "npu::")) continue;
      if (s.ts_ns[i] < covered_until) continue;  // inside the previous aten op
      covered_until = s.end_ns(i);
      sequence.emplace_back(aten ? name.substr(6) : name);
    }
    if (!sequence.empty()) out.threads.push_back(std::move(sequence));
  }
  return out;
}

}  // namespace perfdx::analysis
