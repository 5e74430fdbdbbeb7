#include "perfdx/analysis/replay_graph.h"

#include <algorithm>
#include <limits>
#include <string_view>
#include <unordered_map>

#include "perfdx/analysis/activity.h"
#include "perfdx/analysis/copy_names.h"
#include "perfdx/analysis/slice_sets.h"
#include "perfdx/base/saturating.h"
#include "perfdx/base/statistics.h"

namespace perfdx::analysis {
namespace {

using model::SliceId;

// An op that starts more than this after both its launch and its stream
// predecessor allow waited for something else: another stream's op, if one
// ended in between (the event wait PyTorch records around NCCL work).
constexpr int64_t kUnexplainedWaitNs = 10'000;
// A sync returns after the op it waited for ended; the host and device
// clocks agree to within this.
constexpr int64_t kClockToleranceNs = 10'000;
// How many earlier-ending ops are tried as the dependency of a late op.
constexpr int kMaxWaitCandidates = 16;

// Innermost spans of one kind on each host track: a sync that holds another
// (aten::item around cudaStreamSynchronize) gives way to the inner one;
// `outermost` keeps the outer one instead (a DataLoader __next__ around its
// own fetch).
template <typename Keep>
std::vector<SliceId> HostSlices(const model::Trace& trace, Keep&& keep, bool outermost) {
  std::vector<SliceId> out;
  for (const model::Track& track : trace.tracks) {
    if (track.kind != model::TrackKind::kHostThread) continue;
    int64_t open_end = std::numeric_limits<int64_t>::min();
    for (SliceId i = track.slice_begin; i < track.slice_end; ++i) {
      if (!keep(i)) continue;
      const int64_t start = trace.slices.ts_ns[i];
      const int64_t end = trace.slices.end_ns(i);
      if (outermost) {
        if (start < open_end) continue;  // inside the one kept before
        out.push_back(i);
        open_end = end;
      } else {
        if (!out.empty() && start < open_end &&
            trace.slices.track[out.back()] == trace.slices.track[i]) {
          out.back() = i;  // nested in the previous one: keep the inner
        } else {
          out.push_back(i);
        }
        open_end = end;
      }
    }
  }
  return out;
}

}  // namespace

ReplayGraph BuildReplayGraph(const model::Trace& trace, const KernelSummary& kernels) {
  ReplayGraph g;
  if (trace.steps.empty()) return g;
  g.built = true;
  const model::SliceTable& s = trace.slices;

  // Device ops by start, on dense stream indices.
  std::vector<int32_t> stream_of_track(trace.tracks.size(), -1);
  std::vector<SliceId> ops;
  for (model::TrackId t = 0; t < trace.tracks.size(); ++t) {
    const model::Track& track = trace.tracks[t];
    if (!model::IsDeviceTrack(track.kind)) continue;
    bool any = false;
    for (SliceId i = track.slice_begin; i < track.slice_end; ++i) {
      if (!model::IsDeviceWork(s.kind[i])) continue;
      ops.push_back(i);
      any = true;
    }
    if (any) stream_of_track[t] = static_cast<int32_t>(g.streams++);
  }
  std::sort(ops.begin(), ops.end(), [&](SliceId a, SliceId b) {
    return s.ts_ns[a] != s.ts_ns[b] ? s.ts_ns[a] < s.ts_ns[b] : a < b;
  });
  std::unordered_map<std::string_view, uint8_t> flags_of;
  for (const KernelStat& k : kernels.kernels) {
    uint8_t f = 0;
    if (k.fp32_matrix) f |= kReplayFp32Matrix;
    if (k.layout_conversion) f |= kReplayLayoutConversion;
    if (k.matrix) f |= kReplayMatrix;
    flags_of.emplace(k.name, f);
  }
  std::vector<int32_t> op_of_slice(s.size(), kNoNode);
  // Flags per name id: one lookup by name per distinct kernel.
  std::unordered_map<model::StringId, uint8_t> flags_of_id;
  g.device.resize(ops.size());
  for (size_t k = 0; k < ops.size(); ++k) {
    const SliceId i = ops[k];
    ReplayDeviceOp& op = g.device[k];
    op.start_ns = s.ts_ns[i];
    op.dur_ns = s.dur_ns[i];
    op.stream = static_cast<uint32_t>(stream_of_track[s.track[i]]);
    auto [known, inserted] = flags_of_id.try_emplace(s.name[i], 0);
    if (inserted) {
      const auto f = flags_of.find(trace.slice_name(i));
      if (f != flags_of.end()) known->second = f->second;
    }
    op.flags = known->second;
    if (s.kind[i] == model::EventKind::kCollective) {
      op.flags |= kReplayCommunication;
      ++g.collectives;
    }
    op_of_slice[i] = static_cast<int32_t>(k);
  }

  // Host spans, tagged with what refers to them, then sorted by start.
  struct Pending {
    ReplayHostSpan span;
    int32_t device = kNoNode;  // kLaunch: the op it enqueued
    int64_t marker = -1;       // kStepMarker: index into trace.steps
  };
  std::vector<Pending> pending;
  for (const Launch& l : CollectLaunches(trace)) {
    const int32_t op = op_of_slice.at(l.device);
    ReplayHostSpan span{l.host_start_ns, l.host_end_ns, ReplayHostKind::kLaunch, kNoNode};
    // A copy to or from pageable memory syncs its stream first: linked to
    // the op it waited for below, once the stream order is known.
    if (model::IsMemcpy(s.kind[l.device]) && IsBlockingCopy(trace.slice_name(l.device))) {
      span.awaited = op;
    }
    pending.push_back({span, op, -1});
  }
  if (!ops.empty()) {
    for (SliceId i : HostSlices(
             trace, [&](SliceId i) { return IsSyncCall(trace.slice_name(i)); }, false)) {
      pending.push_back({{s.ts_ns[i], s.end_ns(i), ReplayHostKind::kSync, kNoNode}, kNoNode, -1});
    }
  }
  for (SliceId i : HostSlices(
           trace, [&](SliceId i) { return s.kind[i] == model::EventKind::kDataLoading; }, true)) {
    pending.push_back(
        {{s.ts_ns[i], s.end_ns(i), ReplayHostKind::kDataLoading, kNoNode}, kNoNode, -1});
  }
  for (size_t m = 0; m < trace.steps.size(); ++m) {
    const model::Step& step = trace.steps[m];
    pending.push_back({{step.start_ns, step.end_ns, ReplayHostKind::kStepMarker, kNoNode},
                       kNoNode,
                       static_cast<int64_t>(m)});
  }
  std::stable_sort(pending.begin(), pending.end(), [](const Pending& a, const Pending& b) {
    return a.span.start_ns < b.span.start_ns;
  });
  g.markers.resize(trace.steps.size());
  g.host.reserve(pending.size());
  for (size_t h = 0; h < pending.size(); ++h) {
    const Pending& p = pending[h];
    g.host.push_back(p.span);
    if (p.device != kNoNode) g.device[p.device].launch = static_cast<int32_t>(h);
    if (p.span.kind == ReplayHostKind::kStepMarker) {
      g.markers[p.marker] = {trace.steps[p.marker].id, static_cast<int32_t>(h)};
    }
  }
  g.host_by_end.resize(g.host.size());
  for (size_t h = 0; h < g.host.size(); ++h) g.host_by_end[h] = static_cast<int32_t>(h);
  std::stable_sort(g.host_by_end.begin(), g.host_by_end.end(),
                   [&](int32_t a, int32_t b) { return g.host[a].end_ns < g.host[b].end_ns; });
  std::sort(g.markers.begin(), g.markers.end(), [&](const ReplayMarker& a, const ReplayMarker& b) {
    return g.host[a.host].start_ns < g.host[b.host].start_ns;
  });

  // Stream order, and the step whose marker holds each op's launch wholly.
  std::vector<std::vector<int32_t>> by_stream(g.streams);
  for (size_t k = 0; k < g.device.size(); ++k) {
    ReplayDeviceOp& op = g.device[k];
    std::vector<int32_t>& stream = by_stream[op.stream];
    if (!stream.empty()) op.stream_prev = stream.back();
    stream.push_back(static_cast<int32_t>(k));
    if (op.launch == kNoNode) continue;
    const ReplayHostSpan& l = g.host[op.launch];
    auto it = std::upper_bound(
        g.markers.begin(), g.markers.end(), l.start_ns,
        [&](int64_t t, const ReplayMarker& m) { return t < g.host[m.host].start_ns; });
    if (it == g.markers.begin()) continue;
    --it;
    if (l.end_ns <= g.host[it->host].end_ns) op.step = static_cast<int32_t>(it - g.markers.begin());
  }
  // A blocking copy's call waited for the op before its copy if that op was
  // still running when the call began; otherwise it was host cost alone.
  for (ReplayHostSpan& span : g.host) {
    if (span.kind != ReplayHostKind::kLaunch || span.awaited == kNoNode) continue;
    const int32_t prev = g.device[span.awaited].stream_prev;
    span.awaited = kNoNode;
    if (prev == kNoNode) continue;
    const int64_t prev_end = g.device[prev].end_ns();
    if (prev_end <= span.start_ns || prev_end >= span.end_ns) continue;
    span.awaited = prev;
    span.after_awaited_ns = span.end_ns - prev_end;
  }
  int64_t step0_device_start = std::numeric_limits<int64_t>::max();
  for (const ReplayDeviceOp& op : g.device) {
    if (op.step == 0) step0_device_start = std::min(step0_device_start, op.start_ns);
  }
  for (size_t k = 0; k < g.device.size(); ++k) {
    const ReplayDeviceOp& op = g.device[k];
    if (op.step == kNoNode && op.end_ns() <= step0_device_start) {
      g.drain_ops.push_back(static_cast<int32_t>(k));
    }
  }

  // The launch latency on an idle stream, then the gap between queued ops.
  std::vector<int64_t> samples;
  for (const ReplayDeviceOp& op : g.device) {
    if (op.launch == kNoNode) continue;
    const int64_t launch = g.host[op.launch].start_ns;
    if (op.stream_prev != kNoNode && g.device[op.stream_prev].end_ns() > launch) continue;
    // Negative too: Ascend's device clock runs a few µs ahead of the host's
    // (mstt's sample: task starts 8 µs before its launch call, median), and
    // the replay must keep that offset, not a latency drawn from its tail.
    samples.push_back(op.start_ns - launch);
  }
  g.params.launch_samples = samples.size();
  g.params.launch_latency_ns = MedianInPlace(samples);
  samples.clear();
  for (const ReplayDeviceOp& op : g.device) {
    if (op.launch == kNoNode || op.stream_prev == kNoNode) continue;
    const int64_t prev_end = g.device[op.stream_prev].end_ns();
    if (g.host[op.launch].start_ns + g.params.launch_latency_ns >= prev_end) continue;
    samples.push_back(std::max<int64_t>(0, op.start_ns - prev_end));
  }
  g.params.queue_samples = samples.size();
  g.params.queue_gap_ns = MedianInPlace(samples);

  // Late ops: the other stream's op that ended last before they started.
  std::vector<int32_t> by_end(g.device.size());
  for (size_t k = 0; k < by_end.size(); ++k) by_end[k] = static_cast<int32_t>(k);
  std::sort(by_end.begin(), by_end.end(),
            [&](int32_t a, int32_t b) { return g.device[a].end_ns() < g.device[b].end_ns(); });
  for (size_t k = 0; k < g.device.size(); ++k) {
    ReplayDeviceOp& op = g.device[k];
    int64_t allowed = std::numeric_limits<int64_t>::min();
    if (op.launch != kNoNode) allowed = g.host[op.launch].start_ns + g.params.launch_latency_ns;
    if (op.stream_prev != kNoNode) {
      allowed = std::max(allowed, g.device[op.stream_prev].end_ns() + g.params.queue_gap_ns);
    }
    if (allowed == std::numeric_limits<int64_t>::min() ||
        op.start_ns <= allowed + kUnexplainedWaitNs) {
      continue;
    }
    auto it = std::upper_bound(by_end.begin(), by_end.end(), op.start_ns,
                               [&](int64_t t, int32_t j) { return t < g.device[j].end_ns(); });
    for (int tried = 0; it != by_end.begin() && tried < kMaxWaitCandidates; ++tried) {
      --it;
      const ReplayDeviceOp& other = g.device[*it];
      if (other.end_ns() < allowed) break;
      if (other.stream == op.stream || *it >= static_cast<int32_t>(k)) continue;
      op.waits_for = *it;
      ++g.inferred_waits;
      break;
    }
  }

  // Each sync waits for the op that ended last before it returned, if that
  // op was still running when it began and was launched before it returned
  // (torch_npu launches from its task queue's thread while the Python
  // thread waits in aten::item, so "launched before the sync began" would
  // miss what it waited for). Kineto records no stream for
  // cudaStreamSynchronize: a stream sync and a device-wide one are told
  // apart by timing alone.
  std::vector<int64_t> returns, floors;
  for (ReplayHostSpan& sync : g.host) {
    if (sync.kind != ReplayHostKind::kSync) continue;
    auto it = std::upper_bound(by_end.begin(), by_end.end(), sync.end_ns + kClockToleranceNs,
                               [&](int64_t t, int32_t j) { return t < g.device[j].end_ns(); });
    for (int tried = 0; it != by_end.begin() && tried < kMaxWaitCandidates; ++tried) {
      --it;
      const ReplayDeviceOp& op = g.device[*it];
      if (op.end_ns() <= sync.start_ns) break;
      if (op.start_ns >= sync.end_ns) continue;
      if (op.launch != kNoNode && g.host[op.launch].start_ns >= sync.end_ns) continue;
      sync.awaited = *it;
      break;
    }
    if (sync.awaited != kNoNode) {
      returns.push_back(std::max<int64_t>(0, sync.end_ns - g.device[sync.awaited].end_ns()));
    } else {
      floors.push_back(sync.end_ns - sync.start_ns);
    }
  }
  g.params.sync_samples = returns.size();
  g.params.sync_return_ns = MedianInPlace(returns);
  g.params.sync_floor_ns = MedianInPlace(floors);
  for (const ReplayDeviceOp& op : g.device) base::AddSaturating(g.work_ns, op.dur_ns);
  for (const ReplayHostSpan& span : g.host) {
    base::AddSaturating(g.work_ns, span.end_ns - span.start_ns);
  }
  return g;
}

}  // namespace perfdx::analysis
