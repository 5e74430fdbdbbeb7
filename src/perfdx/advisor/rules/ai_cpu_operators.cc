// Operators that run on the NPU's AI CPU instead of its AI cores: an
// unsupported dtype or an op with no AI Core kernel, executed orders of
// magnitude slower (msprof-analyze aicpu_checker: an issue when any AI_CPU
// task exists and the longest takes >= 20 us). Gain: the AI_CPU task time
// per step — the what-if in which the ops move to AI Core kernels that take
// no time; an upper bound. Evidence also counts the AI_CPU tasks with a
// float64 input (the kernel table's dtypes), msprof's "convert double type
// operator to float" check; its per-CANN dtype tables are not reproduced.
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

class AiCpuOperatorsRule final : public Rule {
 public:
  std::string_view id() const override { return "ai_cpu_operators"; }

  void Evaluate(const RuleContext& c, std::vector<Finding>* out) const override {
    // Only Ascend device tasks carry a Task Type.
    if (c.info().device_type != model::DeviceType::kNpu || c.analysis.window_ns <= 0) return;
    int64_t total_ns = 0;
    int64_t longest_ns = 0;
    uint64_t tasks = 0;
    std::map<std::string_view, int64_t> by_name;
    std::vector<TimeRange> ranges;
    // msprof-analyze's AICPU rule also names float64 inputs ("Try to convert
    // double type operator to float"): the kernel table has the dtypes.
    uint64_t double_tasks = 0;
    for (const analysis::AscendComputeTask& task : c.analysis.ascend_operators.compute_tasks) {
      if (task.task_type != "AI_CPU") continue;
      const int64_t dur = task.dur_ns;
      base::AddSaturating(total_ns, dur);
      longest_ns = std::max(longest_ns, dur);
      ++tasks;
      base::AddSaturating(by_name[task.name], dur);
      if (task.input_dtypes.find("DOUBLE") != std::string::npos ||
          task.input_dtypes.find("FLOAT64") != std::string::npos)
        ++double_tasks;
      if (ranges.size() < kMaxRanges) ranges.push_back({task.ts_ns, task.ts_ns + dur});
    }
    if (tasks == 0 || static_cast<double>(longest_ns) < c.thresholds.ai_cpu_min_task_ns) return;
    const double window_ns = static_cast<double>(c.analysis.window_ns);
    const double share = static_cast<double>(total_ns) / window_ns;
    const Band& band = c.thresholds.ai_cpu_share;

    Finding f;
    f.rule = std::string(id());
    f.category = Category::kOperator;
    f.gain.ns_per_step = PerStep(c, total_ns);
    f.gain.share = ShareOfStep(c, f.gain.ns_per_step);
    f.severity = SeverityFor(band, share, f.gain.share);
    f.title = fmt::format(
        "{} AI_CPU tasks take {} of the step ({} per step); the longest runs {:.0f} us", tasks,
        Pct(share), Ms(f.gain.ns_per_step), static_cast<double>(longest_ns) / 1e3);
    f.evidence.metric = "ai_cpu_share";
    f.evidence.value = share;
    f.evidence.threshold = band.healthy;
    f.evidence.unit = "share";
    f.evidence.details = {{"tasks", static_cast<double>(tasks)},
                          {"longest_task_ns", static_cast<double>(longest_ns)},
                          {"double_input_tasks", static_cast<double>(double_tasks)}};
    f.evidence.ranges = std::move(ranges);
    for (const auto& [name, ns] : by_name) {
      f.evidence.contributors.push_back(
          {std::string(name), ns, static_cast<double>(ns) / window_ns});
    }
    KeepLargest(&f.evidence.contributors, kMaxContributors);
    AddTag(&f, "aicpu_operators");
    AppendFixes(&f.recommendations, {"aicpu_avoid"});
    out->push_back(std::move(f));
  }
};

}  // namespace

const Rule& AiCpuOperators() {
  static const AiCpuOperatorsRule rule;
  return rule;
}

}  // namespace perfdx::advisor
