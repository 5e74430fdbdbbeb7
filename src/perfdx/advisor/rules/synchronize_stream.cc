// Every launch followed by a stream synchronization
// (../shared/docs/ascend-advisor_rules.md, row 17; msprof-analyze
// synchronize_stream_checker): the CANN host APIs whose names start with
// "AscendCL@aclrtSynchronizeStream" and "Node@launch", in time order
// across threads; co_occurrence = #(a synchronize immediately after a
// Node@launch) / #Node@launch. Above sync_stream_co_occurrence (0.5) the
// host waits for each operator before launching the next — the signature
// of ASCEND_LAUNCH_BLOCKING=1, which serializes host and device.
//
// Gain: the time of those synchronizations per step — the what-if in which
// the host no longer waits after each launch. Host time, an upper bound on
// what the step saves. Severity at least warning (msprof calls it high
// priority), critical from 5% of the step.
#include <algorithm>

#include <fmt/format.h>

#include "perfdx/advisor/knobs.h"
#include "perfdx/advisor/rules/rule_util.h"
#include "perfdx/advisor/rules/rules.h"
#include "perfdx/base/saturating.h"

namespace perfdx::advisor {
namespace {

using analysis::HostCall;
using analysis::HostCallKind;

class SynchronizeStreamRule final : public Rule {
 public:
  std::string_view id() const override { return "synchronize_stream"; }

  void Evaluate(const RuleContext& c, std::vector<Finding>* out) const override {
    const analysis::HostCalls& host = c.analysis.host_calls;
    std::vector<HostCall> calls = host.Of(HostCallKind::kSynchronizeStream);
    const size_t syncs = calls.size();
    if (syncs == 0) return;
    for (const HostCall& call : host.Of(HostCallKind::kNodeLaunch)) calls.push_back(call);
    const size_t launches = calls.size() - syncs;
    if (launches == 0) return;
    // In time order across threads; at equal starts the synchronizations first.
    std::stable_sort(calls.begin(), calls.end(),
                     [](const HostCall& a, const HostCall& b) { return a.ts_ns < b.ts_ns; });
    auto is_sync = [](const HostCall& call) {
      return call.kind == HostCallKind::kSynchronizeStream;
    };
    uint64_t co_occurring = 0;
    int64_t wait_ns = 0;
    std::vector<TimeRange> ranges;
    for (size_t k = 1; k < calls.size(); ++k) {
      if (!is_sync(calls[k]) || is_sync(calls[k - 1])) continue;
      ++co_occurring;
      base::AddSaturating(wait_ns, calls[k].dur_ns);
      if (ranges.size() < 5) ranges.push_back({calls[k - 1].ts_ns, calls[k].end_ns()});
    }
    const double ratio = static_cast<double>(co_occurring) / static_cast<double>(launches);
    if (ratio <= c.thresholds.sync_stream_co_occurrence) return;

    Finding f;
    f.rule = std::string(id());
    f.category = Category::kScheduling;
    f.gain.ns_per_step = PerStep(c, wait_ns);
    f.gain.share = ShareOfStep(c, f.gain.ns_per_step);
    f.severity = std::max(Severity::kWarning, PrioritySeverity(f.gain.share));
    f.title = fmt::format(
        "{} of {} operator launches are followed at once by a stream synchronization ({}); the "
        "host waits {} per step (ASCEND_LAUNCH_BLOCKING=1?)",
        co_occurring, launches, Pct(ratio), Ms(f.gain.ns_per_step));
    f.evidence.metric = "sync_after_launch_ratio";
    f.evidence.value = ratio;
    f.evidence.threshold = c.thresholds.sync_stream_co_occurrence;
    f.evidence.unit = "share";
    f.evidence.details = {{"synchronize_calls", static_cast<double>(syncs)},
                          {"node_launches", static_cast<double>(launches)},
                          {"co_occurrences", static_cast<double>(co_occurring)}};
    f.evidence.ranges = std::move(ranges);
    AddTag(&f, "launch_blocking");
    f.host_cause = true;
    AppendFixes(&f.recommendations, {"launch_blocking_off"});
    out->push_back(std::move(f));
  }
};

}  // namespace

const Rule& SynchronizeStream() {
  static const SynchronizeStreamRule rule;
  return rule;
}

}  // namespace perfdx::advisor
