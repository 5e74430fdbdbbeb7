#include "perfdx/analysis/host_syncs.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <map>
#include <vector>

#include "perfdx/analysis/activity.h"
#include "perfdx/analysis/slice_sets.h"
#include "perfdx/analysis/step_index.h"
#include "perfdx/base/saturating.h"

namespace perfdx::analysis {
namespace {

using model::EventKind;
using model::SliceId;

constexpr std::string_view kAutogradFunctionPrefix = "autograd::engine::evaluate_function: ";
constexpr size_t kMaxExamples = 5;
// The legacy export's resolution: whole microseconds.
constexpr int64_t kRoundingNs = 1000;

struct Call {
  SliceId slice;
  HostSyncClass kind;
  std::string_view phase;
  int64_t step;
};

// Where a user's read or cast begins; what it calls (_local_scalar_dense,
// _to_copy, copy_, the runtime's sync) is inside it.
bool IsUserEntryCall(std::string_view name) {
  return name == "aten::item" || name == "aten::to";
}

// Is the call nested in slice p (its parent, or a zero-length op it starts
// at) in a way that makes it not the user's own call? Sets the phase.
bool BlockedBy(const model::Trace& trace, int32_t p, HostSyncClass cls, std::string_view* phase) {
  const model::SliceTable& s = trace.slices;
  const std::string_view name = trace.slice_name(static_cast<SliceId>(p));
  // The outermost call only; a copy inside another operator is that
  // operator's (a wrapped Python scalar, a clone), not the user's.
  if (ClassifyHostSync(name) != HostSyncClass::kNone) return true;
  if (cls == HostSyncClass::kCopy && s.kind[p] == EventKind::kFrameworkOp) return true;
  if ((s.kind[p] == EventKind::kUserAnnotation || s.kind[p] == EventKind::kPythonFunction) &&
      IsOptimizerStep(name)) {
    *phase = "optimizer";
  } else if (*phase == "forward" &&
             name.substr(0, kAutogradFunctionPrefix.size()) == kAutogradFunctionPrefix) {
    *phase = "backward";
  }
  return false;
}

}  // namespace

HostSyncClass ClassifyHostSync(std::string_view name) {
  if (IsSyncCall(name)) return HostSyncClass::kSync;
  static constexpr std::string_view kCopyOps[] = {"aten::to", "aten::_to_copy", "aten::copy_"};
  for (std::string_view c : kCopyOps) {
    if (name == c) return HostSyncClass::kCopy;
  }
  return HostSyncClass::kNone;
}

int64_t FirstInputElements(std::string_view dims) {
  size_t p = dims.find_first_not_of(' ');
  if (p == std::string_view::npos || dims[p] != '[') return -1;
  p = dims.find_first_not_of(' ', p + 1);
  if (p == std::string_view::npos || dims[p] != '[') return -1;
  ++p;
  int64_t elements = 1;  // [] is a 0-dim tensor: one element
  while (p < dims.size()) {
    while (p < dims.size() && (dims[p] == ' ' || dims[p] == ',')) ++p;
    if (p < dims.size() && dims[p] == ']') return elements;
    int64_t d = 0;
    const auto [end, ec] = std::from_chars(dims.data() + p, dims.data() + dims.size(), d);
    if (ec != std::errc() || d < 0) return -1;
    elements = d != 0 && elements > INT64_MAX / d ? INT64_MAX : elements * d;
    p = static_cast<size_t>(end - dims.data());
  }
  return -1;
}

HostSyncSummary CountHostSyncs(const model::Trace& trace, const std::vector<StepWindow>& steps) {
  HostSyncSummary out;
  const model::SliceTable& s = trace.slices;
  const StepIndex index(steps);
  out.per_step.assign(std::max<size_t>(1, steps.size()), 0);
  std::map<std::string_view, HostSyncOp> by_name;
  std::map<std::string_view, HostSyncPhase> by_phase;
  double offset_sum = 0;
  uint64_t offset_count = 0;
  std::vector<Call> calls;

  // Credits one cluster's span to its calls, equally.
  auto close_cluster = [&] {
    if (calls.empty()) return;
    const int64_t start = s.ts_ns[calls.front().slice];
    int64_t end = start;
    for (const Call& c : calls) end = std::max(end, s.end_ns(c.slice));
    const int64_t span = end - start;
    base::AddSaturating(out.span_ns, span);
    const auto n = static_cast<int64_t>(calls.size());
    for (size_t k = 0; k < calls.size(); ++k) {
      // Equal parts that add up to the span exactly.
      const int64_t part = base::ScaledPart(span, static_cast<int64_t>(k + 1), n) -
                           base::ScaledPart(span, static_cast<int64_t>(k), n);
      base::AddSaturating(by_name[trace.slice_name(calls[k].slice)].total_ns, part);
      base::AddSaturating(by_phase[calls[k].phase].total_ns, part);
    }
    if (out.examples.size() < kMaxExamples) out.examples.emplace_back(start, end);
    out.clusters.emplace_back(start, end);
    calls.clear();
  };

  // What each slice and its ancestors are, as BlockedBy reads them, built
  // in index order (a parent comes before its children): a walk up the
  // nesting per call was calls x depth (#17).
  enum : uint8_t { kClassified = 1, kOp = 2, kOptimizer = 4, kAutograd = 8 };
  std::vector<uint8_t> enclosing(s.size(), 0);  // of the slice itself and its ancestors
  for (const model::Track& track : trace.tracks) {
    if (track.kind != model::TrackKind::kHostThread) continue;
    int32_t zero_op = -1;         // the latest zero-length framework op on this thread
    int64_t classified_end = -1;  // where the latest sync or copy call on it ended
    for (SliceId i = track.slice_begin; i < track.slice_end; ++i) {
      const std::string_view name = trace.slice_name(i);
      const HostSyncClass cls = ClassifyHostSync(name);
      const uint8_t above = s.parent[i] >= 0 ? enclosing[s.parent[i]] : 0;
      enclosing[i] = above;
      if (cls != HostSyncClass::kNone) enclosing[i] |= kClassified;
      if (s.kind[i] == EventKind::kFrameworkOp) enclosing[i] |= kOp;
      if ((s.kind[i] == EventKind::kUserAnnotation || s.kind[i] == EventKind::kPythonFunction) &&
          IsOptimizerStep(name)) {
        enclosing[i] |= kOptimizer;
      }
      if (name.substr(0, kAutogradFunctionPrefix.size()) == kAutogradFunctionPrefix)
        enclosing[i] |= kAutograd;
      if (s.dur_ns[i] < 0 || (s.flags[i] & model::kSliceInstant) != 0) continue;
      const int32_t rounded_parent = zero_op >= 0 && s.ts_ns[zero_op] == s.ts_ns[i] ? zero_op : -1;
      if (s.kind[i] == EventKind::kFrameworkOp && s.dur_ns[i] == 0)
        zero_op = static_cast<int32_t>(i);
      if (cls == HostSyncClass::kNone) continue;
      // aten::item(865 us, 3 us) then _local_scalar_dense(868 us, 1 us): the
      // inner call ends past its rounded parent, so nothing nests it. The
      // parent may itself be nested (the aten::to inside aten::sum, whose
      // copy_ escapes both). A user's own read or cast (aten::item,
      // aten::to) is never another's inner call, however close it starts
      // (regression: `(pred == c).sum().item()` 256 times lost 39 reads).
      const bool rounded_inner = classified_end >= 0 && !IsUserEntryCall(name) &&
                                 s.ts_ns[i] <= classified_end + kRoundingNs;
      classified_end = std::max(classified_end, s.end_ns(i));
      if (rounded_inner) continue;
      std::string_view phase = "forward";
      if (rounded_parent >= 0 && BlockedBy(trace, rounded_parent, cls, &phase)) continue;
      // BlockedBy for each ancestor: the outermost call only, and a copy
      // inside an operator is the operator's; the phase is the optimizer's
      // when one encloses the call, else backward inside an autograd function.
      if ((above & kClassified) != 0 || (cls == HostSyncClass::kCopy && (above & kOp) != 0))
        continue;
      if ((above & kOptimizer) != 0) {
        phase = "optimizer";
      } else if (phase == "forward" && (above & kAutograd) != 0) {
        phase = "backward";
      }
      if (cls == HostSyncClass::kCopy) {
        if (const auto dims = trace.ArgString(i, model::ArgKey::kInputDims)) {
          out.shapes_recorded = true;
          const int64_t elements = FirstInputElements(*dims);
          if (elements >= 0 ? elements > kSmallCopyMaxElements : s.dur_ns[i] > kSmallCopyMaxNs)
            continue;
        } else if (s.dur_ns[i] > kSmallCopyMaxNs) {
          continue;
        }
      }
      int64_t step = 0;
      if (!steps.empty()) {
        step = index.StepOf(s.ts_ns[i]);
        if (step < 0) continue;
        const StepWindow& w = steps[static_cast<size_t>(step)];
        if (w.dur_ns() > 0) {
          offset_sum +=
              static_cast<double>(s.ts_ns[i] - w.start_ns) / static_cast<double>(w.dur_ns());
          ++offset_count;
        }
      }
      if (!calls.empty() && (calls.back().step != step ||
                             s.ts_ns[i] - s.end_ns(calls.back().slice) > kSyncClusterGapNs)) {
        close_cluster();
      }
      calls.push_back({i, cls, phase, step});
      ++out.per_step[static_cast<size_t>(step)];
      HostSyncOp& op = by_name[name];
      op.kind = cls;
      ++op.count;
      ++by_phase[phase].count;
      if (cls == HostSyncClass::kSync) {
        ++out.syncs;
        base::AddSaturating(out.sync_call_ns, s.dur_ns[i]);
      } else {
        ++out.copies;
        base::AddSaturating(out.copy_call_ns, s.dur_ns[i]);
      }
    }
    close_cluster();
  }
  for (auto& [name, op] : by_name) {
    op.name = std::string(name);
    out.ops.push_back(std::move(op));
  }
  std::sort(out.ops.begin(), out.ops.end(), [](const HostSyncOp& a, const HostSyncOp& b) {
    return a.total_ns != b.total_ns ? a.total_ns > b.total_ns : a.name < b.name;
  });
  for (auto& [phase, ph] : by_phase) {
    ph.phase = std::string(phase);
    out.phases.push_back(std::move(ph));
  }
  std::sort(out.phases.begin(), out.phases.end(),
            [](const HostSyncPhase& a, const HostSyncPhase& b) {
              return a.count != b.count ? a.count > b.count : a.phase < b.phase;
            });
  if (offset_count > 0) out.mean_offset_share = offset_sum / static_cast<double>(offset_count);
  return out;
}

}  // namespace perfdx::analysis
