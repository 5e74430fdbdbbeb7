#include "perfdx/analysis/gaps.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "perfdx/analysis/host_activity.h"
#include "perfdx/analysis/runtime_calls.h"
#include "perfdx/analysis/slice_sets.h"
#include "perfdx/base/saturating.h"
#include "perfdx/base/statistics.h"
#include "perfdx/model/slice_cursor.h"

namespace perfdx::analysis {
namespace {

using model::EventKind;
using model::SliceId;

constexpr double kDominant = 0.5;
// Launch overhead: this many runtime calls inside one gap means the host is
// busy feeding the device, one small kernel at a time.
constexpr size_t kManyRuntimeCalls = 8;
// How far to look for a neighbouring function for untraced host time.
constexpr int64_t kNeighbourNs = 1'000'000;

// Python frames and record_function ranges written by the user; CPython's
// "<built-in ...>" frames only wrap framework calls.
bool IsUserCode(const model::Trace& trace, SliceId i) {
  const EventKind k = trace.slices.kind[i];
  if (k == EventKind::kUserAnnotation) return true;
  return k == EventKind::kPythonFunction && trace.slice_name(i).rfind("<built-in", 0) != 0;
}

struct Candidate {
  int64_t overlap_ns = 0;
  int32_t slice = -1;
};

int64_t Overlap(int64_t a0, int64_t a1, int64_t b0, int64_t b1) {
  return std::max<int64_t>(0, std::min(a1, b1) - std::max(a0, b0));
}

// The innermost slice at or above a slice that `keep` accepts, remembered
// for every slice a walk passes: each slice is walked over once per test,
// where a walk up the nesting per gap and sample cost gaps x depth (#17).
class Nearest {
 public:
  Nearest(const model::Trace& trace, std::function<bool(SliceId)> keep)
      : trace_(trace), keep_(std::move(keep)) {}

  int64_t From(int64_t slice) {
    path_.clear();
    int64_t found = -1;
    for (int64_t i = slice; i >= 0; i = trace_.slices.parent[static_cast<SliceId>(i)]) {
      if (auto it = memo_.find(i); it != memo_.end()) {
        found = it->second;
        break;
      }
      if (keep_(static_cast<SliceId>(i))) {
        found = i;
        memo_.emplace(i, i);
        break;
      }
      path_.push_back(i);
    }
    for (int64_t i : path_) memo_.emplace(i, found);
    return found;
  }

 private:
  const model::Trace& trace_;
  std::function<bool(SliceId)> keep_;
  std::unordered_map<int64_t, int64_t> memo_;
  std::vector<int64_t> path_;
};

// The innermost slice of each host thread at a few points spread over a
// gap, found once per gap for every kind of cause looked for, by one cursor
// per thread: the gaps come in time order, so each thread's slices are swept
// once, where a walk up the nesting per gap and point cost gaps x depth (#17).
class GapPoints {
 public:
  static constexpr int kSamples = 5;

  explicit GapPoints(const model::Trace& trace) {
    for (model::TrackId t = 0; t < trace.tracks.size(); ++t) {
      if (trace.tracks[t].kind == model::TrackKind::kHostThread) cursors_.emplace_back(trace, t);
    }
  }

  // For each host thread in track order, the innermost slice (or -1) at
  // each of kSamples points of [start, end).
  const std::vector<int64_t>& Innermost(int64_t start, int64_t end) {
    if (have_ && start == start_ && end == end_) return innermost_;
    have_ = true;
    start_ = start;
    end_ = end;
    innermost_.clear();
    for (model::InnermostSliceCursor& cursor : cursors_) {
      for (int k = 0; k < kSamples; ++k) {
        // Divided first: (end - start) * 9 overflows for gaps past ~10^18 ns.
        innermost_.push_back(cursor.At(start + (end - start) / (2 * kSamples) * (2 * k + 1)));
      }
    }
    return innermost_;
  }

