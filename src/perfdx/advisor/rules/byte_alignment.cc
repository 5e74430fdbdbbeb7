// Communication transfers whose size is not 512-byte aligned
// (../shared/docs/ascend-advisor_rules.md, row 6; msprof-analyze
// byte_alignment_checker): HCCL moves data through SDMA in 512-byte units,
// so a transfer of another size pays for a partial unit. For the Memcpy and
// Reduce tasks of each HCCL op: considered when transport type "SDMA",
// link type not "ON_CHIP" and size(Byte) > byte_alignment_bytes (512); the
// op is abnormal when any considered task's size % 512 != 0. Severity is
// msprof's priority: abnormal task time / considered task time < 0.2 low
// (info), >= 0.7 high (critical), else medium (warning).
//
// Gain: the what-if in which the misaligned transfers moved their bytes at
// the bandwidth the aligned transfers of the same link reached, counting
// only the exposed share of communication (comm not overlapped / comm, as
// low_bus_bandwidth does). 0 when a link has no aligned transfers to compare
// with: the cost of misalignment alone is then unknown. No fix from the
// catalogue: the remedy is to pad or re-bucket the communicated tensors to
// multiples of 512 bytes in the model code, which no framework switch does.
#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "perfdx/advisor/rules/rule_util.h"
#include "perfdx/advisor/rules/rules.h"
#include "perfdx/base/saturating.h"

namespace perfdx::advisor {
namespace {

constexpr size_t kMaxContributors = 5;  // byte_alignment.yaml top_num
constexpr double kLowPriority = 0.2;    // checker _LOW_PRIORITY
constexpr double kHighPriority = 0.7;   // checker _HIGH_PRIORITY

class ByteAlignmentRule final : public Rule {
 public:
  std::string_view id() const override { return "byte_alignment"; }

  void Evaluate(const RuleContext& c, std::vector<Finding>* out) const override {
    if (c.info().device_type != model::DeviceType::kNpu) return;
    const auto base = static_cast<int64_t>(c.thresholds.byte_alignment_bytes);
    if (base <= 0) return;
    const analysis::HcclTransfers& hccl = c.analysis.hccl_transfers;

    struct LinkUse {
      int64_t aligned_bytes = 0, aligned_ns = 0, misaligned_bytes = 0, misaligned_ns = 0;
    };
    std::map<std::string, LinkUse> links;
    std::map<int64_t, Contributor> by_op;  // op index (-1: none) -> misaligned task time
    int64_t considered_ns = 0;
    int64_t abnormal_ns = 0;
    for (const analysis::HcclTask& task : hccl.tasks) {
      if (!task.name.starts_with("Memcpy") && !task.name.starts_with("Reduce")) continue;
      if (task.transport != "SDMA" || task.link == "ON_CHIP") continue;
      const int64_t bytes = task.bytes;
      if (bytes <= base) continue;
      base::AddSaturating(considered_ns, task.dur_ns);
      LinkUse& use = links[task.link];
      if (bytes % base == 0) {
        base::AddSaturating(use.aligned_bytes, bytes);
        base::AddSaturating(use.aligned_ns, task.dur_ns);
        continue;
      }
      base::AddSaturating(abnormal_ns, task.dur_ns);
      base::AddSaturating(use.misaligned_bytes, bytes);
      base::AddSaturating(use.misaligned_ns, task.dur_ns);
      // The op running when the task starts.
      Contributor& x = by_op[task.op];
      base::AddSaturating(x.ns, task.dur_ns);
    }
    if (by_op.empty()) return;

    const analysis::HealthMetrics& h = c.analysis.summary;
    const double exposed = h.comm_share > 0 ? h.comm_not_overlapped_share / h.comm_share : 0;
    double saved_ns = 0;
    for (const auto& [link, use] : links) {
      if (use.misaligned_ns <= 0 || use.aligned_ns <= 0 || use.aligned_bytes <= 0) continue;
      const double aligned_gbps =
          static_cast<double>(use.aligned_bytes) / static_cast<double>(use.aligned_ns);
      const double ideal_ns = static_cast<double>(use.misaligned_bytes) / aligned_gbps;
      saved_ns += std::max(0.0, static_cast<double>(use.misaligned_ns) - ideal_ns) * exposed;
    }
    const double abnormal_share =
        considered_ns > 0 ? static_cast<double>(abnormal_ns) / static_cast<double>(considered_ns)
                          : 0;

    Finding f;
    f.rule = std::string(id());
    f.category = Category::kCommunication;
    f.gain.ns_per_step = PerStep(c, static_cast<int64_t>(saved_ns));
    f.gain.share = ShareOfStep(c, f.gain.ns_per_step);
    f.severity = abnormal_share >= kHighPriority ? Severity::kCritical
                 : abnormal_share < kLowPriority ? Severity::kInfo
                                                 : Severity::kWarning;
    size_t op_count = 0;
    for (const auto& [op, x] : by_op) op_count += op >= 0 ? 1 : 0;
    f.title = fmt::format(
        "{} communication operators move SDMA data in sizes that are not multiples of {} bytes "
        "({} of their transfer time)",
        op_count, base, Pct(abnormal_share));
    f.evidence.metric = "misaligned_transfer_share";
    f.evidence.value = abnormal_share;
    f.evidence.threshold = 0;
    f.evidence.unit = "share";
    f.evidence.details = {{"misaligned_ops", static_cast<double>(op_count)},
                          {"misaligned_transfer_ns", static_cast<double>(abnormal_ns)},
                          {"considered_transfer_ns", static_cast<double>(considered_ns)}};
    for (auto& [op, x] : by_op) {
      x.name = op >= 0 ? hccl.ops[static_cast<size_t>(op)].name : "(no op)";
      x.share =
          considered_ns > 0 ? static_cast<double>(x.ns) / static_cast<double>(considered_ns) : 0;
      f.evidence.contributors.push_back(x);
      if (op >= 0 && f.evidence.ranges.size() < kMaxContributors) {
        const analysis::HcclOp& hccl_op = hccl.ops[static_cast<size_t>(op)];
        f.evidence.ranges.push_back({hccl_op.start_ns, hccl_op.end_ns});
      }
    }
    KeepLargest(&f.evidence.contributors, kMaxContributors);
    out->push_back(std::move(f));
  }
};

}  // namespace

const Rule& ByteAlignment() {
  static const ByteAlignmentRule rule;
  return rule;
}

}  // namespace perfdx::advisor
