#include "perfdx/analysis/replay.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <optional>
#include <unordered_map>

#include <fmt/format.h>

#include "perfdx/base/saturating.h"
#include "perfdx/base/statistics.h"

namespace perfdx::analysis {
namespace {

constexpr int64_t kNoTime = std::numeric_limits<int64_t>::min();
constexpr double kMaxSpeedup = 1000;

std::string Factor(double f) {
  return fmt::format("{:g}", f);
}

int64_t Scaled(int64_t dur_ns, double speedup) {
  return speedup == 1 ? dur_ns : static_cast<int64_t>(std::llround(dur_ns / speedup));
}

int64_t ReplayedDuration(const ReplayDeviceOp& op, const WhatIf& w) {
  if (w.remove_layout_conversions && (op.flags & kReplayLayoutConversion)) return 0;
  int64_t dur = op.dur_ns;
  if (op.flags & kReplayFp32Matrix) dur = Scaled(dur, w.fp32_matrix_speedup);
  if (op.flags & kReplayMatrix) dur = Scaled(dur, w.matrix_speedup);
  if (op.flags & kReplayCommunication) dur = Scaled(dur, w.communication_speedup);
  return dur;
}

// Replayed host span starts/ends and device op ends of one run.
struct Times {
  std::vector<int64_t> host_start, host_end, device_start, device_end;
};

using Intervals = std::vector<std::pair<int64_t, int64_t>>;

// Sorted and merged: disjoint, by start (so by end too).
Intervals Merged(Intervals in) {
  std::sort(in.begin(), in.end());
  Intervals out;
  for (const auto& [a, b] : in) {
    if (b <= a) continue;
    if (!out.empty() && a <= out.back().second) {
      out.back().second = std::max(out.back().second, b);
    } else {
      out.emplace_back(a, b);
    }
  }
  return out;
}

// Each step's dispatch: the host inside framework operators or runtime
// calls (ReplayGraph::dispatch_cover) from its first launch's start to its
// last launch's end, less the syncs, blocking copies, data loading and the
// host work kept (WhatIf::kept_host_ns) inside it: those stay (a captured
// graph cannot hold a sync, and the loader, untraced code and work of
// another cause are not shown to be dispatch).
void AddDispatch(const ReplayGraph& g, const Intervals& kept_host_ns, Intervals* out) {
  Intervals region(g.markers.size(), {std::numeric_limits<int64_t>::max(), kNoTime});
  for (const ReplayDeviceOp& op : g.device) {
    if (op.launch == kNoNode || op.step == kNoNode) continue;
    const ReplayHostSpan& launch = g.host[op.launch];
    region[op.step].first = std::min(region[op.step].first, launch.start_ns);
    region[op.step].second = std::max(region[op.step].second, launch.end_ns);
  }
  Intervals kept = kept_host_ns;
  for (const ReplayHostSpan& span : g.host) {
    if (span.kind == ReplayHostKind::kSync || span.kind == ReplayHostKind::kDataLoading ||
        span.awaited != kNoNode) {
      kept.emplace_back(span.start_ns, span.end_ns);
    }
  }
  kept = Merged(std::move(kept));
  // [from, to) of a region, outside what is kept: its dispatch only.
  auto add_covered = [&](int64_t from, int64_t to) {
    const IntervalSet covered = g.dispatch_cover.Clip(from, to);
    for (const Interval& c : covered.intervals()) out->emplace_back(c.start, c.end);
  };
  for (const auto& [a, b] : region) {
    if (b <= a) continue;
    int64_t from = a;
    auto it = std::upper_bound(kept.begin(), kept.end(), a,
                               [](int64_t t, const auto& k) { return t < k.second; });
    for (; it != kept.end() && it->first < b; ++it) {
      if (from < it->first) add_covered(from, it->first);
      from = std::max(from, it->second);
    }
    if (from < b) add_covered(from, b);
  }
}

// The host time the fixes remove: merged, by start.
Intervals Removals(const ReplayGraph& g, const WhatIf& w) {
  Intervals in = w.removed_host_ns;
  if (w.remove_data_loading) {
    for (const ReplayHostSpan& span : g.host) {
      if (span.kind == ReplayHostKind::kDataLoading) in.emplace_back(span.start_ns, span.end_ns);
    }
  }
  if (w.remove_launch_overhead) AddDispatch(g, w.kept_host_ns, &in);
  return Merged(std::move(in));
}

// With remove_communication_wait: what each op depends on in place of a
// collective. For a collective, the op its stream's order reaches first
// that is not one (kNoNode: none); an op queued behind collectives then
// follows that op instead.
std::vector<int32_t> BeforeCollectives(const ReplayGraph& g) {
  std::vector<int32_t> before(g.device.size(), kNoNode);
  for (size_t k = 0; k < g.device.size(); ++k) {
    const ReplayDeviceOp& op = g.device[k];
    if (!(op.flags & kReplayCommunication)) {
      before[k] = static_cast<int32_t>(k);
    } else if (op.stream_prev != kNoNode) {
      before[k] = before[op.stream_prev];  // stream_prev < k: already set
    }
  }
  return before;
}

bool IsCollective(const ReplayGraph& g, int32_t op) {
  return op != kNoNode && (g.device[op].flags & kReplayCommunication);
}

Times Sweep(const ReplayGraph& g, const WhatIf& w, const std::vector<CollectiveJoin>& joins) {
  const ReplayParams& p = g.params;
  // The join of each device op (-1: none), dense for the sweep.
  std::vector<int32_t> join_of;
  if (!joins.empty()) {
    join_of.assign(g.device.size(), -1);
    for (size_t j = 0; j < joins.size(); ++j) join_of[joins[j].op] = static_cast<int32_t>(j);
  }
  Times t;
  t.host_start.assign(g.host.size(), 0);
  t.host_end.assign(g.host.size(), 0);
  t.device_start.assign(g.device.size(), 0);
  t.device_end.assign(g.device.size(), 0);
  const std::vector<int32_t>& by_end = g.host_by_end;
  const Intervals removals = Removals(g, w);
  const bool free_of_collectives = w.remove_communication_wait;
  const std::vector<int32_t> before =
      free_of_collectives ? BeforeCollectives(g) : std::vector<int32_t>{};
  // The op a host call waited for, kNoNode where the fix frees it.
  auto awaited_of = [&](const ReplayHostSpan& span) {
    return free_of_collectives && IsCollective(g, span.awaited) ? kNoNode : span.awaited;
  };

  int64_t shift = 0;
  // A removal in progress: every host instant before `collapse_until` maps
  // to `collapse_to`, the replayed time of the removal's start.
  int64_t collapse_until = kNoTime;
  int64_t collapse_to = 0;
  auto map = [&](int64_t measured) {
    return measured < collapse_until ? collapse_to : measured + shift;
  };

  size_t hs = 0, he = 0, dv = 0, rm = 0;
  bool in_removal = false;
  const int64_t kEnd = std::numeric_limits<int64_t>::max();
  while (hs < g.host.size() || he < by_end.size() || dv < g.device.size()) {
    const int64_t ts = hs < g.host.size() ? g.host[hs].start_ns : kEnd;
    const int64_t te = he < by_end.size() ? g.host[by_end[he]].end_ns : kEnd;
    const int64_t td = dv < g.device.size() ? g.device[dv].start_ns : kEnd;
    const int64_t tr =
        rm < removals.size() ? (in_removal ? removals[rm].second : removals[rm].first) : kEnd;
    if (tr <= te && tr <= ts && tr <= td && tr != kEnd) {
      // A removal begins or ends, before anything else at that instant.
      if (!in_removal) {
        collapse_to = map(tr);
        collapse_until = removals[rm].second;
        in_removal = true;
      } else {
        shift = collapse_to - tr;
        collapse_until = kNoTime;
        in_removal = false;
        ++rm;
      }
    } else if (te <= ts && te <= td) {
      // A span ends (before anything starting at the same instant).
      const int32_t h = by_end[he++];
      const ReplayHostSpan& span = g.host[h];
      if (span.end_ns < collapse_until) {
        t.host_end[h] = collapse_to;
      } else if (span.kind == ReplayHostKind::kLaunch && span.awaited != kNoNode) {
        // A blocking copy's call: its own cost after the op it waited for.
        const int32_t awaited = awaited_of(span);
        const int64_t end =
            (awaited == kNoNode ? t.host_start[h]
                                : std::max(t.host_start[h], t.device_end[awaited])) +
            span.after_awaited_ns;
        t.host_end[h] = end;
        shift = end - span.end_ns;
      } else if (span.kind == ReplayHostKind::kSync) {
        const int32_t awaited = awaited_of(span);
        int64_t end = t.host_start[h] + (span.end_ns - span.start_ns);  // found the device idle
        if (awaited != kNoNode) {
          end =
              std::max(t.host_start[h] + p.sync_floor_ns, t.device_end[awaited] + p.sync_return_ns);
        } else if (span.awaited != kNoNode) {
          end = t.host_start[h] + p.sync_floor_ns;  // freed from its collective: a sync's own cost
        }
        end = std::max(end, t.host_start[h]);
        t.host_end[h] = end;
        shift = end - span.end_ns;
      } else {
        t.host_end[h] = std::max(t.host_start[h], span.end_ns + shift);
      }
    } else if (ts <= td) {
      const int32_t h = static_cast<int32_t>(hs++);
      t.host_start[h] = map(g.host[h].start_ns);
    } else {
      const size_t k = dv++;
      const ReplayDeviceOp& op = g.device[k];
      int64_t ready =
          op.launch != kNoNode ? t.host_start[op.launch] + p.launch_latency_ns : map(op.start_ns);
      int32_t prev = op.stream_prev;
      int32_t waits_for = op.waits_for;
      if (free_of_collectives && !(op.flags & kReplayCommunication)) {
        if (prev != kNoNode) prev = before[prev];
        if (IsCollective(g, waits_for)) waits_for = kNoNode;
      }
      if (prev != kNoNode) ready = std::max(ready, t.device_end[prev] + p.queue_gap_ns);
      if (waits_for != kNoNode) ready = std::max(ready, t.device_end[waits_for] + p.queue_gap_ns);
      t.device_start[k] = ready;
      const int32_t j = join_of.empty() ? -1 : join_of[k];
      t.device_end[k] = j < 0 ? ready + ReplayedDuration(op, w)
                              : std::max(ready + joins[j].transfer_ns, joins[j].end_floor_ns);
    }
  }
  return t;
}

// Step windows on given times, by steps.h's rule: a marker extended to the
// end of the device work it launched, never before the previous one's end;
// the first after the work still draining from before it.
std::unordered_map<int64_t, int64_t> WindowLengths(const ReplayGraph& g,
                                                   const std::vector<int64_t>& host_start,
                                                   const std::vector<int64_t>& host_end,
                                                   const std::vector<int64_t>& device_end) {
  const size_t n = g.markers.size();
  std::vector<int64_t> dev_end(n, kNoTime);
  std::vector<uint32_t> dev_ops(n, 0);
  for (size_t k = 0; k < g.device.size(); ++k) {
    const int32_t m = g.device[k].step;
    if (m == kNoNode) continue;
    dev_end[m] = std::max(dev_end[m], device_end[k]);
    ++dev_ops[m];
  }
  std::unordered_map<int64_t, int64_t> out;
  if (n == 0) return out;
  int64_t prev_end = host_start[g.markers[0].host];
  if (dev_ops[0] > 0) {
    for (int32_t k : g.drain_ops) prev_end = std::max(prev_end, device_end[k]);
  }
  for (size_t i = 0; i < n; ++i) {
    const int32_t h = g.markers[i].host;
    const int64_t start = std::max(prev_end, host_start[h]);
    int64_t end = dev_ops[i] > 0 ? std::max(host_end[h], dev_end[i]) : std::max(host_end[h], start);
    end = std::max(end, start);
    out.emplace(g.markers[i].id, end - start);
    prev_end = end;
  }
  return out;
}

}  // namespace

std::string WhatIf::Describe() const {
  std::vector<std::string> parts;
  if (remove_data_loading) parts.push_back("remove data-loading");
  if (remove_layout_conversions) parts.push_back("remove layout-conversion");
  if (remove_launch_overhead) parts.push_back("remove launch-overhead");
  if (remove_communication_wait) parts.push_back("remove communication-wait");
  if (!removed_host_ns.empty()) {
    parts.push_back(fmt::format("remove {} host interval{}", removed_host_ns.size(),
                                removed_host_ns.size() == 1 ? "" : "s"));
  }
  if (fp32_matrix_speedup != 1)
    parts.push_back("speedup fp32-matrix=" + Factor(fp32_matrix_speedup));
  if (matrix_speedup != 1) parts.push_back("speedup matrix=" + Factor(matrix_speedup));
  if (communication_speedup != 1) {
    parts.push_back("speedup communication=" + Factor(communication_speedup));
  }
  if (parts.empty()) return "none";
  std::string out = parts[0];
  for (size_t i = 1; i < parts.size(); ++i) out += ", " + parts[i];
  return out;
}

WhatIf Combined(const WhatIf& a, const WhatIf& b) {
  WhatIf out = a;
  out.remove_data_loading |= b.remove_data_loading;
  out.remove_layout_conversions |= b.remove_layout_conversions;
  out.remove_launch_overhead |= b.remove_launch_overhead;
  out.remove_communication_wait |= b.remove_communication_wait;
  out.fp32_matrix_speedup = std::max(a.fp32_matrix_speedup, b.fp32_matrix_speedup);
  out.matrix_speedup = std::max(a.matrix_speedup, b.matrix_speedup);
  out.communication_speedup = std::max(a.communication_speedup, b.communication_speedup);
  out.removed_host_ns.insert(out.removed_host_ns.end(), b.removed_host_ns.begin(),
                             b.removed_host_ns.end());
  out.kept_host_ns.insert(out.kept_host_ns.end(), b.kept_host_ns.begin(), b.kept_host_ns.end());
  return out;
}

Status AddRemoval(std::string_view what, WhatIf* what_if) {
  if (what == "data-loading") {
    what_if->remove_data_loading = true;
  } else if (what == "layout-conversion") {
    what_if->remove_layout_conversions = true;
  } else if (what == "launch-overhead") {
    what_if->remove_launch_overhead = true;
  } else if (what == "communication-wait") {
    what_if->remove_communication_wait = true;
  } else {
    return InvalidInput(
        fmt::format("--remove {}: not a removable cause (data-loading, layout-conversion, "
                    "launch-overhead, communication-wait)",
                    what));
  }
  return Status::Ok();
}

Status AddSpeedup(std::string_view spec, WhatIf* what_if) {
  const size_t eq = spec.find('=');
  const std::string_view what = spec.substr(0, eq);
  double* factor = what == "fp32-matrix"     ? &what_if->fp32_matrix_speedup
                   : what == "matrix"        ? &what_if->matrix_speedup
                   : what == "communication" ? &what_if->communication_speedup
                                             : nullptr;
  if (eq == std::string_view::npos || factor == nullptr) {
    return InvalidInput(
        fmt::format("--speedup {}: expected fp32-matrix=F, matrix=F or communication=F", spec));
  }
  const std::string number(spec.substr(eq + 1));
  char* end = nullptr;
  const double f = std::strtod(number.c_str(), &end);
  // A slowdown at most as large as the largest speedup: kMaxReplayedWorkNs
  // counts on it.
  if (number.empty() || end != number.c_str() + number.size() || !std::isfinite(f) ||
      f < 1 / kMaxSpeedup || f > kMaxSpeedup) {
    return InvalidInput(fmt::format("--speedup {}: the factor must be a number from {:g} to {:g}",
                                    spec, 1 / kMaxSpeedup, kMaxSpeedup));
  }
  *factor = f;
  return Status::Ok();
}

namespace {

// The analysed steps beside their lengths on the given times.
ReplayRun RunOf(const std::vector<StepWindow>& steps,
                const std::unordered_map<int64_t, int64_t>& replayed) {
  ReplayRun run;
  int64_t measured_sum = 0, replayed_sum = 0;
  for (const StepWindow& w : steps) {
    const auto it = replayed.find(w.id);
    if (it == replayed.end()) continue;
    run.steps.push_back({w.id, w.dur_ns(), it->second});
    base::AddSaturating(measured_sum, w.dur_ns());
    base::AddSaturating(replayed_sum, it->second);
  }
  if (!run.steps.empty()) {
    const auto n = static_cast<int64_t>(run.steps.size());
    run.measured_mean_ns = measured_sum / n;
    run.replayed_mean_ns = replayed_sum / n;
  }
  return run;
}

// A graph the sweep can lay out: built, and its work within kMaxReplayedWorkNs.
bool Simulable(const ReplayGraph& graph) {
  return graph.built && graph.work_ns <= kMaxReplayedWorkNs;
}

}  // namespace

ReplayRun Replay(const ReplayGraph& graph, const std::vector<StepWindow>& steps,
                 const WhatIf& what_if) {
  if (!Simulable(graph)) return {};
  const Times t = Sweep(graph, what_if, {});
  return RunOf(steps, WindowLengths(graph, t.host_start, t.host_end, t.device_end));
}

JoinedRun ReplayJoined(const ReplayGraph& graph, const std::vector<StepWindow>& steps,
                       const WhatIf& what_if, const std::vector<CollectiveJoin>& joins) {
  JoinedRun out;
  if (!Simulable(graph)) return out;
  const Times t = Sweep(graph, what_if, joins);
  out.run = RunOf(steps, WindowLengths(graph, t.host_start, t.host_end, t.device_end));
  for (const CollectiveJoin& j : joins) out.arrival_ns.push_back(t.device_start[j.op]);
  return out;
}

std::vector<ReplayedStep> RebuiltWindows(const ReplayGraph& graph,
                                         const std::vector<StepWindow>& steps) {
  if (!graph.built) return {};
  std::vector<int64_t> host_start, host_end, device_end;
  for (const ReplayHostSpan& h : graph.host) {
    host_start.push_back(h.start_ns);
    host_end.push_back(h.end_ns);
  }
  for (const ReplayDeviceOp& op : graph.device) device_end.push_back(op.end_ns());
  return RunOf(steps, WindowLengths(graph, host_start, host_end, device_end)).steps;
}

ReplayCheck CheckReplay(const ReplayGraph& graph, const std::vector<StepWindow>& steps,
                        bool complete_steps) {
  ReplayCheck check;
  if (!graph.built) {
    check.why_not = "no ProfilerStep markers: no step to replay";
    return check;
  }
  if (!complete_steps) {
    check.why_not = "no complete step";
    return check;
  }
  if (!Simulable(graph)) {
    check.why_not = fmt::format(
        "its device ops and host spans add up to {:.3g} s, more than the {:.3g} s the replay "
        "lays out",
        static_cast<double>(graph.work_ns) / 1e9, static_cast<double>(kMaxReplayedWorkNs) / 1e9);
    return check;
  }
  return CheckOfRun(graph, Replay(graph, steps, WhatIf{}));
}

ReplayCheck CheckOfRun(const ReplayGraph& graph, ReplayRun unchanged) {
  ReplayCheck check;
  check.run = std::move(unchanged);
  if (check.run.steps.empty()) {
    check.why_not = "no analysed step has a marker";
    return check;
  }
  check.available = true;
  check.params = graph.params;
  check.inferred_waits = graph.inferred_waits;
  std::vector<double> errors;
  for (const ReplayedStep& s : check.run.steps) errors.push_back(std::abs(s.error()));
  check.max_abs_error = *std::max_element(errors.begin(), errors.end());
  check.median_abs_error = MedianInPlace(errors);
  return check;
}

Prediction PredictionOf(const ReplayCheck& check, const WhatIf& what_if,
                        const std::optional<ReplayRun>& fixed) {
  Prediction p;
  p.what_if = what_if.Describe();
  // A fix replayed over the same steps as the check (none where it lost one).
  if (!check.available || !fixed || fixed->steps.size() != check.run.steps.size()) return p;
  p.available = true;
  p.gain_ns_per_step = check.run.replayed_mean_ns - fixed->replayed_mean_ns;
  p.predicted_step_ns = check.run.measured_mean_ns - p.gain_ns_per_step;
  p.gain_share = ShareOf(p.gain_ns_per_step, check.run.measured_mean_ns);
  p.replay_error = check.median_abs_error;
  p.within_model_error = std::abs(p.gain_share) < check.median_abs_error;
  for (size_t i = 0; i < fixed->steps.size(); ++i) {
    const ReplayedStep& s = check.run.steps[i];
    const int64_t with_fix = fixed->steps[i].replayed_ns;
    p.steps.push_back(
        {s.id, s.measured_ns, s.replayed_ns, with_fix, s.measured_ns - (s.replayed_ns - with_fix)});
  }
  return p;
}

Prediction Predict(const ReplayGraph& graph, const std::vector<StepWindow>& steps,
                   const ReplayCheck& check, const WhatIf& what_if,
                   const std::optional<WhatIf>& low) {
  if (!check.available) return PredictionOf(check, what_if, std::nullopt);
  Prediction p = PredictionOf(check, what_if, Replay(graph, steps, what_if));
  if (p.available && low) {
    const Prediction low_p = PredictionOf(check, *low, Replay(graph, steps, *low));
    if (low_p.available) {
      p.has_range = true;
      p.low_what_if = low_p.what_if;
      p.low_gain_ns_per_step = low_p.gain_ns_per_step;
      p.low_gain_share = low_p.gain_share;
    }
  }
  return p;
}

WhatIf HostRemoved() {
  WhatIf w;
  w.remove_launch_overhead = true;
  w.remove_data_loading = true;
  return w;
}

bool DeviceSideOnly(const WhatIf& w) {
  const bool device = w.remove_layout_conversions || w.fp32_matrix_speedup != 1 ||
                      w.matrix_speedup != 1 || w.communication_speedup != 1;
  const bool host = w.remove_data_loading || w.remove_launch_overhead ||
                    w.remove_communication_wait || !w.removed_host_ns.empty();
  return device && !host;
}

void PredictBeyondHost(const ReplayGraph& graph, const std::vector<StepWindow>& steps,
                       const ReplayCheck& check, const WhatIf& what_if, const WhatIf& host_removed,
                       const Prediction& host_only, Prediction* p) {
  if (!p->available || !host_only.available || !DeviceSideOnly(what_if)) return;
  const WhatIf both = Combined(what_if, host_removed);
  const Prediction with_both = Predict(graph, steps, check, both);
  if (!with_both.available) return;
  const int64_t beyond = with_both.gain_ns_per_step - host_only.gain_ns_per_step;
  const double share = ShareOf(beyond, check.run.measured_mean_ns);
  // Worth saying only past the model's error and 1% of the step.
  constexpr double kMinExtraShare = 0.01;
  if (share - std::max(p->gain_share, 0.0) <= std::max(check.median_abs_error, kMinExtraShare)) {
    return;
  }
  p->has_beyond_host = true;
  p->beyond_host_gain_ns_per_step = beyond;
  p->beyond_host_gain_share = share;
  p->host_alone_gain_ns_per_step = host_only.gain_ns_per_step;
  p->host_alone_gain_share = host_only.gain_share;
}

}  // namespace perfdx::analysis
