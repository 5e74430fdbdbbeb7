// Device work aggregated by kernel name, and the kernel-level signals the
// advisor reads: matrix work in FP32 (no tensor-core / cube path), layout
// conversions, and short kernel sequences that repeat (fusion candidates).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "perfdx/analysis/interval_set.h"
#include "perfdx/analysis/kernel_taxonomy.h"
#include "perfdx/analysis/op_attribution.h"
#include "perfdx/model/trace.h"

namespace perfdx::analysis {

struct KernelStat {
  std::string name;
  model::EventKind kind = model::EventKind::kComputeKernel;
  uint64_t count = 0;
  int64_t total_ns = 0;
  int64_t min_ns = 0;
  int64_t max_ns = 0;
  int64_t mean_ns() const { return count ? total_ns / static_cast<int64_t>(count) : 0; }
  double share = 0;  // of all device work time (sum over kernels, not union)
  // What the kernel is (kernel_taxonomy.h): from its name, with the event
  // kind for copies, fills and collectives. `kernel_class.precision` is the
  // name's; `precision` adds what the launching op's input dtypes say.
  KernelClass kernel_class;
  Precision precision = Precision::kUnknown;
  bool matrix = false;       // compute kernel of class matrix (GEMM, conv, attention)
  bool tensor_core = false;  // matrix work the name shows on Tensor Cores (matrix cores)
  bool fp32_matrix = false;  // matrix work in FP32 on the CUDA cores (no reduced-precision path)
  bool layout_conversion = false;  // compute kernel of class layout_conversion
  // Copies only: the framework ops that launched them, by device time, the
  // largest kMaxCopyLaunchers: "aten::clone > aten::copy_" (the launching op
  // under its enclosing op, which says what the copy is for; the launching
  // op alone where it has none), "(no traced launcher)".
  std::vector<std::pair<std::string, int64_t>> launched_by;
};

inline constexpr size_t kMaxCopyLaunchers = 3;

struct KernelSequence {
  std::vector<std::string> names;  // consecutive kernels on one stream
  uint64_t count = 0;              // occurrences
  int64_t total_ns = 0;            // device time of all occurrences
  bool elementwise = false;        // every kernel is of class elementwise
};

struct KernelSummary {
  std::vector<KernelStat> kernels;  // by total time, descending
  int64_t device_work_ns = 0;       // sum of all device work durations
  int64_t matrix_ns = 0;
  int64_t fp32_matrix_ns = 0;
  int64_t tensor_core_ns = 0;
  int64_t layout_conversion_ns = 0;
  // The one layout-conversion share: layout_conversion_ns / device_work_ns
  // (docs/metrics.md). The layout finding and MICRO both show this.
  double layout_conversion_share = 0;
  // matrix_ns, fp32_matrix_ns and tensor_core_ns / device_work_ns.
  double matrix_share = 0;
  double fp32_matrix_share = 0;
  double tensor_core_share = 0;
  std::vector<KernelSequence> repeated_sequences;  // fusion candidates, by total time
};

// Kernels whose start lies inside `window`. `attribution` supplies the
// launching op, whose recorded input dtypes refine the FP32 test.
KernelSummary SummarizeKernels(const model::Trace& trace, const OpAttribution& attribution,
                               const IntervalSet& window);

}  // namespace perfdx::analysis
