#include "perfdx/analysis/steps.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <tuple>
#include <unordered_map>

#include <fmt/format.h>

#include "perfdx/analysis/slice_sets.h"
#include "perfdx/base/saturating.h"
#include "perfdx/base/sort.h"

namespace perfdx::analysis {
namespace {

using model::SliceId;

constexpr int64_t kNoTime = std::numeric_limits<int64_t>::min();
// TBP drops the last step when it launched fewer than 80% of the previous
// step's device ops: the capture most likely stopped inside it.
constexpr double kTruncatedTailRatio = 0.8;
// Repeating-pattern detection (no markers). A step must repeat at least twice
// in full, span at least half of the stream's ops, and hold at least two ops
// (a single kernel repeated is a loop, not evidence of a training step).
constexpr size_t kMinPatternRepeats = 2;
constexpr double kMinPatternCoverage = 0.5;
constexpr size_t kMinPatternPeriod = 2;
constexpr size_t kMaxPatternCandidates = 64;

// Device work TBP counts as a step's device nodes: kernels (NCCL ones too),
// memcpy and memset, on a device track.
bool IsDeviceOp(const model::Trace& trace, SliceId i) {
  return model::IsDeviceWork(trace.slices.kind[i]) && OnDevice(trace, i);
}

std::string FormatMs(int64_t ns) {
  return fmt::format("{:.3f} ms", static_cast<double>(ns) / 1e6);
}

StepTimeline FromMarkers(const model::Trace& trace, const StepOptions& options) {
  StepTimeline timeline;
  timeline.source = StepSource::kProfilerStep;
  const std::vector<model::Step>& markers = trace.steps;
  const size_t n = markers.size();

  // 1. Device ops launched from inside each host window. Launches and steps
  // are both in start order, so one merge pass assigns each launch: a launch
  // counts only when it lies wholly inside a window; one that begins before
  // the current window or straddles its end counts for no step.
  std::vector<int64_t> device_start(n, std::numeric_limits<int64_t>::max());
  std::vector<int64_t> device_end(n, kNoTime);
  std::vector<uint32_t> device_ops(n, 0);
  std::vector<bool> matched(trace.slices.size(), false);
  bool any_matched = false;
  size_t step = 0;
  for (const Launch& launch : CollectLaunches(trace)) {
    while (step < n) {
      const model::Step& m = markers[step];
      if (launch.host_start_ns < m.start_ns) break;
      if (launch.host_end_ns <= m.end_ns) {
        device_start[step] = std::min(device_start[step], trace.slices.ts_ns[launch.device]);
        device_end[step] = std::max(device_end[step], trace.slices.end_ns(launch.device));
        ++device_ops[step];
        matched[launch.device] = true;
        any_matched = true;
        break;
      }
      if (launch.host_start_ns < m.end_ns) break;  // straddles the window's end
      ++step;
    }
    if (step == n) break;
  }

  std::vector<StepWindow> windows(n);
  for (size_t i = 0; i < n; ++i) {
    windows[i].id = markers[i].id;
    windows[i].start_ns = markers[i].start_ns;
    windows[i].end_ns = markers[i].end_ns;
    windows[i].host_start_ns = markers[i].start_ns;
    windows[i].host_end_ns = markers[i].end_ns;
    windows[i].device_ops = device_ops[i];
  }
  if (!any_matched) {
    // CPU-only, or device work that no launch links to a step: nothing to
    // extend, the host windows stand (TBP's is_use_gpu == false).
    bool any_device_op = false;
    for (SliceId i = 0; i < trace.slices.size() && !any_device_op; ++i) {
      any_device_op = IsDeviceOp(trace, i);
    }
    if (any_device_op) {
      timeline.notes.push_back(
          "no device op could be linked to a launch inside a ProfilerStep; step windows are the "
          "host-side markers only");
    }
    timeline.steps = std::move(windows);
    return timeline;
  }

  // 2. Device work launched outside every step that finishes before step 0's
  // first device op is still draining from before the profiled steps: step 0
  // starts after it.
  int64_t prev_end_ns = markers[0].start_ns;
  if (device_ops[0] > 0) {
    for (SliceId i = 0; i < trace.slices.size(); ++i) {
      if (matched[i] || !IsDeviceOp(trace, i)) continue;
      const int64_t end_ns = trace.slices.end_ns(i);
      if (end_ns <= device_start[0]) prev_end_ns = std::max(prev_end_ns, end_ns);
    }
  }
  if (prev_end_ns > markers[0].start_ns) {
    timeline.notes.push_back(fmt::format(
        "step {} starts {} after its marker: device work launched before it was still running",
        markers[0].id, FormatMs(prev_end_ns - markers[0].start_ns)));
  }

  // 3. Extend each window to the end of the device work it launched; a step
  // starts no earlier than the previous one ends, so windows never overlap.
  for (size_t i = 0; i < n; ++i) {
    StepWindow& w = windows[i];
    w.start_ns = std::max(prev_end_ns, w.host_start_ns);
    w.end_ns = device_ops[i] > 0 ? std::max(w.host_end_ns, device_end[i])
                                 : std::max(w.host_end_ns, w.start_ns);
    w.end_ns = std::max(w.end_ns, w.start_ns);
    prev_end_ns = w.end_ns;
  }

  // 4. Trim a tail the capture cut short: steps after the last one that
  // launched device work, and that one too when it launched fewer than 80% of
  // the previous step's device ops.
  size_t keep = n;
  std::vector<std::string> why(n);
  if (n > 1) {
    size_t last = n - 1;
    while (device_ops[last] == 0) --last;  // any_matched: some step has ops
    for (size_t i = last + 1; i < n; ++i) {
      why[i] = fmt::format(
          "step {} excluded: it launched no device work (the last step that did is "
          "step {}), so the capture likely ended inside it",
          markers[i].id, markers[last].id);
    }
    keep = last + 1;
    if (last > 0 && device_ops[last - 1] * kTruncatedTailRatio > device_ops[last]) {
      why[last] = fmt::format(
          "step {} excluded: it launched {:.0f}% of the device ops of step {} ({} of {}), so it "
          "looks truncated",
          markers[last].id, 100.0 * device_ops[last] / device_ops[last - 1], markers[last - 1].id,
          device_ops[last], device_ops[last - 1]);
      keep = last;
    }
  }
  for (size_t i = 0; i < n; ++i) {
    if (i < keep) {
      timeline.steps.push_back(windows[i]);
    } else if (options.include_incomplete) {
      timeline.steps.push_back(windows[i]);
      timeline.notes.push_back(
          fmt::format("step {} looks incomplete but is kept as asked ({})", markers[i].id, why[i]));
    } else {
      timeline.excluded.push_back(windows[i]);
      timeline.notes.push_back(why[i] + "; use --include-incomplete to keep it");
    }
  }
  return timeline;
}

// Steps recovered from the device timeline when there are no markers.
//
// A training loop issues the same device work every iteration, so the
// sequence of op names on the busiest device stream (one stream, so the
// order is the issue order, free of cross-stream interleaving) is periodic
// with the iteration's op count as period. Candidate periods are the
// distances between successive occurrences of the same name (an op issued
// once per iteration recurs exactly one period later), tried most frequent
// first. For a period p, the longest run of positions k with
// name[k] == name[k + p] marks a region that is p-periodic; the candidate
// whose region is longest wins (ties: the shorter period, so that a multiple
// of the true period never beats it). A period that only repeats inside one
// iteration (a transformer layer) covers little of the stream and loses.
// Within the region, iterations are cut where the device idles longest
// before an op, summed over all repetitions: the host-side gap between
// iterations (data loading, optimizer bookkeeping). Each full repetition
// becomes a step, from its first op's start to the next repetition's first
// op (the last one: to its own last op's end).
std::optional<StepTimeline> FromRepeatingPattern(const model::Trace& trace) {
  const model::SliceTable& s = trace.slices;
  model::TrackId busiest = 0;
  size_t busiest_ops = 0;
  for (model::TrackId t = 0; t < trace.tracks.size(); ++t) {
    const model::Track& track = trace.tracks[t];
    if (!model::IsDeviceTrack(track.kind)) continue;
    size_t ops = 0;
    for (SliceId i = track.slice_begin; i < track.slice_end; ++i) ops += IsDeviceOp(trace, i);
    if (ops > busiest_ops) busiest = t, busiest_ops = ops;
  }
  if (busiest_ops < kMinPatternRepeats * kMinPatternPeriod) return std::nullopt;

  std::vector<SliceId> ops;  // in time order (tracks are sorted)
  ops.reserve(busiest_ops);
  const model::Track& track = trace.tracks[busiest];
  for (SliceId i = track.slice_begin; i < track.slice_end; ++i) {
    if (IsDeviceOp(trace, i)) ops.push_back(i);
  }
  const size_t n = ops.size();
  auto name = [&](size_t k) { return s.name[ops[k]]; };

  std::unordered_map<model::StringId, size_t> last_seen;
  std::unordered_map<size_t, uint32_t> gap_count;
  for (size_t k = 0; k < n; ++k) {
    auto [it, inserted] = last_seen.try_emplace(name(k), k);
    if (!inserted) {
      const size_t gap = k - it->second;
      if (gap >= kMinPatternPeriod && gap <= n / kMinPatternRepeats) ++gap_count[gap];
      it->second = k;
    }
  }
  std::vector<std::pair<size_t, uint32_t>> candidates(gap_count.begin(), gap_count.end());
  std::sort(candidates.begin(), candidates.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  if (candidates.size() > kMaxPatternCandidates) candidates.resize(kMaxPatternCandidates);

  size_t period = 0;
  size_t region_begin = 0;
  size_t region_size = 0;
  for (const auto& [p, count] : candidates) {
    size_t run = 0;
    for (size_t k = 0; k + p < n; ++k) {
      run = name(k) == name(k + p) ? run + 1 : 0;
      // [k + 1 - run, k + 1 + p) is p-periodic; it needs two full periods.
      const size_t size = run + p;
      if (size < kMinPatternRepeats * p) continue;
      if (size > region_size || (size == region_size && p < period)) {
        period = p;
        region_size = size;
        region_begin = k + 1 - run;
      }
    }
  }
  if (period == 0 ||
      static_cast<double>(region_size) < kMinPatternCoverage * static_cast<double>(n)) {
    return std::nullopt;
  }
  const size_t region_end = region_begin + region_size;

  // Where the cycle starts: the phase with the most device idle before it.
  std::vector<int64_t> idle_before(period, 0);
  int64_t busy_until = s.end_ns(ops[region_begin]);
  for (size_t k = region_begin + 1; k < region_end; ++k) {
    base::AddSaturating(idle_before[k % period],
                        std::max<int64_t>(0, s.ts_ns[ops[k]] - busy_until));
    busy_until = std::max(busy_until, s.end_ns(ops[k]));
  }
  size_t first = region_begin;
  for (size_t j = 1; j < period; ++j) {
    if (idle_before[(region_begin + j) % period] > idle_before[first % period]) {
      first = region_begin + j;
    }
  }
  const size_t cycles = (region_end - first) / period;
  if (cycles < kMinPatternRepeats) return std::nullopt;

  StepTimeline timeline;
  timeline.source = StepSource::kRepeatingPattern;
  for (size_t c = 0; c < cycles; ++c) {
    const size_t begin = first + c * period;
    const size_t end = begin + period;
    StepWindow w;
    w.id = static_cast<int64_t>(c);
    w.start_ns = s.ts_ns[ops[begin]];
    if (end < region_end) {
      w.end_ns = s.ts_ns[ops[end]];
    } else {
      for (size_t k = begin; k < end; ++k) w.end_ns = std::max(w.end_ns, s.end_ns(ops[k]));
    }
    w.host_start_ns = w.start_ns;
    w.host_end_ns = w.end_ns;
    timeline.steps.push_back(w);
  }
  // Device ops (every stream) that start inside each window.
  for (SliceId i = 0; i < s.size(); ++i) {
    if (!IsDeviceOp(trace, i)) continue;
    auto it = std::upper_bound(timeline.steps.begin(), timeline.steps.end(), s.ts_ns[i],
                               [](int64_t t, const StepWindow& w) { return t < w.start_ns; });
    if (it == timeline.steps.begin()) continue;
    --it;
    if (s.ts_ns[i] < it->end_ns) ++it->device_ops;
  }
  timeline.notes.push_back(fmt::format(
      "no ProfilerStep markers; {} steps detected from a sequence of {} device ops that repeats on "
      "the busiest device stream ({} of its {} ops are periodic); ids are 0..{}",
      cycles, period, region_size, n, cycles - 1));
  return timeline;
}

StepTimeline WholeTrace(const model::Trace& trace) {
  StepTimeline timeline;
  timeline.source = StepSource::kWholeTrace;
  const model::SliceTable& s = trace.slices;
  int64_t start_ns = std::numeric_limits<int64_t>::max();
  int64_t end_ns = kNoTime;
  uint32_t device_ops = 0;
  for (SliceId i = 0; i < s.size(); ++i) {
    const model::TrackKind kind = trace.tracks[s.track[i]].kind;
    if (kind != model::TrackKind::kHostThread && !model::IsDeviceTrack(kind)) continue;
    start_ns = std::min(start_ns, s.ts_ns[i]);
    end_ns = std::max(end_ns, s.end_ns(i));
    device_ops += IsDeviceOp(trace, i);
  }
  if (end_ns == kNoTime) {
    timeline.notes.push_back("no ProfilerStep markers and no host or device events: no steps");
    return timeline;
  }
  StepWindow w;
  w.start_ns = w.host_start_ns = start_ns;
  w.end_ns = w.host_end_ns = end_ns;
  w.device_ops = device_ops;
  timeline.steps.push_back(w);
  timeline.notes.push_back(
      "no ProfilerStep markers and no repeating device pattern: the whole trace is one step");
  return timeline;
}

}  // namespace

std::string_view StepSourceName(StepSource source) {
  switch (source) {
    case StepSource::kProfilerStep:
      return "profiler_step";
    case StepSource::kWholeTrace:
      return "whole_trace";
    case StepSource::kRepeatingPattern:
      return "repeating_pattern";
  }
  return "whole_trace";
}

StepTimeline BuildSteps(const model::Trace& trace, const StepOptions& options) {
  if (!trace.steps.empty()) return FromMarkers(trace, options);
  if (auto detected = FromRepeatingPattern(trace)) return *std::move(detected);
  return WholeTrace(trace);
}

bool HasCompleteSteps(const model::Trace& trace, const StepTimeline& timeline) {
  if (timeline.source == StepSource::kWholeTrace || timeline.steps.empty()) return false;
  if (timeline.steps.size() >= 2) return true;
  const StepWindow& step = timeline.steps.back();
  const model::SliceTable& s = trace.slices;
  // From the step's start: activity that ended before it counts as none
  // (and a trace's times may be anywhere in model/trace_builder.h's range).
  int64_t last_end = step.host_start_ns;
  for (model::SliceId i = 0; i < s.size(); ++i) {
    // Ranges that span the whole step (its marker, the profiler's own) are
    // not activity inside it.
    if (s.ts_ns[i] <= step.host_start_ns && s.end_ns(i) >= step.host_end_ns) continue;
    last_end = std::max(last_end, s.end_ns(i));
  }
  if (last_end > step.host_end_ns) return true;
  // Activity over at least a tenth of the step: 10 * active >= length,
  // without the multiplication (it overflows on times near the range's ends).
  const int64_t active_ns = last_end - step.host_start_ns;
  const int64_t length_ns = step.host_end_ns - step.host_start_ns;
  return active_ns >= length_ns / 10 + (length_ns % 10 != 0);
}

std::vector<Launch> CollectLaunches(const model::Trace& trace) {
  const model::SliceTable& s = trace.slices;
  const model::FlowTable& f = trace.flows;
  // Device op -> the host slice that launched it (the latest, where several
  // did), indexed by the device op: a hash map here was 0.04 s of the 1 GB
  // trace's step detection (1 M launches), on the analysis' one thread.
  constexpr SliceId kNone = std::numeric_limits<SliceId>::max();
  std::vector<SliceId> launcher;
  for (size_t k = 0; k < f.size(); ++k) {
    const model::FlowKind kind = f.kind[k];
    if (kind != model::FlowKind::kLaunch && kind != model::FlowKind::kOpToDevice) continue;
    const SliceId from = f.from[k];
    const SliceId to = f.to[k];
    if (!OnHost(trace, from) || !IsDeviceOp(trace, to)) continue;
    if (launcher.empty()) launcher.assign(s.size(), kNone);
    SliceId& current = launcher[to];
    if (current == kNone || s.ts_ns[from] > s.ts_ns[current]) current = from;
  }
  std::vector<Launch> launches;
  for (SliceId device = 0; device < launcher.size(); ++device) {
    const SliceId host = launcher[device];
    if (host != kNone) launches.push_back({s.ts_ns[host], s.end_ns(host), device});
  }
  // A stream's ops come in launch order: a run per stream, merged.
  base::SortByRuns(launches, [](const Launch& a, const Launch& b) {
    return std::tie(a.host_start_ns, a.device) < std::tie(b.host_start_ns, b.device);
  });
  return launches;
}

}  // namespace perfdx::analysis
