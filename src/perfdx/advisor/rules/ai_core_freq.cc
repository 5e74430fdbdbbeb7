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
// profile has it (Trace::ascend->device.aicore_freq_mhz), raised to the
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
#include "perfdx/advisor/rules/ascend_query.h"
#include "perfdx/advisor/rules/rule_util.h"
#include "perfdx/advisor/rules/rules.h"
#include "perfdx/advisor/rules/trace_query.h"

namespace perfdx::advisor {
namespace {

constexpr size_t kMaxContributors = 10;  // msprof shows the top 10

struct Sample {
  int64_t ts_ns;
  double mhz;
};

std::vector<Sample> FrequencySamples(const model::Trace& t) {
  std::vector<Sample> out;
  const model::CounterTable& c = t.counters;
  for (size_t i = 0; i < c.size(); ++i) {
    const model::Track& track = t.tracks[c.track[i]];
    if (t.str(track.thread_name).substr(0, 12) != "AI Core Freq") continue;
    out.push_back({c.ts_ns[i], c.value[i]});
  }
  std::sort(out.begin(), out.end(),
            [](const Sample& a, const Sample& b) { return a.ts_ns < b.ts_ns; });
  return out;
}

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
    const model::Trace& t = c.trace();
    if (t.info.device_type != model::DeviceType::kNpu) return;
    const std::vector<Sample> samples = FrequencySamples(t);
    if (samples.empty()) return;
    double rated = t.ascend ? t.ascend->device.aicore_freq_mhz : -1;
    for (const Sample& s : samples) rated = std::max(rated, s.mhz);
    if (rated <= 0) return;
    const analysis::IntervalSet& window = c.analysis.window_intervals;

    struct PerOp {
      uint64_t tasks = 0;
      double drop_sum = 0;  // sum of (rated - f_i)
      int64_t ns = 0;
      double saved_ns = 0;
      double lowest = std::numeric_limits<double>::infinity();
    };
    std::map<std::string_view, PerOp> ops;
    const model::SliceTable& s = t.slices;
    for (model::SliceId i = 0; i < s.size(); ++i) {
      if (s.kind[i] != model::EventKind::kComputeKernel || !DeviceSliceIn(t, i, window)) continue;
      const auto type = t.ArgString(i, model::ArgKey::kTaskType).value_or("");
      if (type != "AI_CORE" && type != "MIX_AIC") continue;
      if (samples.front().ts_ns >= s.end_ns(i)) continue;  // no sample in force yet
      const double f = LowestDuring(samples, s.ts_ns[i], std::max(s.end_ns(i), s.ts_ns[i] + 1));
      PerOp& op = ops[t.slice_name(i)];
      ++op.tasks;
      op.drop_sum += rated - f;
      op.ns += s.dur_ns[i];
      op.saved_ns += static_cast<double>(s.dur_ns[i]) * (1.0 - f / rated);
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