 private:
  std::vector<model::InnermostSliceCursor> cursors_;
  bool have_ = false;
  int64_t start_ = 0;
  int64_t end_ = 0;
  std::vector<int64_t> innermost_;
};

// The innermost slice `nearest` accepts (on any host thread) around a few
// points spread over the gap, preferring the one overlapping the gap most.
Candidate InnermostAround(const model::Trace& trace, GapPoints& points, Nearest& nearest,
                          int64_t start, int64_t end) {
  Candidate best;
  for (const int64_t innermost : points.Innermost(start, end)) {
    if (innermost < 0) continue;
    const int64_t i = nearest.From(innermost);
    if (i < 0) continue;
    const auto s = static_cast<SliceId>(i);
    const int64_t overlap = Overlap(start, end, trace.slices.ts_ns[s], trace.slices.end_ns(s));
    if (overlap > best.overlap_ns) best = {overlap, static_cast<int32_t>(s)};
  }
  return best;
}

// The walks of one FindGaps, one per kind of slice looked for.
struct Searches {
  explicit Searches(const model::Trace& trace)
      : points(trace),
        sync(trace, [&trace](SliceId i) { return IsSyncCall(trace.slice_name(i)); }),
        op(trace, [&trace](SliceId i) { return trace.slices.kind[i] == EventKind::kFrameworkOp; }),
        user(trace, [&trace](SliceId i) { return IsUserCode(trace, i); }),
        host_activity(trace,
                      [&trace](SliceId i) {
                        return ClassifyHostActivity(trace.slices.kind[i], trace.slice_name(i)) !=
                               HostActivity::kNone;
                      }),
        runtime(trace, [&trace](SliceId i) {
          return trace.slices.kind[i] == EventKind::kRuntimeCall &&
                 ClassifyRuntimeCall(trace.slice_name(i)) != RuntimeCallClass::kOther;
        }) {}
  GapPoints points;
  Nearest sync, op, user, host_activity, runtime;
};

// The stalled runtime calls found in one gap.
struct Stall {
  SliceId longest = 0;
  int64_t longest_median_ns = 0;
  int64_t overlap_ns = 0;  // the gap's time inside them (clamped to the gap)
  bool found() const { return overlap_ns > 0; }
};

// The user-code slice ending just before, or starting just after, the gap.
int32_t NeighbouringUserCode(const model::Trace& trace, int64_t start, int64_t end) {
  int32_t best = -1;
  int64_t best_distance = kNeighbourNs;
  const model::SliceTable& s = trace.slices;
  for (const model::Track& track : trace.tracks) {
    if (track.kind != model::TrackKind::kHostThread) continue;
    const auto first = s.ts_ns.begin() + track.slice_begin;
    const auto last = s.ts_ns.begin() + track.slice_end;
    // Slices starting at or after the gap end.
    for (auto it = std::lower_bound(first, last, end); it != last && *it - end < best_distance;
         ++it) {
      const auto i = static_cast<SliceId>(it - s.ts_ns.begin());
      if (IsUserCode(trace, i)) {
        best = static_cast<int32_t>(i), best_distance = *it - end;
        break;
      }
    }
    // Slices ending at or before the gap start (scan back a bounded number).
    auto it = std::upper_bound(first, last, start);
    for (int scanned = 0; it != first && scanned < 256; ++scanned) {
      --it;
      const auto i = static_cast<SliceId>(it - s.ts_ns.begin());
      const int64_t slice_end = s.end_ns(i);
      if (slice_end <= start && start - slice_end < best_distance && IsUserCode(trace, i)) {
        best = static_cast<int32_t>(i), best_distance = start - slice_end;
      }
    }
  }
  return best;
}

GapCause Attribute(const model::Trace& trace, const Activity& a, Searches& searches,
                   const Stall& stall, int64_t start, int64_t end) {
  const auto len = static_cast<double>(end - start);
  auto share = [&](const IntervalSet& set) {
    return static_cast<double>(set.LengthIn(start, end)) / len;
  };
  const model::SliceTable& s = trace.slices;

  const double data_loader = share(a.host_dataloader);
  if (data_loader >= kDominant) return {"data_loader", "", data_loader};

  const double sync = share(a.host_sync);
  if (sync >= kDominant) {
    const Candidate c = InnermostAround(trace, searches.points, searches.sync, start, end);
    return {"synchronization", c.slice >= 0 ? std::string(trace.slice_name(c.slice)) : "", sync};
  }
  // Before the optimizer: its first step allocates the optimizer's state,
  // and a stalled cudaMalloc there is not the optimizer's arithmetic.
  const double stalled = static_cast<double>(stall.overlap_ns) / len;
  const std::string stalled_name =
      stall.found() ? std::string(trace.slice_name(stall.longest)) : "";
  if (stalled >= kDominant) return {"stalled_call", stalled_name, stalled};

  const double optimizer = share(a.host_optimizer);
  if (optimizer >= kDominant) return {"optimizer_step", "", optimizer};

  // Many short calls: the time in stalled ones is not dispatch.
  const double runtime = share(a.host_runtime) - stalled;
  size_t runtime_calls = 0;
  if (runtime >= kDominant) {
    for (const model::Track& track : trace.tracks) {
      if (track.kind != model::TrackKind::kHostThread) continue;
      auto first = s.ts_ns.begin() + track.slice_begin;
      auto last = s.ts_ns.begin() + track.slice_end;
      for (auto it = std::lower_bound(first, last, start); it != last && *it < end; ++it) {
        runtime_calls += s.kind[it - s.ts_ns.begin()] == EventKind::kRuntimeCall;
      }
    }
    if (runtime_calls >= kManyRuntimeCalls) return {"launch_overhead", "", runtime};
  }

  // A framework op covering the gap means the host is dispatching; only
  // time outside ops is the user's own code.
  const Candidate op = InnermostAround(trace, searches.points, searches.op, start, end);
  const double op_share = static_cast<double>(op.overlap_ns) / len;
  if (op.slice >= 0 && op_share >= kDominant) {
    return {"framework_op", std::string(trace.slice_name(op.slice)), op_share};
  }

  const Candidate user = InnermostAround(trace, searches.points, searches.user, start, end);
  const double user_share = static_cast<double>(user.overlap_ns) / len;
  auto user_cause = [&](int32_t slice, double coverage) {
    return GapCause{
        s.kind[slice] == EventKind::kPythonFunction ? "python_function" : "user_annotation",
        std::string(trace.slice_name(slice)), coverage};
  };
  if (user.slice >= 0 && user_share >= kDominant) return user_cause(user.slice, user_share);

  const double untraced = 1.0 - share(a.host_any);
  if (untraced >= kDominant) {
    const int32_t neighbour = NeighbouringUserCode(trace, start, end);
    return {"untraced", neighbour >= 0 ? std::string(trace.slice_name(neighbour)) : "", untraced};
  }

  // No single cause dominates: take the largest.
  std::vector<GapCause> options = {
      {"data_loader", "", data_loader},
      {"synchronization", "", sync},
      {"optimizer_step", "", optimizer},
      {"untraced", "", untraced},
  };
  if (stall.found()) options.push_back({"stalled_call", stalled_name, stalled});
  if (user.slice >= 0) options.push_back(user_cause(user.slice, user_share));
  if (op.slice >= 0)
    options.push_back({"framework_op", std::string(trace.slice_name(op.slice)), op_share});
  if (runtime_calls >= kManyRuntimeCalls) options.push_back({"launch_overhead", "", runtime});
  return *std::max_element(
      options.begin(), options.end(),
      [](const GapCause& x, const GapCause& y) { return x.coverage < y.coverage; });
}

// The logging / printing / file I/O the host is in during the gap: the
// innermost classified Python frame or range covering at least half of it.
std::string HostActivityIn(const model::Trace& trace, Searches& searches, int64_t start,
                           int64_t end) {
  const Candidate c = InnermostAround(trace, searches.points, searches.host_activity, start, end);
  if (c.slice < 0 ||
      static_cast<double>(c.overlap_ns) < kDominant * static_cast<double>(end - start))
    return "";
  const auto i = static_cast<SliceId>(c.slice);
  return std::string(
      HostActivityName(ClassifyHostActivity(trace.slices.kind[i], trace.slice_name(i))));
}

// Median length of each runtime call of the table (runtime_calls.h), by name.
std::map<model::StringId, int64_t> MedianRuntimeCallNs(const model::Trace& trace) {
  std::map<model::StringId, std::vector<int64_t>> by_name;
  const model::SliceTable& s = trace.slices;
  for (SliceId i = 0; i < s.size(); ++i) {
    if (s.kind[i] == EventKind::kRuntimeCall) by_name[s.name[i]].push_back(s.dur_ns[i]);
  }
  // Classified once per name, not per call (a long trace has millions).
  std::map<model::StringId, int64_t> out;
  for (auto& [name, durs] : by_name) {
    if (ClassifyRuntimeCall(trace.strings.Get(name)) != RuntimeCallClass::kOther)
      out[name] = MedianInPlace(durs);
  }
  return out;
}

// The runtime calls of the table around the gap's sample points that took
// kStallFactor times their name's median; none unless together they cover at
// least half of the gap. A name seen once has no median to stall against.
Stall StalledCallsIn(const model::Trace& trace, const std::map<model::StringId, int64_t>& medians,
                     Searches& searches, int64_t start, int64_t end) {
  Stall out;
  if (medians.empty()) return out;
  const model::SliceTable& s = trace.slices;
  std::vector<SliceId> seen;
  for (const int64_t innermost : searches.points.Innermost(start, end)) {
    if (innermost < 0) continue;
    const int64_t found = searches.runtime.From(innermost);
    if (found < 0) continue;
    const auto i = static_cast<SliceId>(found);
    if (std::find(seen.begin(), seen.end(), i) != seen.end()) continue;
    seen.push_back(i);
    const auto median = medians.find(s.name[i]);
    if (median == medians.end() || median->second <= 0 ||
        static_cast<double>(s.dur_ns[i]) < kStallFactor * static_cast<double>(median->second))
      continue;
    if (!out.found() || s.dur_ns[i] > s.dur_ns[out.longest]) {
      out.longest = i;
      out.longest_median_ns = median->second;
    }
    // Calls on several threads may overlap: the stalled time is at most the
    // gap's, clamped as it grows.
    out.overlap_ns +=
        std::min(Overlap(start, end, s.ts_ns[i], s.end_ns(i)), (end - start) - out.overlap_ns);
  }
  if (static_cast<double>(out.overlap_ns) < kDominant * static_cast<double>(end - start)) return {};
  return out;
}

std::string PositionIn(const StepWindow& step, int64_t gap_start, int64_t gap_end) {
  const int64_t third = step.dur_ns() / 3;
  const int64_t mid = gap_start + (gap_end - gap_start) / 2;
  if (mid < step.start_ns + third) return "start";
  if (mid >= step.end_ns - third) return "end";
  return "middle";
}

}  // namespace

GapAnalysis FindGaps(const model::Trace& trace, const Activity& activity,
                     const StepTimeline& timeline, int64_t min_gap_ns) {
  GapAnalysis out;
  out.min_gap_ns = min_gap_ns;
  const std::vector<StepWindow>& steps = timeline.steps;
  const std::map<model::StringId, int64_t> call_medians = MedianRuntimeCallNs(trace);
  std::set<int64_t> stalled_steps;
  Searches searches(trace);
  // What the host does in the short gaps (ShortGapTotals); a CPU-only
  // trace's compute timeline is its host operators: it has no dispatch.
  IntervalSet dispatching, in_optimizer;
  if (!activity.cpu_only && !steps.empty()) {
    const IntervalSet held = Union(activity.host_sync, activity.host_dataloader);
    in_optimizer = Subtract(activity.host_optimizer, held);
    dispatching = Subtract(Subtract(Union(activity.host_framework, activity.host_runtime), held),
                           activity.host_optimizer);
  }
  auto add_short_gap = [&](const Interval& idle, int64_t step) {
    ShortGapTotals& s = out.short_gaps;
    const int64_t dispatch_ns = dispatching.LengthIn(idle.start, idle.end);
    const int64_t optimizer_ns = in_optimizer.LengthIn(idle.start, idle.end);
    ++s.count;
    base::AddSaturating(s.total_ns, idle.length());
    base::AddSaturating(s.dispatch_ns, dispatch_ns);
    base::AddSaturating(s.optimizer_ns, optimizer_ns);
    if (dispatch_ns + optimizer_ns > 0) {
      base::AddSaturating(s.dispatch_and_optimizer_ns_by_step[step], dispatch_ns + optimizer_ns);
    }
    s.dispatch_count += static_cast<double>(dispatch_ns + optimizer_ns) >=
                        kDominant * static_cast<double>(idle.length());
  };
  auto add_gaps = [&](int64_t start, int64_t end, const StepWindow& step, bool between) {
    const IntervalSet idle_set = activity.compute_timeline.GapsIn(start, end);
    for (const Interval& idle : idle_set.intervals()) {
      if (idle.length() < min_gap_ns) {
        if (!between) add_short_gap(idle, step.id);
        continue;
      }
      Gap gap;
      gap.start_ns = idle.start;
      gap.dur_ns = idle.length();
      gap.step = step.id;
      gap.between_steps = between;
      gap.position = between ? "between_steps" : PositionIn(step, idle.start, idle.end);
      const Stall stall = StalledCallsIn(trace, call_medians, searches, idle.start, idle.end);
      gap.cause = Attribute(trace, activity, searches, stall, idle.start, idle.end);
      gap.host_activity = HostActivityIn(trace, searches, idle.start, idle.end);
      if (stall.found()) {
        gap.stalled_call = std::string(trace.slice_name(stall.longest));
        gap.stalled_call_ns = trace.slices.dur_ns[stall.longest];
        gap.stalled_call_median_ns = stall.longest_median_ns;
        gap.stalled_ns = stall.overlap_ns;
        if (IsKernelLaunchCall(gap.stalled_call)) stalled_steps.insert(gap.step);
      }
      base::AddSaturating(out.total_ns, gap.dur_ns);
      out.gaps.push_back(std::move(gap));
    }
  };
  for (size_t k = 0; k < steps.size(); ++k) {
    add_gaps(steps[k].start_ns, steps[k].end_ns, steps[k], false);
    if (k + 1 < steps.size() && steps[k + 1].start_ns > steps[k].end_ns) {
      add_gaps(steps[k].end_ns, steps[k + 1].start_ns, steps[k], true);
    }
  }

  // Recurring groups: same cause, same place, in more than half the steps.
  struct Acc {
    GapGroup group;
    std::set<int64_t> steps;
    double coverage_sum = 0;
  };
  std::map<std::tuple<std::string, std::string, std::string>, Acc> groups;
  for (const Gap& gap : out.gaps) {
    Acc& acc = groups[{gap.cause.kind, gap.cause.name, gap.position}];
    acc.group.cause = gap.cause;
    acc.group.position = gap.position;
    // The group's activity holds only when every gap of it shows it.
    if (acc.group.count == 0) {
      acc.group.host_activity = gap.host_activity;
    } else if (acc.group.host_activity != gap.host_activity) {
      acc.group.host_activity.clear();
    }
    ++acc.group.count;
    base::AddSaturating(acc.group.total_ns, gap.dur_ns);
    acc.steps.insert(gap.step);
    acc.coverage_sum += gap.cause.coverage;
  }
  int64_t step_time = 0;
  for (const StepWindow& step : steps) base::AddSaturating(step_time, step.dur_ns());
  const size_t needed = std::max<size_t>(2, steps.size() / 2 + 1);
  for (auto& [key, acc] : groups) {
    if (acc.steps.size() < needed) continue;
    GapGroup g = acc.group;
    g.steps = acc.steps.size();
    g.cause.coverage = acc.coverage_sum / static_cast<double>(g.count);
    g.mean_dur_ns = g.total_ns / static_cast<int64_t>(g.count);
    g.ns_per_step = steps.empty() ? 0 : g.total_ns / static_cast<int64_t>(steps.size());
    g.share_of_step_time =
        step_time > 0 ? static_cast<double>(g.total_ns) / static_cast<double>(step_time) : 0;
    out.recurring.push_back(std::move(g));
  }
  out.stalled_launch_steps.assign(stalled_steps.begin(), stalled_steps.end());
  std::sort(out.recurring.begin(), out.recurring.end(),
            [](const GapGroup& a, const GapGroup& b) { return a.total_ns > b.total_ns; });
  return out;
}

}  // namespace perfdx::analysis
