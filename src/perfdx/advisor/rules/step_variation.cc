// Step-time jitter and outlier steps, and saw-tooth utilization (the guide:
// "device utilization ... strongly fluctuating", "saw-tooth utilization").
// Gains, what-if: every step as fast as the median step (jitter), and every
// low-utilization step as busy as the high ones (saw-tooth).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "perfdx/advisor/advisor.h"
#include "perfdx/advisor/knobs.h"
#include "perfdx/advisor/rules/rule_util.h"
#include "perfdx/advisor/rules/rules.h"
#include "perfdx/base/saturating.h"

namespace perfdx::advisor {
namespace {

constexpr size_t kMinSteps = 3;
// Consecutive utilization changes that flip sign at least this often.
constexpr double kMinAlternation = 0.7;

// Do idle gaps with a named host cause cover at least half of the outlier
// steps' time above the median?
bool SlowStepsHaveCause(const RuleContext& c) {
  const analysis::StepTimeStats& s = c.analysis.step_time;
  int64_t excess_ns = 0;
  for (const analysis::StepAnalysis& step : c.analysis.steps) {
    if (std::find(s.outlier_steps.begin(), s.outlier_steps.end(), step.window.id) !=
        s.outlier_steps.end()) {
      base::AddSaturating(excess_ns, std::max<int64_t>(0, step.window.dur_ns() - s.median_ns));
    }
  }
  if (excess_ns <= 0) return false;
  int64_t caused_ns = 0;
  for (const analysis::Gap& g : c.analysis.gaps.gaps) {
    const std::string& kind = g.cause.kind;
    const bool named = kind == "data_loader" || kind == "synchronization" ||
                       kind == "optimizer_step" || kind == "python_function" ||
                       kind == "user_annotation";
    if (named && std::find(s.outlier_steps.begin(), s.outlier_steps.end(), g.step) !=
                     s.outlier_steps.end()) {
      base::AddSaturating(caused_ns, g.dur_ns);
    }
  }
  return caused_ns >= excess_ns - caused_ns;  // half or more (2 x may pass int64)
}

// A step whose device work (computing and exposed communication) is within
// this share of the steps' spread of the step time is as long as the device
// makes it; the rest of the variation is idle time.
constexpr double kSteadyWorkShare = 0.25;

// The analysed steps' device work and idle time (the step less that work),
// with the steps where the idle time is least and most.
struct WorkAndIdle {
  int64_t work_min_ns = INT64_MAX, work_max_ns = 0;
  int64_t idle_min_ns = INT64_MAX, idle_max_ns = 0;
  int64_t least_idle_step = 0, most_idle_step = 0;
};

WorkAndIdle MeasureWorkAndIdle(const RuleContext& c) {
  WorkAndIdle w;
  for (const analysis::StepAnalysis& step : c.analysis.steps) {
    const int64_t work = step.device.computing_ns + step.device.communication_not_overlapped_ns;
    const int64_t idle = std::max<int64_t>(0, step.window.dur_ns() - work);
    w.work_min_ns = std::min(w.work_min_ns, work);
    w.work_max_ns = std::max(w.work_max_ns, work);
    if (idle < w.idle_min_ns) {
      w.idle_min_ns = idle;
      w.least_idle_step = step.window.id;
    }
    if (idle > w.idle_max_ns) {
      w.idle_max_ns = idle;
      w.most_idle_step = step.window.id;
    }
  }
  return w;
}

// What the host was doing in the idle time, by the causes that have a rule
// of their own, and what that rule measures of it per step: the dispatch
// (host_bound_dispatch's measure, short gaps included) and the listed gaps
// caused by data loading, syncs and stalled runtime calls.
struct IdleCause {
  const char* what;  // as the title says it
  std::map<int64_t, int64_t> ns_by_step;
};

std::vector<IdleCause> IdleByCause(const RuleContext& c) {
  // The listed gaps' causes with a rule of their own (CauseHasItsOwnRule)
  // other than launch bursts, which the dispatch idle holds.
  struct ListedCause {
    std::string_view kind;
    const char* what;
  };
  static constexpr ListedCause kListed[] = {{"data_loader", "the host waiting for the DataLoader"},
                                            {"synchronization", "the host blocked in device syncs"},
                                            {"stalled_call", "runtime calls that stalled"}};
  std::vector<IdleCause> causes = {
      {"the host dispatching the step", MeasureDispatchIdle(c).by_step}};
  for (const ListedCause& listed : kListed) {
    IdleCause cause{listed.what, {}};
    for (const analysis::Gap& g : c.analysis.gaps.gaps) {
      if (g.cause.kind == listed.kind && !g.between_steps)
        base::AddSaturating(cause.ns_by_step[g.step], g.dur_ns);
    }
    causes.push_back(std::move(cause));
  }
  return causes;
}

// The cause whose idle time grows by at least half of the idle time's
// growth from the least to the most idle step, if one does.
const char* CauseOfIdleSpread(const RuleContext& c, const WorkAndIdle& w) {
  const int64_t spread_ns = w.idle_max_ns - w.idle_min_ns;
  if (spread_ns <= 0) return nullptr;
  const char* best = nullptr;
  int64_t best_growth_ns = 0;
  for (const IdleCause& cause : IdleByCause(c)) {
    const auto at = [&](int64_t step) {
      const auto it = cause.ns_by_step.find(step);
      return it == cause.ns_by_step.end() ? int64_t{0} : it->second;
    };
    const int64_t growth_ns = at(w.most_idle_step) - at(w.least_idle_step);
    if (growth_ns > best_growth_ns) {
      best_growth_ns = growth_ns;
      best = cause.what;
    }
  }
  return best_growth_ns >= spread_ns - best_growth_ns ? best : nullptr;  // half or more
}

// The slowest steps may be warm-up: a first step's one-time costs (modules
// loaded, autotuning, the allocator's growth, communicators set up) are not
// the job's. Are the outlier steps the first one or two analysed?
constexpr size_t kMaxWarmupOutliers = 2;

bool OutliersAreTheFirstSteps(const RuleContext& c) {
  const std::vector<int64_t>& outliers = c.analysis.step_time.outlier_steps;
  const std::vector<analysis::StepAnalysis>& steps = c.analysis.steps;
  if (outliers.empty() || outliers.size() > kMaxWarmupOutliers || outliers.size() >= steps.size()) {
    return false;
  }
  for (size_t k = 0; k < outliers.size(); ++k) {
    if (std::find(outliers.begin(), outliers.end(), steps[k].window.id) == outliers.end()) {
      return false;
    }
  }
  return true;
}

class StepJitterRule final : public Rule {
 public:
  std::string_view id() const override { return "step_jitter"; }

