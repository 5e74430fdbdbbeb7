#include "perfdx/analysis/kernel_stats.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <string>
#include <unordered_map>

#include <fmt/format.h>

#include "perfdx/analysis/slice_sets.h"
#include "perfdx/base/saturating.h"
#include "perfdx/base/statistics.h"
#include "perfdx/base/strings.h"

namespace perfdx::analysis {
namespace {

using model::EventKind;
using model::SliceId;

constexpr size_t kSequenceLength = 3;
// Only kernels this short are worth fusing; long ones are bound by their own
// work, not by launches and memory round trips.
constexpr int64_t kShortKernelNs = 50'000;
constexpr size_t kMaxSequences = 10;

// Does the launching op say its inputs are 32-bit floats? Kineto records
// "Input type" (["float", "float", ...]); Ascend trace_view records it as
// "float;\r\nfloat".
bool OpInputsAreFloat32(const model::Trace& trace, int32_t op) {
  if (op < 0) return false;
  auto types = trace.ArgString(static_cast<SliceId>(op), model::ArgKey::kInputType);
  if (!types) return false;
  const std::string t = AsciiLower(*types);
  return t.find("\"float\"") != std::string::npos || t.find("float;") != std::string::npos ||
         t == "float" || t.find("float32") != std::string::npos;
}

// Copies, fills and collectives are what the importer's event kind says,
// whatever their name.
KernelClass ClassOf(model::EventKind kind, std::string_view name) {
  KernelClass c;
  if (model::IsMemcpy(kind)) {
    c.category = KernelCategory::kMemcpy;
  } else if (kind == EventKind::kMemset) {
    c.category = KernelCategory::kMemset;
  } else if (kind == EventKind::kCollective) {
    c.category = KernelCategory::kCommunication;
  } else {
    c = ClassifyKernel(name);
  }
  return c;
}

// What launched a copy: the op under its enclosing op (KernelStat).
std::string LauncherName(const model::Trace& trace, int32_t op) {
  if (op < 0) return "(no traced launcher)";
  const auto slice = static_cast<SliceId>(op);
  const int64_t parent = trace.slices.parent[slice];
  const int32_t outer = parent < 0 ? -1 : EnclosingFrameworkOp(trace, static_cast<SliceId>(parent));
  if (outer < 0) return std::string(trace.slice_name(slice));
  return fmt::format("{} > {}", trace.slice_name(static_cast<SliceId>(outer)),
                     trace.slice_name(slice));
}

}  // namespace

KernelSummary SummarizeKernels(const model::Trace& trace, const OpAttribution& attribution,
                               const IntervalSet& window) {
  KernelSummary out;
  const model::SliceTable& s = trace.slices;
  std::unordered_map<model::StringId, size_t> index;
  auto in_window = [&](SliceId i) { return window.Contains(s.ts_ns[i]); };
  // Ascend: the kernel table's input dtypes of each task, by its slice.
  std::unordered_map<SliceId, model::StringId> ascend_dtypes;
  if (trace.ascend) {
    for (const model::AscendKernel& row : trace.ascend->kernels.rows) {
      if (row.slice >= 0 && row.input_dtypes != model::kEmptyString) {
        ascend_dtypes.emplace(static_cast<SliceId>(row.slice), row.input_dtypes);
      }
    }
  }

  // Copies' device time by launcher (KernelStat::launched_by), per kernel.
  std::unordered_map<size_t, std::map<int32_t, int64_t>> copy_launchers;
  for (SliceId i = 0; i < s.size(); ++i) {
    if (!model::IsDeviceWork(s.kind[i]) || !OnDevice(trace, i) || !in_window(i)) continue;
    auto [it, inserted] = index.try_emplace(s.name[i], out.kernels.size());
    if (inserted) {
      KernelStat k;
      k.name = std::string(trace.slice_name(i));
      k.kind = s.kind[i];
      k.min_ns = s.dur_ns[i];
      k.max_ns = s.dur_ns[i];
      k.kernel_class = ClassOf(k.kind, k.name);
      k.precision = k.kernel_class.precision;
      const bool compute = k.kind == EventKind::kComputeKernel;
      k.matrix = compute && k.kernel_class.matrix();
      k.tensor_core = k.matrix && k.kernel_class.tensor_core == TensorCoreUse::kYes;
      k.fp32_matrix = k.matrix && k.precision == Precision::kFp32 &&
                      k.kernel_class.tensor_core == TensorCoreUse::kNo;
      k.layout_conversion = compute && k.kernel_class.layout_conversion();
      out.kernels.push_back(std::move(k));
    }
    KernelStat& k = out.kernels[it->second];
    if (model::IsMemcpy(k.kind))
      base::AddSaturating(copy_launchers[it->second][attribution.launching_op[i]], s.dur_ns[i]);
    ++k.count;
    base::AddSaturating(k.total_ns, s.dur_ns[i]);
    k.min_ns = std::min(k.min_ns, s.dur_ns[i]);
    k.max_ns = std::max(k.max_ns, s.dur_ns[i]);
    // A matrix kernel whose name carries no precision (Ascend MatMulV2,
    // Triton templates, ...) and does not show Tensor Cores: an Ascend
    // task's own input dtypes say it (reduced precision = the cube path, the
    // Tensor Core equivalent); else it is FP32 when the op that launched it
    // has float inputs.
    if (k.matrix && !k.tensor_core && !k.fp32_matrix &&
        k.kernel_class.precision == Precision::kUnknown) {
      const auto dtypes = ascend_dtypes.find(i);
      const Precision p = dtypes == ascend_dtypes.end()
                              ? Precision::kUnknown
                              : PrecisionFromAscendDtypes(trace.str(dtypes->second));
      if (p == Precision::kFp16 || p == Precision::kBf16 || p == Precision::kInt8) {
        k.precision = p;
        k.tensor_core = true;
      } else if (p == Precision::kFp32 ||
                 (p == Precision::kUnknown &&
                  OpInputsAreFloat32(trace, attribution.launching_op[i]))) {
        k.fp32_matrix = true;
        k.precision = Precision::kFp32;
      }
    }
    base::AddSaturating(out.device_work_ns, s.dur_ns[i]);
  }
  for (auto& [kernel, by_op] : copy_launchers) {
    std::map<std::string, int64_t> by_name;
    for (const auto& [op, ns] : by_op) base::AddSaturating(by_name[LauncherName(trace, op)], ns);
    std::vector<std::pair<std::string, int64_t>>& top = out.kernels[kernel].launched_by;
    top.assign(by_name.begin(), by_name.end());
    std::sort(top.begin(), top.end(), [](const auto& a, const auto& b) {
      return a.second != b.second ? a.second > b.second : a.first < b.first;
    });
    if (top.size() > kMaxCopyLaunchers) top.resize(kMaxCopyLaunchers);
  }
  for (KernelStat& k : out.kernels) {
    k.share = ShareOf(k.total_ns, out.device_work_ns);
    if (k.matrix) base::AddSaturating(out.matrix_ns, k.total_ns);
    if (k.fp32_matrix) base::AddSaturating(out.fp32_matrix_ns, k.total_ns);
    if (k.tensor_core) base::AddSaturating(out.tensor_core_ns, k.total_ns);
    if (k.layout_conversion) base::AddSaturating(out.layout_conversion_ns, k.total_ns);
  }
  out.layout_conversion_share = ShareOf(out.layout_conversion_ns, out.device_work_ns);
  out.matrix_share = ShareOf(out.matrix_ns, out.device_work_ns);
  out.fp32_matrix_share = ShareOf(out.fp32_matrix_ns, out.device_work_ns);
  out.tensor_core_share = ShareOf(out.tensor_core_ns, out.device_work_ns);
  std::sort(out.kernels.begin(), out.kernels.end(), [](const KernelStat& a, const KernelStat& b) {
    return a.total_ns != b.total_ns ? a.total_ns > b.total_ns : a.name < b.name;
  });

  // Repeated runs of short kernels on one stream: count each window of
  // kSequenceLength consecutive short compute kernels.
  std::map<std::vector<model::StringId>, KernelSequence> sequences;
  for (const model::Track& track : trace.tracks) {
    if (track.kind != model::TrackKind::kDeviceStream) continue;
    std::vector<SliceId> run;
    auto flush = [&] {
      for (size_t k = 0; k + kSequenceLength <= run.size(); ++k) {
        std::vector<model::StringId> key;
        int64_t total = 0;
        for (size_t m = 0; m < kSequenceLength; ++m) {
          key.push_back(s.name[run[k + m]]);
          base::AddSaturating(total, s.dur_ns[run[k + m]]);
        }
        KernelSequence& seq = sequences[key];
        ++seq.count;
        base::AddSaturating(seq.total_ns, total);
      }
      run.clear();
    };
    for (SliceId i = track.slice_begin; i < track.slice_end; ++i) {
      if (s.kind[i] != EventKind::kComputeKernel || !in_window(i)) continue;
      if (s.dur_ns[i] >= kShortKernelNs) {
        flush();
        continue;
      }
      run.push_back(i);
    }
    flush();
  }
  for (auto& [key, seq] : sequences) {
    if (seq.count < 2) continue;
    seq.elementwise = true;
    for (model::StringId id : key) {
      seq.names.emplace_back(trace.str(id));
      seq.elementwise =
          seq.elementwise && ClassifyKernel(trace.str(id)).category == KernelCategory::kElementwise;
    }
    out.repeated_sequences.push_back(std::move(seq));
  }
  std::sort(out.repeated_sequences.begin(), out.repeated_sequences.end(),
            [](const KernelSequence& a, const KernelSequence& b) {
              return a.total_ns != b.total_ns ? a.total_ns > b.total_ns : a.names < b.names;
            });
  if (out.repeated_sequences.size() > kMaxSequences) out.repeated_sequences.resize(kMaxSequences);
  return out;
}

}  // namespace perfdx::analysis
