#include "perfdx/analysis/kernel_stats.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <unordered_map>

#include "perfdx/analysis/slice_sets.h"

namespace perfdx::analysis {
namespace {

using model::EventKind;
using model::SliceId;

constexpr size_t kSequenceLength = 3;
// Only kernels this short are worth fusing; long ones are bound by their own
// work, not by launches and memory round trips.
constexpr int64_t kShortKernelNs = 50'000;
constexpr size_t kMaxSequences = 10;

std::string Lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

bool ContainsAny(const std::string& haystack, std::initializer_list<std::string_view> needles) {
  return std::any_of(needles.begin(), needles.end(),
                     [&](std::string_view n) { return haystack.find(n) != std::string::npos; });
}

// Does the launching op say its inputs are 32-bit floats? Kineto records
// "Input type" (["float", "float", ...]); Ascend trace_view records it as
// "float;\r\nfloat".
bool OpInputsAreFloat32(const model::Trace& trace, int32_t op) {
  if (op < 0) return false;
  auto types = trace.ArgString(static_cast<SliceId>(op), model::ArgKey::kInputType);
  if (!types) return false;
  const std::string t = Lower(*types);
  return t.find("\"float\"") != std::string::npos || t.find("float;") != std::string::npos ||
         t == "float" || t.find("float32") != std::string::npos;
}

}  // namespace

bool IsMatrixKernelName(std::string_view name) {
  const std::string n = Lower(name);
  if (ContainsAny(n, {"bn_", "batch_norm", "batchnorm"})) return false;
  return ContainsAny(n, {"gemm", "gemv", "conv", "wgrad", "dgrad", "matmul", "scudnn", "hcudnn",
                         "mma", "cube"});
}

bool IsTensorCoreKernelName(std::string_view name) {
  // The TensorBoard plugin's allow-list, plus current spellings (cutlass
  // "tensorop", Hopper wgmma, cuBLASLt "xmma").
  const std::string n = Lower(name);
  return ContainsAny(n, {"h884", "s884", "h1688", "s1688", "hmma", "i8816", "16816", "xmma",
                         "tensorop", "wgmma", "first_layer_wgrad_kernel", "conv1x1", "conv2d_c1_k1",
                         "direct_group", "c1688", "bf16", "fp16", "f16", "hcudnn"});
}

bool IsFp32KernelName(std::string_view name) {
  // cuBLAS/cuDNN single-precision kernels: sgemm, scudnn, cutlass simt sgemm,
  // and explicit f32/fp32 tags.
  const std::string n = Lower(name);
  return ContainsAny(n, {"sgemm", "scudnn", "_f32", "fp32", "float32", "gemm_s", "sgemv"});
}

bool IsLayoutConversionName(std::string_view name) {
  const std::string n = Lower(name);
  return ContainsAny(n, {"transpose", "permute", "nchwtonhwc", "nhwctonchw", "transdata",
                         "trans_data", "transform_layout"});
}

bool IsElementwiseKernelName(std::string_view name) {
  const std::string n = Lower(name);
  return ContainsAny(n, {"elementwise", "vectorized", "unrolled", "pointwise", "triton_poi"});
}

KernelSummary SummarizeKernels(const model::Trace& trace, const OpAttribution& attribution,
                               const IntervalSet& window) {
  KernelSummary out;
  const model::SliceTable& s = trace.slices;
  std::unordered_map<model::StringId, size_t> index;
  auto in_window = [&](SliceId i) { return window.Contains(s.ts_ns[i]); };

  for (SliceId i = 0; i < s.size(); ++i) {
    if (!model::IsDeviceWork(s.kind[i]) || !OnDevice(trace, i) || !in_window(i)) continue;
    auto [it, inserted] = index.try_emplace(s.name[i], out.kernels.size());
    if (inserted) {
      KernelStat k;
      k.name = std::string(trace.slice_name(i));
      k.kind = s.kind[i];
      k.min_ns = s.dur_ns[i];
      k.max_ns = s.dur_ns[i];
      k.matrix = s.kind[i] == EventKind::kComputeKernel && IsMatrixKernelName(k.name);
      k.tensor_core = k.matrix && IsTensorCoreKernelName(k.name);
      k.layout_conversion = IsLayoutConversionName(k.name);
      out.kernels.push_back(std::move(k));
    }
    KernelStat& k = out.kernels[it->second];
    ++k.count;
    k.total_ns += s.dur_ns[i];
    k.min_ns = std::min(k.min_ns, s.dur_ns[i]);
    k.max_ns = std::max(k.max_ns, s.dur_ns[i]);
    // FP32: the name says so, or it names no precision and the launching
    // op's inputs are float.
    if (k.matrix && !k.tensor_core && !k.fp32_matrix) {
      k.fp32_matrix = IsFp32KernelName(k.name) || OpInputsAreFloat32(trace, attribution.launching_op[i]);
    }
    out.device_work_ns += s.dur_ns[i];
  }
  for (KernelStat& k : out.kernels) {
    k.share = out.device_work_ns > 0 ? static_cast<double>(k.total_ns) / static_cast<double>(out.device_work_ns) : 0;
    if (k.matrix) out.matrix_ns += k.total_ns;
    if (k.fp32_matrix) out.fp32_matrix_ns += k.total_ns;
    if (k.tensor_core) out.tensor_core_ns += k.total_ns;
    if (k.layout_conversion) out.layout_conversion_ns += k.total_ns;
  }
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
          total += s.dur_ns[run[k + m]];
        }
        KernelSequence& seq = sequences[key];
        ++seq.count;
        seq.total_ns += total;
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
      seq.elementwise = seq.elementwise && IsElementwiseKernelName(trace.str(id));
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