  void Evaluate(const RuleContext& c, std::vector<Finding>* out) const override {
    const analysis::StepTimeStats& s = c.analysis.step_time;
    if (s.count < kMinSteps) return;
    const Band& band = c.thresholds.step_time_cv;
    if (advisor::Evaluate(band, s.cv) == HealthStatus::kHealthy && s.outlier_steps.empty()) return;
    Finding f;
    f.rule = std::string(id());
    f.category = Category::kScheduling;
    f.gain.ns_per_step = std::max<int64_t>(0, s.mean_ns - s.median_ns);
    f.gain.share = ShareOfStep(c, f.gain.ns_per_step);
    f.severity = SeverityFor(band, s.cv, f.gain.share);
    // A CPU-only trace: the host is the device, and its step time moves with
    // the scheduler and the other processes. Unless gaps with a cause (data
    // loading, a sync, a named function) make the slow steps slow, the
    // variation is what was measured, info (issue #10: no warning on runs
    // with no problem).
    if (c.analysis.cpu_only && !SlowStepsHaveCause(c)) f.severity = Severity::kInfo;
    // Slow first steps are warm-up until a profile past it says otherwise:
    // their excess does not recur in the steps the job runs on, so no fix
    // saves it (info, no gain).
    const bool first_steps = OutliersAreTheFirstSteps(c);
    if (first_steps) {
      f.severity = Severity::kInfo;
      f.gain.ns_per_step = 0;
      f.gain.share = 0;
    }
    f.steps = s.outlier_steps;
    std::string outliers;
    for (int64_t id : s.outlier_steps)
      outliers += fmt::format("{}{}", outliers.empty() ? "" : ", ", id);
    f.title =
        fmt::format("Step time varies: CV {:.2f}, {} to {} (median {}){}", s.cv, Ms(s.min_ns),
                    Ms(s.max_ns), Ms(s.median_ns),
                    outliers.empty() ? ""
                                     : fmt::format("; outlier steps {}{}", outliers,
                                                   first_steps ? ", the first analysed" : ""));
    // Where the device's own work is the same in every step, the steps
    // differ by idle time: said, with what the host was doing where one
    // cause explains most of the difference, instead of asking to profile
    // again for a cause already in the trace.
    const WorkAndIdle w = MeasureWorkAndIdle(c);
    const int64_t spread_ns = s.max_ns - s.min_ns;
    const bool steady_work = !c.analysis.cpu_only && w.work_max_ns > 0 && spread_ns > 0 &&
                             static_cast<double>(w.work_max_ns - w.work_min_ns) <=
                                 kSteadyWorkShare * static_cast<double>(spread_ns);
    const char* cause = steady_work ? CauseOfIdleSpread(c, w) : nullptr;
    if (steady_work) {
      const std::string work =
          Ms(w.work_min_ns) == Ms(w.work_max_ns)
              ? fmt::format("{} every step", Ms(w.work_min_ns))
              : fmt::format("{} to {} a step", Ms(w.work_min_ns), Ms(w.work_max_ns));
      f.title += fmt::format(
          "; the device's own work is steady ({}) and its idle time is not ({} in step {} to {} "
          "in step {}){}",
          work, Ms(w.idle_min_ns), w.least_idle_step, Ms(w.idle_max_ns), w.most_idle_step,
          cause != nullptr ? fmt::format(": most of the difference is {}", cause) : "");
    }
    f.evidence.metric = "step_time_cv";
    f.evidence.value = s.cv;
    f.evidence.threshold = band.healthy;
    f.evidence.unit = "ratio";
    f.evidence.details = {{"mean_ns", static_cast<double>(s.mean_ns)},
                          {"median_ns", static_cast<double>(s.median_ns)},
                          {"p90_ns", static_cast<double>(s.p90_ns)}};
    if (steady_work) {
      f.evidence.details.insert(f.evidence.details.end(),
                                {{"device_work_min_ns", static_cast<double>(w.work_min_ns)},
                                 {"device_work_max_ns", static_cast<double>(w.work_max_ns)},
                                 {"idle_min_ns", static_cast<double>(w.idle_min_ns)},
                                 {"idle_max_ns", static_cast<double>(w.idle_max_ns)},
                                 {"least_idle_step", static_cast<double>(w.least_idle_step)},
                                 {"most_idle_step", static_cast<double>(w.most_idle_step)}});
    }
    for (const analysis::StepAnalysis& step : c.analysis.steps) {
      for (int64_t id : s.outlier_steps) {
        if (step.window.id == id)
          f.evidence.ranges.push_back({step.window.start_ns, step.window.end_ns});
      }
    }
    // Host noise (other processes, interrupts, unpinned threads) and
    // per-step host work are the usual sources.
    // Host contention is shown only by kernel launches that stalled while
    // the device idled (gaps.h), in an outlier step or in two steps at least;
    // per-step host work only by synchronizations inside the slow steps.
    // A cause the trace shows has its own rule and fixes: nothing to
    // profile for.
    f.host_cause = cause == nullptr;
    const std::vector<int64_t>& stalled = c.analysis.gaps.stalled_launch_steps;
    const auto in_outlier = [&](int64_t step) {
      return std::find(s.outlier_steps.begin(), s.outlier_steps.end(), step) !=
             s.outlier_steps.end();
    };
    if (std::any_of(stalled.begin(), stalled.end(), in_outlier) || stalled.size() >= 2) {
      AddTag(&f, "host_contention");
      f.evidence.details.emplace_back("steps_with_stalled_launches",
                                      static_cast<double>(stalled.size()));
    }
    for (const analysis::Gap& g : c.analysis.gaps.gaps) {
      if (g.cause.kind == "synchronization" && (s.outlier_steps.empty() || in_outlier(g.step))) {
        AddTag(&f, "host_sync");
        break;
      }
    }
    if (first_steps) AddTag(&f, "first_steps_slow");
    AppendFixes(&f.recommendations,
                {"cpu_binding", "host_tuning", "avoid_host_sync", "profile_past_warmup"});
    out->push_back(std::move(f));
  }
};

class SawtoothUtilizationRule final : public Rule {
 public:
  std::string_view id() const override { return "sawtooth_utilization"; }

