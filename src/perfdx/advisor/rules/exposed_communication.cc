// Collectives that run while no compute does: the step waits for them
// (TensorBoard plugin: communication not overlapped > 10% of the step;
// Ascend's step_trace_time.csv "Communication(Not Overlapped)"). This rule
// owns the communication time; communication_share speaks only when the
// communication is large but hidden. Upper bound: the exposed communication
// time per step, all of it run under compute; when the step has less
// compute than communication, overlap alone cannot hide it all, and the
// title says so (and recommends cutting the volume). Prediction: the replay
// with nothing waiting for a collective (replay.h), one remedy of the bound
// (Prediction::one_remedy), so the bound ranks the finding.
//
// Where the collectives' own tasks split their time (Ascend), and most of
// it is idle inside them (CANN: neither the master plane's transfers nor
// its waits), the title says so and names the longest task; the overlap,
// bucket and accumulation fixes, which do not shorten that time, give way
// to how to find what holds the op (tag comm_idle_in_op).
#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "perfdx/advisor/advisor.h"
#include "perfdx/advisor/knobs.h"
#include "perfdx/advisor/rules/rule_util.h"
#include "perfdx/advisor/rules/rules.h"
#include "perfdx/base/saturating.h"

namespace perfdx::advisor {
namespace {

constexpr size_t kMaxContributors = 5;
constexpr size_t kMaxRanges = 5;

class ExposedCommunicationRule final : public Rule {
 public:
  std::string_view id() const override { return "exposed_communication"; }

