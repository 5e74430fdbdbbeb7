// AI Core frequency drops (../shared/docs/ascend-advisor_rules.md, row 11;
// msprof-analyze ai_core_freq_checker): the "AI Core Freq" counter
// (trace_view.json, DB AICORE_FREQ; MHz) below the rated frequency while
// AI_CORE / MIX_AIC operators run — thermal or power throttling. Per
// operator name: decrease_ratio = sum(max - f_i) / (max x n) over its n
// tasks, f_i the lowest frequency sample in force during task i; an issue
// when >= ai_core_freq_drop_ratio (0.05, config.ini frequency_threshold).
//
// A sample is in force from its timestamp to the next sample's. msprof
// takes, per task, the lowest sample from the previous AI Core task's end to
// this task's end; perfdx takes the samples in force during the task
// itself, so a drop between two tasks is not charged to the second. The
// rated frequency "max" is msprof's info.json aic_frequency where the
// profile has it (RankAnalysis::ascend_profile.rated_ai_core_mhz), raised to the
// highest sample if a sample exceeds it (torch_npu profiles carry no
// info.json: the device frequency is then the counter's first sample).
//
// Gain: the what-if in which the flagged operators' tasks ran at the rated
// frequency: each task would take dur x f_i / max, saving dur x (1 - f_i /
// max). An upper bound: memory-bound tasks do not speed up with the clock.
#include <algorithm>
#include <limits>
#include <map>

#include <fmt/format.h>

#include "perfdx/advisor/knobs.h"
#include "perfdx/advisor/rules/rule_util.h"
#include "perfdx/advisor/rules/rules.h"
#include "perfdx/base/saturating.h"

namespace perfdx::advisor {
namespace {

constexpr size_t kMaxContributors = 10;  // msprof shows the top 10

using Sample = analysis::ClockSample;

// The lowest frequency in force during [start, end): the sample active at
// start and every sample taken before end.
double LowestDuring(const std::vector<Sample>& s, int64_t start, int64_t end) {
  auto it = std::upper_bound(s.begin(), s.end(), start,
                             [](int64_t ts, const Sample& x) { return ts < x.ts_ns; });
  if (it != s.begin()) --it;  // the sample in force at `start`
  double low = it->mhz;
  for (++it; it != s.end() && it->ts_ns < end; ++it) low = std::min(low, it->mhz);
  return low;
}

class AiCoreFreqRule final : public Rule {
 public:
  std::string_view id() const override { return "ai_core_freq_drop"; }

  void Evaluate(const RuleContext& c, std::vector<Finding>* out) const override {
    if (c.info().device_type != model::DeviceType::kNpu) return;
    const analysis::AscendOperators& operators = c.analysis.ascend_operators;
    const std::vector<Sample>& samples = operators.ai_core_freq;
    if (samples.empty()) return;
    double rated = c.analysis.ascend_profile.rated_ai_core_mhz;
    for (const Sample& s : samples) rated = std::max(rated, s.mhz);
    if (rated <= 0) return;

    struct PerOp {
      uint64_t tasks = 0;
      double drop_sum = 0;  // sum of (rated - f_i)
      int64_t ns = 0;
      double saved_ns = 0;
      double lowest = std::numeric_limits<double>::infinity();
    };
    std::map<std::string_view, PerOp> ops;
    for (const analysis::AscendComputeTask& task : operators.compute_tasks) {
      if (task.task_type != "AI_CORE" && task.task_type != "MIX_AIC") continue;
      const int64_t end_ns = task.ts_ns + task.dur_ns;
      if (samples.front().ts_ns >= end_ns) continue;  // no sample in force yet
      const double f = LowestDuring(samples, task.ts_ns, std::max(end_ns, task.ts_ns + 1));
      PerOp& op = ops[task.name];
      ++op.tasks;
      op.drop_sum += rated - f;
      base::AddSaturating(op.ns, task.dur_ns);
      op.saved_ns += static_cast<double>(task.dur_ns) * (1.0 - f / rated);
      op.lowest = std::min(op.lowest, f);
    }
    uint64_t flagged_ops = 0;
    double saved_ns = 0;
    double worst_ratio = 0;
    std::vector<Contributor> contributors;
    for (const auto& [name, op] : ops) {
      const double ratio = op.drop_sum / (rated * static_cast<double>(op.tasks));
      if (ratio < c.thresholds.ai_core_freq_drop_ratio) continue;
      ++flagged_ops;
      saved_ns += op.saved_ns;
      worst_ratio = std::max(worst_ratio, ratio);
      contributors.push_back({std::string(name), op.ns, ratio});
    }
    if (flagged_ops == 0) return;

    Finding f;
    f.rule = std::string(id());
    f.category = Category::kSystem;
    f.gain.ns_per_step = PerStep(c, static_cast<int64_t>(saved_ns));
    f.gain.share = ShareOfStep(c, f.gain.ns_per_step);
    f.severity = PrioritySeverity(f.gain.share);
    f.title = fmt::format(
        "The AI Core clock drops below its rated {:.0f} MHz while {} operators run (by up to "
        "{} on average); at the rated clock they would save up to {} per step",
        rated, flagged_ops, Pct(worst_ratio), Ms(f.gain.ns_per_step));
    f.evidence.metric = "ai_core_freq_decrease_ratio";
    f.evidence.value = worst_ratio;
    f.evidence.threshold = c.thresholds.ai_core_freq_drop_ratio;
    f.evidence.unit = "share";
    double lowest = std::numeric_limits<double>::infinity();
    for (const auto& [name, op] : ops) lowest = std::min(lowest, op.lowest);
    f.evidence.details = {{"rated_mhz", rated},
                          {"lowest_mhz", lowest},
                          {"operators_with_drop", static_cast<double>(flagged_ops)}};
    // msprof sorts by total duration, then by ratio.
    KeepLargest(&contributors, kMaxContributors);
    f.evidence.contributors = std::move(contributors);
    AddTag(&f, "frequency_drop");
    AppendFixes(&f.recommendations, {"npu_health_check"});
    out->push_back(std::move(f));
  }
};

}  // namespace

const Rule& AiCoreFreqDrop() {
  static const AiCoreFreqRule rule;
  return rule;
}

}  // namespace perfdx::advisor
