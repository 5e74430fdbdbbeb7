// Health thresholds: the defaults come from ../shared/docs/thresholds.md (the
// tuning guides' numbers) or, where the guides give none, from the peer tool
// named beside each; docs/metrics.md lists every one with its source.
#pragma once

namespace perfdx::advisor {

// A metric is healthy on one side of `healthy` and abnormal beyond
// `abnormal`; in between it is a warning.
struct Band {
  double healthy;
  double abnormal;
  bool higher_is_better;
};

struct Thresholds {
  Band device_utilization{0.85, 0.60, true};          // guide 004 §2.2
  Band idle_share{0.10, 0.50, false};                 // guide 000 §一: target <10%, 50% seen
  Band top1_op_share{0.50, 0.70, false};              // guide 004 §2.2: one op > 70%
  Band top3_op_share{0.50, 0.70, false};              // guide 004 §2.2: top-3 < 50%
  Band memcpy_share{0.15, 0.30, false};               // guide 004 §2.2
  Band framework_overhead_share{0.10, 0.25, false};   // guide 004 §2.2: < 10%, "clearly higher"
  Band dataloader_stall_share{0.05, 0.20, false};     // TensorBoard plugin rule: > 5%
  Band comm_share{0.15, 0.40, false};                 // guide 000 §一: > 40%, target 15%
  Band comm_not_overlapped_share{0.10, 0.40, false};  // TensorBoard plugin rule: > 10%
  Band step_time_cv{0.05, 0.15, false};               // perfdx: "strongly fluctuating"
  double min_recurring_gap_ns = 1'000'000;            // guide: report gaps >= 1 ms that repeat
  // Idle time per step caused by one recurring host-side gap, as a share of
  // the step. perfdx: the guide's case was 15 ms per step worth +22%.
  Band recurring_gap_share{0.01, 0.05, false};
  // Device idle while the host blocks in a sync call (perfdx).
  Band sync_stall_share{0.01, 0.05, false};
  // Device idle in many short gaps while the host dispatches (perfdx; the
  // guide: "device idle share up to 50% ... host dispatches").
  Band dispatch_gap_share{0.05, 0.15, false};
  // Other ranks waiting in collectives for the latest rank, as a share of
  // the step (msprof-analyze: slow rank when (max - min) / mean >= 5%).
  Band late_rank_wait_share{0.05, 0.15, false};
  // Per-step device utilization that alternates by at least this much
  // between consecutive steps (perfdx; the guide's "saw-tooth" pattern).
  double sawtooth_amplitude = 0.10;

  // --- Memory rules ---
  // FP32 matrix work (no tensor-core / cube path) / device work. perfdx: the
  // TensorBoard plugin (rule R6) speaks up at any Tensor-Core-eligible time
  // when none runs on Tensor Cores; perfdx waits for 10%, where the gain at
  // the assumed speedup below reaches ~5% of device work, and calls 30% (a
  // 15% gain) abnormal.
  Band fp32_matrix_share{0.10, 0.30, false};
  // perfdx: assumed speedup of matrix kernels moved from FP32 to FP16/BF16
  // (or TF32) tensor cores. Conservative: V100's FP16 tensor cores have 8x
  // its FP32 peak, but measured kernel speedups are 2-3x once memory traffic
  // is counted. The gain it yields is an estimate, and says so.
  double fp32_matrix_speedup = 2.0;
  // Pageable host->device copies / window. perfdx: any pageable copy can be
  // pinned, but below 0.1% of the step it is not worth a finding; abnormal
  // at the guide's 15% healthy limit for all copies.
  Band pageable_h2d_share{0.001, 0.15, false};
  // Caching-allocator allocations per step on one device. perfdx: a
  // ResNet-50 step makes ~700 (the TensorBoard plugin's sample traces);
  // 2000 leaves room for transformer blocks, 10000 means tensors created in
  // Python loops.
  Band allocations_per_step{2000, 10000, false};
  // 1 - allocated/reserved at the reserved peak. perfdx: a quarter of the
  // pool unusable is where allocator settings are worth trying; half is
  // wasted capacity.
  Band fragmentation_at_peak{0.25, 0.50, false};
  // Peak allocated (or reserved) / device memory. TensorBoard plugin rule R7.
  double memory_near_capacity = 0.90;

  // --- Communication rules ---
  // Share of collectives whose size is below the small-packet limit.
  // msprof-analyze packet.yaml: min_sdma_ratio = min_rdma_ratio = 0.2;
  // perfdx: half of them small is abnormal.
  Band small_collective_ratio{0.20, 0.50, false};
  // msprof-analyze packet.yaml: min_sdma_size 16 MB, min_rdma_size 1 MB
  // (decimal MB, as its Transit Size). GPU traces record no transport: the
  // intra-node (SDMA) limit applies unless the group spans nodes.
  double small_collective_sdma_bytes = 16e6;
  double small_collective_rdma_bytes = 1e6;
  // Achieved / peak link bandwidth. Guide 000 §一: < 50% abnormal, target 75%.
  Band link_bandwidth_efficiency{0.75, 0.50, true};
  // Link peaks in GB/s, one direction.
  // msprof-analyze bandwidth_contention.yaml sdma_baseline: 18 GB/s, the
  // bandwidth it expects of an HCCS (SDMA) link.
  double hccs_peak_gbps = 18;
  // perfdx: PCIe 4.0 x16, 16 GT/s x 16 lanes x 128/130 = 31.5 GB/s.
  double pcie_peak_gbps = 32;
  // perfdx: one 200 Gb/s RoCE or InfiniBand HDR port.
  double rdma_peak_gbps = 25;
  // NVLink per GPU. 0: by NVIDIA GPU generation from the trace's compute
  // capability, the datasheets' bidirectional NVLink totals halved: 7.0
  // (V100) 150, 8.0 (A100) 300, 9.0 (H100) 450, 10.0 (B200) 900 GB/s; other
  // GPUs (no NVLink) use pcie_peak_gbps.
  double gpu_link_peak_gbps = 0;