  void Evaluate(const RuleContext& c, std::vector<Finding>* out) const override {
    const std::vector<analysis::StepAnalysis>& steps = c.analysis.steps;
    if (steps.size() < 4) return;
    // Every consecutive change must be a real swing (at least half the
    // amplitude threshold) and the swings must alternate: up, down, up...
    // One slow step among steady ones is an outlier (step_jitter), not this.
    const double min_swing = c.thresholds.sawtooth_amplitude / 2;
    size_t flips = 0;
    double amplitude = 0;
    for (size_t k = 1; k < steps.size(); ++k) {
      const double d = steps[k].health.device_utilization - steps[k - 1].health.device_utilization;
      if (std::fabs(d) < min_swing) return;
      amplitude += std::fabs(d);
      if (k >= 2) {
        const double prev =
            steps[k - 1].health.device_utilization - steps[k - 2].health.device_utilization;
        flips += (d > 0) != (prev > 0);
      }
    }
    amplitude /= static_cast<double>(steps.size() - 1);
    const double alternation = static_cast<double>(flips) / static_cast<double>(steps.size() - 2);
    if (alternation < kMinAlternation || amplitude < c.thresholds.sawtooth_amplitude) return;

    double high = 0;
    for (const auto& s : steps) high = std::max(high, s.health.device_utilization);
    int64_t lost_ns = 0;
    for (const auto& s : steps)
      base::AddSaturating(lost_ns, static_cast<int64_t>((high - s.health.device_utilization) *
                                                        static_cast<double>(s.window.dur_ns())));
    Finding f;
    f.rule = std::string(id());
    f.category = Category::kScheduling;
    f.gain.ns_per_step = lost_ns / static_cast<int64_t>(steps.size());
    f.gain.share = ShareOfStep(c, f.gain.ns_per_step);
    f.severity = f.gain.share >= 0.05 ? Severity::kWarning : Severity::kInfo;
    f.title = fmt::format("Device utilization saw-tooths between steps (mean swing {} per step)",
                          Pct(amplitude));
    f.evidence.metric = "utilization_swing";
    f.evidence.value = amplitude;
    f.evidence.threshold = c.thresholds.sawtooth_amplitude;
    f.evidence.unit = "share";
    f.evidence.details = {{"alternation", alternation}};
    f.host_cause = true;
    for (const analysis::Gap& g : c.analysis.gaps.gaps) {
      if (g.cause.kind == "data_loader") {
        AddTag(&f, "data_loader_wait");
        break;
      }
    }
    AppendFixes(&f.recommendations, {"dataloader_parallel", "overlap_communication"});
    out->push_back(std::move(f));
  }
};

}  // namespace

const Rule& StepJitter() {
  static const StepJitterRule rule;
  return rule;
}

const Rule& SawtoothUtilization() {
  static const SawtoothUtilizationRule rule;
  return rule;
}

}  // namespace perfdx::advisor
