#include "perfdx/analysis/step_breakdown.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string_view>

#include "perfdx/analysis/interval_set.h"
#include "perfdx/analysis/slice_sets.h"
#include "perfdx/base/saturating.h"
#include "perfdx/base/statistics.h"
#include "perfdx/base/strings.h"

namespace perfdx::analysis {
namespace {

using model::EventKind;
using model::SliceId;

// The categories in TBP's priority order (ProfileRole), "other" excluded.
enum Category : size_t {
  kKernel = 0,
  kMemcpy,
  kMemset,
  kCommunication,
  kRuntime,
  kDataLoader,
  kCpuExec,
  kCategoryCount,
};

// Host ops that are collectives. TBP lists nccl:{broadcast,reduce,all_reduce,
// all_gather,reduce_scatter} and the same gloo: names; the prefixes also take
// the collectives PyTorch added since (nccl:all_to_all, nccl:send, ...) and
// the c10d:: dispatcher ops that wrap them in PyTorch 2.
bool IsCommunicationOpName(std::string_view name) {
  return name.starts_with("nccl:") || name.starts_with("gloo:") || name.starts_with("c10d::");
}

// TBP's Operator, UserAnnotation and Python event types: Kineto "cpu_op" /
// "operator", "user_annotation", and the legacy "python" category (not
// "python_function", which TBP leaves out).
bool IsHostOp(const model::Trace& trace, SliceId i) {
  const EventKind kind = trace.slices.kind[i];
  if (kind == EventKind::kFrameworkOp || kind == EventKind::kUserAnnotation) return true;
  if (kind != EventKind::kPythonFunction) return false;
  const std::string_view cat = trace.str(trace.slices.category[i]);
  return EqualsNoCase(cat, "python");
}

// Which category slice i feeds, or kCategoryCount for none.
Category CategoryOf(const model::Trace& trace, SliceId i) {
  const EventKind kind = trace.slices.kind[i];
  if (OnDevice(trace, i)) {
    if (kind == EventKind::kComputeKernel) return kKernel;
    if (model::IsMemcpy(kind)) return kMemcpy;
    if (kind == EventKind::kMemset) return kMemset;
    if (kind == EventKind::kCollective || kind == EventKind::kCollectiveTask) return kCommunication;
    return kCategoryCount;
  }
  if (!OnHost(trace, i)) return kCategoryCount;  // async spans, profiler bookkeeping
  if (kind == EventKind::kRuntimeCall) return kRuntime;
  if (kind == EventKind::kDataLoading) return kDataLoader;
  if (!IsHostOp(trace, i)) return kCategoryCount;  // step markers, python_function, ...
  return IsCommunicationOpName(trace.slice_name(i)) ? kCommunication : kCpuExec;
}

}  // namespace

std::vector<StepBreakdown> ComputeStepBreakdowns(const model::Trace& trace,
                                                 const StepTimeline& timeline) {
  std::array<std::vector<Interval>, kCategoryCount> raw;
  const model::SliceTable& s = trace.slices;
  for (SliceId i = 0; i < s.size(); ++i) {
    if (s.dur_ns[i] <= 0) continue;
    const Category c = CategoryOf(trace, i);
    if (c != kCategoryCount) raw[c].push_back({s.ts_ns[i], s.end_ns(i)});
  }
  // Resolve the priority once for the whole trace: each category keeps only
  // the time no higher-priority category holds. Per step, every category is
  // then one range-length query, and whatever is left of the window is other.
  std::array<IntervalSet, kCategoryCount> exclusive;
  IntervalSet taken;
  for (size_t c = 0; c < kCategoryCount; ++c) {
    const IntervalSet set = IntervalSet::FromUnsorted(std::move(raw[c]));
    exclusive[c] = Subtract(set, taken);
    taken = Union(taken, set);
  }

  std::vector<StepBreakdown> out;
  out.reserve(timeline.steps.size());
  for (const StepWindow& w : timeline.steps) {
    std::array<int64_t, kCategoryCount> ns{};
    int64_t categorised_ns = 0;
    for (size_t c = 0; c < kCategoryCount; ++c) {
      ns[c] = exclusive[c].LengthIn(w.start_ns, w.end_ns);
      base::AddSaturating(categorised_ns, ns[c]);
    }
    StepBreakdown b;
    b.kernel_ns = ns[kKernel];
    b.memcpy_ns = ns[kMemcpy];
    b.memset_ns = ns[kMemset];
    b.communication_ns = ns[kCommunication];
    b.runtime_ns = ns[kRuntime];
    b.dataloader_ns = ns[kDataLoader];
    b.cpu_exec_ns = ns[kCpuExec];
    b.other_ns = std::max<int64_t>(0, w.dur_ns()) - categorised_ns;
    const int64_t step_ns = w.dur_ns();
    b.shares = {ShareOf(b.kernel_ns, step_ns),   ShareOf(b.memcpy_ns, step_ns),
                ShareOf(b.memset_ns, step_ns),   ShareOf(b.communication_ns, step_ns),
                ShareOf(b.runtime_ns, step_ns),  ShareOf(b.dataloader_ns, step_ns),
                ShareOf(b.cpu_exec_ns, step_ns), ShareOf(b.other_ns, step_ns)};
    out.push_back(b);
  }
  return out;
}

}  // namespace perfdx::analysis