  void Evaluate(const RuleContext& c, std::vector<Finding>* out) const override {
    const analysis::HealthMetrics& h = c.analysis.summary;
    const Band& band = c.thresholds.comm_not_overlapped_share;
    if (advisor::Evaluate(band, h.comm_not_overlapped_share) == HealthStatus::kHealthy) return;

    const int64_t comm_per_step = PerStepNs(c, h.comm_share);
    int64_t compute_per_step = 0;
    for (const analysis::StepAnalysis& s : c.analysis.steps) {
      base::AddSaturating(compute_per_step, s.device.computing_ns);
    }
    compute_per_step /= static_cast<int64_t>(c.step_count());

    Finding f;
    f.rule = std::string(id());
    f.category = Category::kCommunication;
    f.gain.ns_per_step = PerStepNs(c, h.comm_not_overlapped_share);
    f.gain.share = ShareOfStep(c, f.gain.ns_per_step);
    f.severity = SeverityFor(band, h.comm_not_overlapped_share, f.gain.share);
    const bool too_little_compute = comm_per_step > compute_per_step;
    f.title = fmt::format(
        "Communication runs exposed, with no compute beside it, for {} of the step ({} per step)",
        Pct(h.comm_not_overlapped_share), Ms(f.gain.ns_per_step));
    if (too_little_compute) {
      const double ratio = compute_per_step > 0 ? static_cast<double>(comm_per_step) /
                                                      static_cast<double>(compute_per_step)
                                                : 0;
      f.title +=
          compute_per_step > 0
              ? fmt::format("; it is {:.{}f}x the compute time, so overlap alone cannot hide it",
                            ratio, ratio < 10 ? 1 : 0)
              : "; there is no compute to hide it under";
    }
    const analysis::CommTimeSplit& split = c.analysis.collectives.window_time;
    const bool idle_in_op =
        split.complete() && split.ShareOf(split.idle_ns) > c.thresholds.comm_idle_in_op_share;
    if (idle_in_op) {
      f.title += fmt::format(
          "; {} of the collectives' time is idle inside them, outside their master plane's "
          "transfers ({}) and waits ({})",
          Pct(split.ShareOf(split.idle_ns)), Pct(split.ShareOf(split.transit_ns)),
          Pct(split.ShareOf(split.wait_ns)));
      if (split.longest_task_collective >= 0) {
        const analysis::CollectiveStats& holder =
            c.analysis.collectives.collectives[static_cast<size_t>(split.longest_task_collective)];
        f.title +=
            fmt::format("; the longest task, {} on plane {} of {}, runs {}", holder.longest_task,
                        holder.longest_task_plane, holder.name, Ms(holder.longest_task_ns));
      }
    }
    f.evidence.metric = "comm_not_overlapped_share";
    f.evidence.value = h.comm_not_overlapped_share;
    f.evidence.threshold = band.healthy;
    f.evidence.unit = "share";
    f.evidence.details = {{"comm_share", h.comm_share},
                          {"comm_ns_per_step", static_cast<double>(comm_per_step)},
                          {"compute_ns_per_step", static_cast<double>(compute_per_step)}};
    if (c.analysis.temporal.comm_comp_overlap) {
      f.evidence.details.emplace_back("comm_comp_overlap", *c.analysis.temporal.comm_comp_overlap);
    }
    if (split.complete()) {
      f.evidence.details.emplace_back("comm_transit_share", split.ShareOf(split.transit_ns));
      f.evidence.details.emplace_back("comm_wait_share", split.ShareOf(split.wait_ns));
      f.evidence.details.emplace_back("comm_idle_share", split.ShareOf(split.idle_ns));
    }

    // Where: the longest exposed stretches, and the collectives they belong to.
    // The communication the metric counts as exposed (activity.h), clipped
    // to the window.
    const analysis::IntervalSet exposed =
        Intersect(c.analysis.activity.communication_exposed, c.analysis.window_intervals);
    std::vector<analysis::Interval> longest = exposed.intervals();
    std::sort(longest.begin(), longest.end(),
              [](const analysis::Interval& a, const analysis::Interval& b) {
                return a.length() > b.length();
              });
    if (longest.size() > kMaxRanges) longest.resize(kMaxRanges);
    std::sort(
        longest.begin(), longest.end(),
        [](const analysis::Interval& a, const analysis::Interval& b) { return a.start < b.start; });
    for (const analysis::Interval& iv : longest) f.evidence.ranges.push_back({iv.start, iv.end});

    std::map<std::string_view, int64_t> by_name;
    for (const analysis::CollectiveStats& col : c.analysis.collectives.collectives) {
      if (!col.in_window) continue;
      base::AddSaturating(by_name[col.name],
                          exposed.LengthIn(col.start_ns, col.start_ns + col.dur_ns));
    }
    std::vector<Contributor> contributors;
    const double window_ns = static_cast<double>(c.analysis.window_ns);
    for (const auto& [name, ns] : by_name) {
      contributors.push_back(
          {std::string(name), ns, window_ns > 0 ? static_cast<double>(ns) / window_ns : 0});
    }
    KeepLargest(&contributors, kMaxContributors);
    f.evidence.contributors = std::move(contributors);

    AddTag(&f, "exposed_communication");
    // Device collectives, which the job's cluster section matches across
    // ranks (a CPU job's gloo calls are not among them).
    f.comm_cause = !c.analysis.collectives.collectives.empty();
    if (AllReduceDominates(c.analysis.collectives)) AddTag(&f, "allreduce");
    if (idle_in_op) AddTag(&f, "comm_idle_in_op");
    // An Ascend profile without the HCCL plane tasks (Level0): the split
    // above needs a Level1 profile.
    if (c.info().runtime.platform == model::Platform::kAscend && split.collectives == 0 &&
        split.without_tasks > 0) {
      AddTag(&f, "comm_time_unsplit");
    }
    // What the split says (or that it is missing) first, then the tuning.
    AppendFixes(&f.recommendations, {"locate_comm_idle", "profile_comm_tasks",
                                     "overlap_communication", "ddp_bucket", "fsdp_prefetch"});
    if (too_little_compute) {
      // Less compute than communication: only fewer synchronisations per
      // sample (larger batches, accumulation) can close the rest.
      AppendFixes(&f.recommendations, {"gradient_accumulation"});
    }
    // The overlap fixes replayed: the collectives as they are, with nothing
    // waiting for them. Where the host holds the step (its loop, not the
    // device, ends it), the prediction falls short of the bound. It is one
    // remedy: the bound is also what shortening the collectives (their idle
    // time, fewer of them) could buy, so the bound ranks the finding. Not
    // where the overlap fixes are ruled out (idle inside the collectives),
    // nor for a CPU job's collectives (gloo), which run on the host threads
    // the replay keeps as measured.
    if (c.analysis.replay_graph.collectives > 0 && !idle_in_op) {
      analysis::WhatIf fix;
      fix.remove_communication_wait = true;
      f.what_if = fix;
      f.what_if_one_remedy = true;
    }
    out->push_back(std::move(f));
  }
};

}  // namespace

const Rule& ExposedCommunication() {
  static const ExposedCommunicationRule rule;
  return rule;
}

}  // namespace perfdx::advisor
