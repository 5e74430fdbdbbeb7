#include "perfdx/analysis/temporal_breakdown.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "perfdx/analysis/interval_set.h"
#include "perfdx/analysis/slice_sets.h"
#include "perfdx/base/saturating.h"
#include "perfdx/base/statistics.h"
#include "perfdx/base/strings.h"

namespace perfdx::analysis {
namespace {

using model::EventKind;
using model::SliceId;

// HTA's kernel types (hta-definitions.md §1).
enum class KernelType : uint8_t { kCommunication, kMemory, kComputation, kOther };

// HTA's name patterns, spelled as prefix/substring tests (Python re.match
// anchors every alternative at the start of the name). One deliberate
// difference: HTA calls every name starting with "hip" communication; perfdx
// trusts the model instead (kCollective is set from the real NCCL/RCCL/HCCL
// names), so a hip-named copy is memory and anything else hip-named is other.
KernelType ClassifyKernel(std::string_view name, EventKind kind) {
  if (kind == EventKind::kCollective || kind == EventKind::kCollectiveTask ||
      name.starts_with("nccl") || name.starts_with("hccl") || Contains(name, "ncclKernel")) {
    return KernelType::kCommunication;
  }
  if (model::IsMemcpy(kind) || kind == EventKind::kMemset || name.starts_with("Memcpy") ||
      name.starts_with("hipMemcpy") || name.starts_with("Memset") ||
      name.starts_with("hipMemset") || name.starts_with("dma")) {
    return KernelType::kMemory;
  }
  // HTA's "not computation" list. Requiring kComputeKernel as well keeps
  // syncs, Ascend notify/record tasks and unknown device rows out of compute;
  // on Kineto traces it agrees with the name test (those rows are named
  // "... Sync", "Stream Wait Event").
  static constexpr std::string_view kNotComputePrefixes[] = {
      "nccl",        "Stream Wait Event",
      "runFunction", "hip",
      "job_exe",     "packet",
      "pe_exe",      "cpum_exe_subgraph",
      "hccl",        "collective_subgraph_execution"};
  static constexpr std::string_view kNotComputeParts[] = {"Memcpy", "Memset", "dma", "Sync"};
  if (kind != EventKind::kComputeKernel) return KernelType::kOther;
  for (std::string_view p : kNotComputePrefixes) {
    if (name.starts_with(p)) return KernelType::kOther;
  }
  for (std::string_view p : kNotComputeParts) {
    if (Contains(name, p)) return KernelType::kOther;
  }
  // (cuda.*LaunchKernel), anchored at the start.
  if (name.starts_with("cuda") && Contains(name.substr(4), "LaunchKernel")) {
    return KernelType::kOther;
  }
  return KernelType::kComputation;
}

// HTA's "GPU rows": events with a stream other than -1. Restricted to device
// tracks, so host rows that happen to carry a stream arg (ROCm runtime calls
// with "stream": "0x0", a Triton cpu_op with "stream": 0) stay host rows;
// gpu_user_annotation has no stream and is a projection, not work. Device rows
// without a stream arg (Ascend tasks, HCCL ops) count: their streams are
// implied by the track.
bool IsDeviceEvent(const model::Trace& trace, SliceId i) {
  if (!OnDevice(trace, i)) return false;
  if (trace.slices.flags[i] & model::kSliceInstant) return false;
  if (trace.slices.kind[i] == EventKind::kDeviceAnnotation) return false;
  const std::optional<int64_t> stream = trace.ArgInt(i, model::ArgKey::kStream);
  return !stream || *stream != -1;
}

// HTA reads Kineto's µs timestamps into pandas; when any is fractional (the
// ns-resolution traces) it rounds every row to whole µs, end = floor(ts + dur)
// and ts = ceil(ts), in float64 (hta-definitions.md §0). On traces with many
// short kernels this moves the percentages by up to a point
// (ns_resolution_trace: idle 1.68% exact, 2.63% in HTA), so kHta rounds the
// same way, float64 included: at epoch-µs magnitudes (~1.7e15) a double
// resolves only 0.25 µs, which decides many of the ceilings. A row that
// rounds to a negative length counts as empty (HTA would subtract 1 µs when it
// stands alone).
constexpr int64_t kNsPerUs = 1000;

bool HasSubMicrosecondTimestamps(const model::Trace& trace) {
  auto fractional = [](int64_t ns) { return ns % kNsPerUs != 0; };
  return std::any_of(trace.slices.ts_ns.begin(), trace.slices.ts_ns.end(), fractional) ||
         std::any_of(trace.counters.ts_ns.begin(), trace.counters.ts_ns.end(), fractional) ||
         std::any_of(trace.memory.ts_ns.begin(), trace.memory.ts_ns.end(), fractional);
}

// The µs value as a JSON parser reads it: (about) the nearest double.
double AsJsonUs(int64_t ns) {
  return static_cast<double>(ns / kNsPerUs) +
         static_cast<double>(ns % kNsPerUs) / static_cast<double>(kNsPerUs);
}

// A slice's [start, end) as HTA sees it.
Interval HtaInterval(const model::Trace& trace, SliceId i, bool round_us) {
  const int64_t start = trace.slices.ts_ns[i];
  const int64_t end = trace.slices.end_ns(i);
  if (!round_us) return {start, end};
  const double ts_us = AsJsonUs(start);
  const double dur_us = AsJsonUs(trace.slices.dur_ns[i]);
  return {static_cast<int64_t>(std::ceil(ts_us)) * kNsPerUs,
          static_cast<int64_t>(std::floor(ts_us + dur_us)) * kNsPerUs};
}

// hta-definitions.md §0 "Dropping the last profiler step": with >= 2 distinct
// ProfilerStep names, only device events whose correlation matches a host row
// that starts before the last ProfilerStep are kept (so device events without
// a correlation go, and so does everything launched in the last step).
// Returns false when the rule does not apply.
bool HtaKeptCorrelations(const model::Trace& trace, const std::vector<bool>& device, bool round_us,
                         std::unordered_set<int64_t>* kept) {
  const model::SliceTable& s = trace.slices;
  std::unordered_set<std::string_view> step_names;
  int64_t last_start_ns = std::numeric_limits<int64_t>::min();
  for (SliceId i = 0; i < s.size(); ++i) {
    if (device[i] || (s.flags[i] & model::kSliceInstant)) continue;
    const std::string_view name = trace.slice_name(i);
    if (!name.starts_with("ProfilerStep#")) continue;
    step_names.insert(name);
    last_start_ns = std::max(last_start_ns, HtaInterval(trace, i, round_us).start);
  }
  if (step_names.size() < 2) return false;
  for (SliceId i = 0; i < s.size(); ++i) {
    if (device[i] || (s.flags[i] & model::kSliceInstant)) continue;
    if (s.correlation[i] == model::kNoCorrelation) continue;
    if (HtaInterval(trace, i, round_us).start >= last_start_ns) continue;
    kept->insert(s.correlation[i]);
  }
  return true;
}

}  // namespace

std::string_view AnalysisWindowName(AnalysisWindow window) {
  switch (window) {
    case AnalysisWindow::kSteps:
      return "steps";
    case AnalysisWindow::kAll:
      return "all";
    case AnalysisWindow::kHta:
      return "hta";
  }
  return "steps";
}

TemporalBreakdown ComputeTemporalBreakdown(const model::Trace& trace, AnalysisWindow window,
                                           const StepTimeline& timeline) {
  const model::SliceTable& s = trace.slices;
  std::vector<bool> device(s.size());
  for (SliceId i = 0; i < s.size(); ++i) device[i] = IsDeviceEvent(trace, i);

  const bool hta = window == AnalysisWindow::kHta;
  const bool round_us = hta && HasSubMicrosecondTimestamps(trace);
  std::unordered_set<int64_t> kept;
  const bool filter = hta && HtaKeptCorrelations(trace, device, round_us, &kept);

  std::vector<Interval> all, compute, comm;
  int64_t first_ns = std::numeric_limits<int64_t>::max();
  int64_t last_ns = std::numeric_limits<int64_t>::min();
  for (SliceId i = 0; i < s.size(); ++i) {
    if (!device[i]) continue;
    if (filter && !kept.contains(s.correlation[i])) continue;
    // Zero-length events still stretch HTA's span (first start to last end).
    const Interval iv = HtaInterval(trace, i, round_us);
    first_ns = std::min(first_ns, iv.start);
    last_ns = std::max(last_ns, iv.end);
    all.push_back(iv);
    switch (ClassifyKernel(trace.slice_name(i), s.kind[i])) {
      case KernelType::kComputation:
        compute.push_back(iv);
        break;
      case KernelType::kCommunication:
        comm.push_back(iv);
        break;
      case KernelType::kMemory:
      case KernelType::kOther:
        break;
    }
  }
  IntervalSet busy = IntervalSet::FromUnsorted(std::move(all));
  IntervalSet compute_set = IntervalSet::FromUnsorted(std::move(compute));
  IntervalSet comm_set = IntervalSet::FromUnsorted(std::move(comm));

  TemporalBreakdown out;
  if (window == AnalysisWindow::kSteps) {
    // Step windows do not overlap (StepTimeline), so the span is their sum.
    std::vector<Interval> windows;
    for (const StepWindow& w : timeline.steps) {
      windows.push_back({w.start_ns, w.end_ns});
      base::AddSaturating(out.span_ns, std::max<int64_t>(w.dur_ns(), 0));
    }
    const IntervalSet steps = IntervalSet::FromUnsorted(std::move(windows));
    busy = Intersect(busy, steps);
    compute_set = Intersect(compute_set, steps);
    comm_set = Intersect(comm_set, steps);
  } else if (first_ns <= last_ns) {
    out.span_ns = last_ns - first_ns;
  }
  out.idle_ns = out.span_ns - busy.TotalLength();
  out.compute_ns = compute_set.TotalLength();
  out.non_compute_ns = busy.TotalLength() - out.compute_ns;
  out.idle_share = ShareOf(out.idle_ns, out.span_ns);
  out.compute_share = ShareOf(out.compute_ns, out.span_ns);
  out.non_compute_share = ShareOf(out.non_compute_ns, out.span_ns);
  if (comm_set.TotalLength() > 0) {
    out.comm_comp_overlap = static_cast<double>(Intersect(comm_set, compute_set).TotalLength()) /
                            static_cast<double>(comm_set.TotalLength());
  }
  return out;
}

}  // namespace perfdx::analysis
