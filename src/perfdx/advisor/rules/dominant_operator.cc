// One operator, or three, take most of the operator time (guide 004 §2.2:
// top-3 share < 50% healthy, one operator > 70% abnormal — "a bottleneck
// operator"). Communication operators (HcclAllreduce, nccl:all_reduce,
// c10d::...) are left out: their device time is communication, which the
// communication rules report. This says where to look, not what a change
// would save: removing the operator is no what-if a step can take, so the
// gain is 0 and the severity is at most warning (warning for the single
// > 70% operator the guide calls abnormal, info for a top-3 concentration).
#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "perfdx/advisor/advisor.h"
#include "perfdx/advisor/knobs.h"
#include "perfdx/advisor/rules/rule_util.h"
#include "perfdx/advisor/rules/rules.h"
#include "perfdx/base/saturating.h"

namespace perfdx::advisor {
namespace {

constexpr size_t kTop = 3;

bool IsCommunicationOp(std::string_view name) {
  std::string n;
  for (char ch : name) {
    if (ch != '_') n.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(ch))));
  }
  for (std::string_view part : {"nccl", "hccl", "hcom", "c10d", "gloo", "recordparamcomms",
                                "allreduce", "allgather", "reducescatter", "alltoall"}) {
    if (n.find(part) != std::string::npos) return true;
  }
  return false;
}

class DominantOperatorRule final : public Rule {
 public:
  std::string_view id() const override { return "dominant_operator"; }

  void Evaluate(const RuleContext& c, std::vector<Finding>* out) const override {
    const analysis::OpSummary& ops = c.analysis.ops;
    auto time_of = [&](const analysis::OpStat& o) {
      return ops.ranked_by_device ? o.device_self_ns : o.host_self_ns;
    };
    std::vector<const analysis::OpStat*> kept;
    int64_t total_ns = 0;
    bool left_out = false;
    for (const analysis::OpStat& o : ops.ops) {
      if (time_of(o) <= 0) continue;
      if (IsCommunicationOp(o.name)) {
        left_out = true;
        continue;
      }
      kept.push_back(&o);
      base::AddSaturating(total_ns, time_of(o));
    }
    if (kept.empty() || total_ns <= 0) return;
    std::stable_sort(kept.begin(), kept.end(),
                     [&](const analysis::OpStat* a, const analysis::OpStat* b) {
                       return time_of(*a) > time_of(*b);
                     });
    const auto share_of = [&](int64_t ns) {
      return static_cast<double>(ns) / static_cast<double>(total_ns);
    };
    double top1 = c.analysis.summary.top1_op_share;
    double top3 = c.analysis.summary.top3_op_share;
    if (left_out) {
      // The summary shares count the communication operators; recompute
      // them over the rest.
      top1 = share_of(time_of(*kept[0]));
      int64_t top3_ns = 0;
      for (size_t k = 0; k < kept.size() && k < kTop; ++k)
        base::AddSaturating(top3_ns, time_of(*kept[k]));
      top3 = share_of(top3_ns);
    }
    const bool single =
        advisor::Evaluate(c.thresholds.top1_op_share, top1) == HealthStatus::kAbnormal;
    if (!single && advisor::Evaluate(c.thresholds.top3_op_share, top3) == HealthStatus::kHealthy)
      return;

    Finding f;
    f.rule = std::string(id());
    f.category = Category::kOperator;
    f.gain = {0, 0};
    f.severity = single ? Severity::kWarning : Severity::kInfo;
    const std::string_view what =
        ops.ranked_by_device ? "operator device time" : "operator host time";
    if (single) {
      f.title = fmt::format("{} takes {} of {}", kept[0]->name, Pct(top1), what);
    } else {
      std::string names;
      for (size_t k = 0; k < kept.size() && k < kTop; ++k) {
        names +=
            fmt::format("{}{} {}", k ? ", " : "", kept[k]->name, Pct(share_of(time_of(*kept[k]))));
      }
      f.title = fmt::format("The top {} operators take {} of {} ({})", std::min(kTop, kept.size()),
                            Pct(top3), what, names);
    }
    if (left_out) f.title += ", communication operators left out";
    f.evidence.metric = single ? "top1_op_share" : "top3_op_share";
    f.evidence.value = single ? top1 : top3;
    f.evidence.threshold =
        single ? c.thresholds.top1_op_share.abnormal : c.thresholds.top3_op_share.healthy;
    f.evidence.unit = "share";
    f.evidence.details = {{"top1_op_share", top1},
                          {"top3_op_share", top3},
                          {"communication_ops_left_out", left_out ? 1.0 : 0.0}};
    for (size_t k = 0; k < kept.size() && k < kTop; ++k) {
      f.evidence.contributors.push_back(
          {kept[k]->name, time_of(*kept[k]), share_of(time_of(*kept[k]))});
    }
    for (size_t k = 0; k < kept.size() && k < kTop; ++k)
      f.rests_on.push_back("op:" + kept[k]->name);
    // A large operator is no evidence that fusion helps: operator_fusion
    // shows only with the fusion rules' evidence ("fusible").
    AppendFixes(&f.recommendations, {"operator_fusion"});
    out->push_back(std::move(f));
  }
};

}  // namespace

const Rule& DominantOperator() {
  static const DominantOperatorRule rule;
  return rule;
}

}  // namespace perfdx::advisor