  // --- Operator rules ---
  // Layout conversions (transpose, permute, TransData, ...) / device work
  // time (KernelSummary::layout_conversion_share). Guide 004: layout conversions cost 15-30% in CV
  // tasks (abnormal above 15%); perfdx: healthy below a third of that.
  Band layout_conversion_share{0.05, 0.15, false};
  // One repeated short-kernel sequence / step time. msprof-analyze
  // fusible_operator.yaml: sequence_duration_threshold 0.01; perfdx: the
  // advisor's high-priority 5% is abnormal.
  Band fusion_sequence_share{0.01, 0.05, false};
  // msprof-analyze fusible_operator.yaml: sequence_count_threshold 5 (more
  // occurrences than this).
  double fusion_min_occurrences = 5;
  // Host time per step in syncs and small copies (.item(), .to() of tiny
  // tensors) / step time. perfdx: on a par with the sync-stall band
  // (a few % of the step is worth moving metrics onto the device), abnormal
  // at 10%.
  Band host_sync_share{0.02, 0.10, false};
  // Syncs + small copies per step from which they are a pattern rather than
  // the one loss.item() a loop needs (perfdx: the "dozens per step").
  double host_sync_min_per_step = 10;
  // Fusable time of unfused elementwise chains per step / step time
  // (perfdx, as fusion_sequence_share: 1% after msprof-analyze, 5% abnormal).
  Band elementwise_chain_share{0.01, 0.05, false};
  // Elementwise chain members per step from which chains are a finding
  // (perfdx: the "dozens of tiny ops per step").
  double elementwise_chain_min_ops = 12;
  // AI_CPU task time / step time. msprof-analyze aicpu_checker: any AI_CPU
  // op is an issue (healthy 0); its priority is high from 5%.
  Band ai_cpu_share{0.0, 0.05, false};
  // msprof-analyze aicpu_checker _MIN_TASK_DURATION: 20 us.
  double ai_cpu_min_task_ns = 20'000;

  // --- Ascend rules (../shared/docs/ascend-advisor_rules.md, row numbers
  // of its rule table) ---
  // Row 9: an operator is bound by a pipeline when one of its vec / mac /
  // scalar / mte1 / mte2 / mte3 ratios exceeds this (msprof-analyze
  // config.ini operator_bound_ratio).
  double operator_bound_ratio = 0.8;
  // Row 9: reported when the longest unbound operator takes more than this
  // (operator_bound_checker _MIN_TASK_DURATION: 20 us).
  double operator_no_bound_min_task_ns = 20'000;
  // Row 16: runtime operator compilations (AscendCL@aclopCompileAndExecute)
  // per step from which compilation is an issue (prof_common constant
  // MAX_OP_COMPILE_NUM: 20).
  double op_compile_min_count = 20;
  // Row 11: mean AI Core frequency drop of one operator, as a share of the
  // rated frequency (config.ini frequency_threshold: 0.05).
  double ai_core_freq_drop_ratio = 0.05;
  // Row 6: SDMA transfers larger than this must be a multiple of it
  // (byte_alignment.yaml min_size 512, checker _BASE_SIZE 512).
  double byte_alignment_bytes = 512;
  // Row 17: share of Node@launch calls followed at once by
  // aclrtSynchronizeStream (synchronize.yaml min_co_occurrence_ratio: 0.5).
  double sync_stream_co_occurrence = 0.5;
  // Row 18: SyncBatchNorm calls per step (sync_batchnorm.yaml
  // max_syncbn_num: 20).
  double syncbn_min_count = 20;
  // Row 20: a Python garbage collection at least this long (gc.yaml
  // gc_threshold: 1000 us).
  double gc_min_event_ns = 1'000'000;
  // Row 22: time per step in one of aclMallocMemInner / aclrtFreePhysical /
  // aclrtFree (memory.yaml max_total_duration: 10000 us).
  double memory_op_min_total_ns = 10'000'000;
  // Rows 1 and 2: (max - min) of a per-rank time (Computing, Communication,
  // Free) over the mean per-rank step total, and of the per-rank SDMA / RDMA
  // bandwidth over its mean, from which ranks differ (SlowRankAnalyzer
  // RATIO_THRESHOLD, prof_common SLOW_RANK_TIME_RATIO_THRESHOLD: 0.05).
  double slow_rank_gap_ratio = 0.05;
  double slow_link_gap_ratio = 0.05;
  // SDMA peak for links without a peak of their own (SIO, ...), one
  // direction: msprof-analyze bandwidth_contention.yaml sdma_baseline 18 GB/s.
  double sdma_peak_gbps = 18;
};

enum class HealthStatus { kHealthy, kWarning, kAbnormal };

inline HealthStatus Evaluate(const Band& band, double value) {
  if (band.higher_is_better) {
    if (value >= band.healthy) return HealthStatus::kHealthy;
    return value < band.abnormal ? HealthStatus::kAbnormal : HealthStatus::kWarning;
  }
  if (value <= band.healthy) return HealthStatus::kHealthy;
  return value > band.abnormal ? HealthStatus::kAbnormal : HealthStatus::kWarning;
}

}  // namespace perfdx::advisor
