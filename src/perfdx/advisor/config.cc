#include "perfdx/advisor/config.h"

#include <array>
#include <cmath>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>

#include <fmt/format.h>
// The packaged toml++ is a compiled library built with exceptions, so this
// file uses the throwing API and catches everything at the boundary: no
// exception leaves LoadThresholds.
#include <toml++/toml.h>

namespace perfdx::advisor {
namespace {

// Meanings and sources as in thresholds.h (guide sections refer to
// ../shared/seeds).
constexpr std::array kBands = std::to_array<BandKey>({
    {"device_utilization", &Thresholds::device_utilization, "Device busy time / step wall time",
     "tuning guide 004 §2.2 (healthy > 85%, abnormal < 60%)"},
    {"idle_share", &Thresholds::idle_share, "Device idle time / step wall time",
     "tuning guide 000 §一 (target < 10%, 50% seen)"},
    {"top1_op_share", &Thresholds::top1_op_share, "Share of device time of the top operator",
     "tuning guide 004 §2.2 (one operator > 70%)"},
    {"top3_op_share", &Thresholds::top3_op_share, "Share of device time of the top-3 operators",
     "tuning guide 004 §2.2 (top-3 < 50%)"},
    {"memcpy_share", &Thresholds::memcpy_share, "Memory-copy time / step time",
     "tuning guide 004 §2.2 (< 15% healthy, > 30% abnormal)"},
    {"framework_overhead_share", &Thresholds::framework_overhead_share,
     "Framework overhead (device idle, host in framework code) / step time",
     "tuning guide 004 §2.2 (< 10%, \"clearly higher\")"},
    {"dataloader_stall_share", &Thresholds::dataloader_stall_share,
     "Device idle while the host loads data / step time",
     "TensorBoard PyTorch profiler plugin rule (DataLoader > 5%)"},
    {"comm_share", &Thresholds::comm_share, "Communication time / step time",
     "tuning guide 000 §一 (> 40% congested, target 15%)"},
    {"comm_not_overlapped_share", &Thresholds::comm_not_overlapped_share,
     "Communication not hidden by computation / step time",
     "TensorBoard PyTorch profiler plugin rule (> 10%)"},
    {"step_time_cv", &Thresholds::step_time_cv, "Coefficient of variation of the step time",
     "perfdx (\"strongly fluctuating\")"},
    {"recurring_gap_share", &Thresholds::recurring_gap_share,
     "Idle time per step from one recurring host-side gap / step time",
     "perfdx (the guide's case: 15 ms per step, async logging gave +22%)"},
    {"sync_stall_share", &Thresholds::sync_stall_share,
     "Device idle while the host blocks in a sync call / step time", "perfdx"},
    {"dispatch_gap_share", &Thresholds::dispatch_gap_share,
     "Device idle in many short gaps while the host dispatches / step time",
     "perfdx (tuning guide 000 §一: device idle while the host dispatches)"},
    {"fp32_matrix_share", &Thresholds::fp32_matrix_share,
     "FP32 matrix work (no tensor-core / cube path) / device work",
     "perfdx after TensorBoard plugin rule R6 (10%: ~5% gain at fp32_matrix_speedup)"},
    {"pageable_h2d_share", &Thresholds::pageable_h2d_share,
     "Pageable host-to-device copies / analysed window",
     "perfdx (any pageable copy can be pinned; abnormal at the guide's 15% copy limit)"},
    {"allocations_per_step", &Thresholds::allocations_per_step,
     "Caching-allocator allocations per step on one device (a count)",
     "perfdx (ResNet-50: ~700 per step in the TensorBoard plugin's samples)"},
    {"fragmentation_at_peak", &Thresholds::fragmentation_at_peak,
     "1 - allocated / reserved memory at the reserved peak", "perfdx"},
    {"small_collective_ratio", &Thresholds::small_collective_ratio,
     "Share of collectives smaller than the small-packet limit",
     "msprof-analyze packet.yaml (min_sdma_ratio = min_rdma_ratio = 0.2); perfdx: 0.5"},
    {"link_bandwidth_efficiency", &Thresholds::link_bandwidth_efficiency,
     "Achieved / peak link bandwidth", "tuning guide 000 §一 (< 50% abnormal, target 75%)"},
    {"layout_conversion_share", &Thresholds::layout_conversion_share,
     "Layout conversions (transpose, permute, TransData, ...) / device work time",
     "tuning guide 004 (15-30% in CV tasks); perfdx: healthy below a third of 15%"},
    {"fusion_sequence_share", &Thresholds::fusion_sequence_share,
     "One repeated short-kernel sequence / step time",
     "msprof-analyze fusible_operator.yaml (0.01); perfdx: 5% abnormal"},
    {"host_sync_share", &Thresholds::host_sync_share,
     "Host time in syncs and small copies per step / step time",
     "perfdx (as sync_stall_share; 10% abnormal)"},
    {"elementwise_chain_share", &Thresholds::elementwise_chain_share,
     "Fusable time of unfused elementwise chains per step / step time",
     "perfdx (as fusion_sequence_share: 1%, 5% abnormal)"},
    {"ai_cpu_share", &Thresholds::ai_cpu_share, "AI_CPU task time / step time",
     "msprof-analyze aicpu_checker (any AI_CPU op; high priority from 5%)"},
    {"late_rank_wait_share", &Thresholds::late_rank_wait_share,
     "Time other ranks wait in collectives for the latest rank / step time",
     "msprof-analyze slow rank ((max - min) / mean >= 5%)"},
});

constexpr std::array kScalars = std::to_array<ScalarKey>({
    {"min_recurring_gap_ns", &Thresholds::min_recurring_gap_ns,
     "Shortest idle gap reported as a recurring gap when it repeats", "ns",
     "the tuning guides (report gaps >= 1 ms that repeat)"},
    {"sawtooth_amplitude", &Thresholds::sawtooth_amplitude,
     "Swing of per-step device utilization between consecutive steps that makes a saw-tooth",
     "fraction", "perfdx (the guide's \"saw-tooth\" device utilization)"},
    {"fp32_matrix_speedup", &Thresholds::fp32_matrix_speedup,
     "Assumed speedup of matrix kernels moved from FP32 to FP16/BF16/TF32 tensor cores", "factor",
     "perfdx (conservative: measured kernel speedups are 2-3x)"},
    {"memory_near_capacity", &Thresholds::memory_near_capacity,
     "Peak allocated (or reserved) memory / device memory", "fraction",
     "TensorBoard PyTorch profiler plugin rule R7"},
    {"small_collective_sdma_bytes", &Thresholds::small_collective_sdma_bytes,
     "Small-packet limit of intra-node (SDMA) collectives", "bytes",
     "msprof-analyze packet.yaml (min_sdma_size 16 MB)"},
    {"small_collective_rdma_bytes", &Thresholds::small_collective_rdma_bytes,
     "Small-packet limit of inter-node (RDMA) collectives", "bytes",
     "msprof-analyze packet.yaml (min_rdma_size 1 MB)"},
    {"hccs_peak_gbps", &Thresholds::hccs_peak_gbps, "HCCS (SDMA) link peak, one direction", "GB/s",
     "msprof-analyze bandwidth_contention.yaml (sdma_baseline 18 GB/s)"},
    {"pcie_peak_gbps", &Thresholds::pcie_peak_gbps, "PCIe link peak, one direction", "GB/s",
     "perfdx (PCIe 4.0 x16: 31.5 GB/s)"},
    {"rdma_peak_gbps", &Thresholds::rdma_peak_gbps, "RDMA link peak, one direction", "GB/s",
     "perfdx (one 200 Gb/s RoCE or InfiniBand HDR port)"},
    {"gpu_link_peak_gbps", &Thresholds::gpu_link_peak_gbps,
     "NVLink peak per GPU, one direction; 0 picks it by GPU generation", "GB/s",
     "perfdx (NVIDIA datasheets' bidirectional totals, halved)"},
    {"fusion_min_occurrences", &Thresholds::fusion_min_occurrences,
     "Occurrences a short-kernel sequence needs to be a fusion candidate", "count",
     "msprof-analyze fusible_operator.yaml (sequence_count_threshold 5)"},
    {"host_sync_min_per_step", &Thresholds::host_sync_min_per_step,
     "Host syncs and small copies per step from which they are a finding", "count",
     "perfdx (dozens per step; one loss.item() per step is not a pattern)"},
    {"elementwise_chain_min_ops", &Thresholds::elementwise_chain_min_ops,
     "Elementwise chain members per step from which chains are a finding", "count",
     "perfdx (dozens of tiny elementwise ops per step)"},
    {"ai_cpu_min_task_ns", &Thresholds::ai_cpu_min_task_ns, "Shortest AI_CPU task that counts",
     "ns", "msprof-analyze aicpu_checker (_MIN_TASK_DURATION 20 us)"},
    {"operator_bound_ratio", &Thresholds::operator_bound_ratio,
     "Pipeline ratio (vec, mac, scalar, mte1-3) above which an operator is bound by it", "fraction",
     "msprof-analyze config.ini (operator_bound_ratio 0.8)"},
    {"operator_no_bound_min_task_ns", &Thresholds::operator_no_bound_min_task_ns,
     "Longest unbound operator task that makes operator_no_bound a finding", "ns",
     "msprof-analyze operator_bound_checker (_MIN_TASK_DURATION 20 us)"},
    {"op_compile_min_count", &Thresholds::op_compile_min_count,
     "Runtime operator compilations (aclopCompileAndExecute) per step that are an issue", "count",
     "msprof-analyze prof_common constant (MAX_OP_COMPILE_NUM 20)"},
    {"ai_core_freq_drop_ratio", &Thresholds::ai_core_freq_drop_ratio,
     "Mean AI Core frequency drop of an operator / rated frequency", "fraction",
     "msprof-analyze config.ini (frequency_threshold 0.05)"},
    {"byte_alignment_bytes", &Thresholds::byte_alignment_bytes,
     "SDMA transfers larger than this must be a multiple of it", "bytes",
     "msprof-analyze byte_alignment.yaml (min_size 512) and checker (_BASE_SIZE 512)"},
    {"sync_stream_co_occurrence", &Thresholds::sync_stream_co_occurrence,
     "Share of Node@launch calls followed at once by aclrtSynchronizeStream", "fraction",
     "msprof-analyze synchronize.yaml (min_co_occurrence_ratio 0.5)"},
    {"syncbn_min_count", &Thresholds::syncbn_min_count, "SyncBatchNorm calls per step", "count",
     "msprof-analyze sync_batchnorm.yaml (max_syncbn_num 20)"},
    {"gc_min_event_ns", &Thresholds::gc_min_event_ns,
     "Shortest Python garbage collection that counts", "ns",
     "msprof-analyze gc.yaml (gc_threshold 1000 us)"},
    {"memory_op_min_total_ns", &Thresholds::memory_op_min_total_ns,
     "Time per step in one of aclMallocMemInner / aclrtFreePhysical / aclrtFree", "ns",
     "msprof-analyze memory.yaml (max_total_duration 10000 us)"},
    {"slow_rank_gap_ratio", &Thresholds::slow_rank_gap_ratio,
     "(max - min) of a per-rank Computing / Communication / Free time / mean step total",
     "fraction", "msprof-analyze SlowRankAnalyzer (RATIO_THRESHOLD 0.05)"},
    {"slow_link_gap_ratio", &Thresholds::slow_link_gap_ratio,
     "(max - min) / mean of the per-rank SDMA or RDMA bandwidth", "fraction",
     "msprof-analyze slow link (SLOW_RANK_TIME_RATIO_THRESHOLD 0.05)"},
    {"sdma_peak_gbps", &Thresholds::sdma_peak_gbps,
     "SDMA peak for links without their own (SIO, ...), one direction", "GB/s",
     "msprof-analyze bandwidth_contention.yaml (sdma_baseline 18 GB/s)"},
});

// A new field in Thresholds must get a row above, or the file could not set
// it and `config --defaults` would not show it. (Band is three words with no
// padding between fields of the struct, so the sizes add up exactly.)
static_assert(sizeof(Thresholds) == kBands.size() * sizeof(Band) + kScalars.size() * sizeof(double),
              "Thresholds changed: add the new field to kBands or kScalars in config.cc");

constexpr uintmax_t kMaxConfigBytes = uintmax_t{1} << 20;  // a config file is a few KB

std::string_view TypeName(toml::node_type type) {
  switch (type) {
    case toml::node_type::none:
      return "nothing";
    case toml::node_type::table:
      return "a table";
    case toml::node_type::array:
      return "an array";
    case toml::node_type::string:
      return "a string";
    case toml::node_type::integer:
      return "an integer";
    case toml::node_type::floating_point:
      return "a float";
    case toml::node_type::boolean:
      return "a boolean";
    case toml::node_type::date:
      return "a date";
    case toml::node_type::time:
      return "a time";
    case toml::node_type::date_time:
      return "a date-time";
  }
  return "an unknown type";
}

// "path:line: " for messages about one node.
std::string Where(const std::string& path, const toml::node& node) {
  const toml::source_position& begin = node.source().begin;
  if (begin.line == 0) return path + ": ";
  return fmt::format("{}:{}: ", path, begin.line);
}

// A number (integers are accepted too: `healthy = 1` means 1.0).
Result<double> ReadNumber(const std::string& path, std::string_view key, const toml::node& node) {
  double value = 0;
  if (const toml::value<double>* f = node.as_floating_point()) {
    value = f->get();
  } else if (const toml::value<int64_t>* i = node.as_integer()) {
    value = static_cast<double>(i->get());
  } else {
    return InvalidInput(fmt::format("{}{}: expected a number, got {}", Where(path, node), key,
                                    TypeName(node.type())));
  }
  if (!std::isfinite(value) || value < 0) {
    return InvalidInput(
        fmt::format("{}{}: must be a finite number >= 0, got {}", Where(path, node), key, value));
  }
  return value;
}

Status ReadBand(const std::string& path, const BandKey& spec, const toml::node& node, Band* band) {
  const toml::table* table = node.as_table();
  if (table == nullptr) {
    return InvalidInput(fmt::format("{}{}: expected a table [{}] with healthy and abnormal, got {}",
                                    Where(path, node), spec.name, spec.name,
                                    TypeName(node.type())));
  }
  for (const auto& [key, value] : *table) {
    const std::string full = fmt::format("{}.{}", spec.name, key.str());
    double* target = key.str() == "healthy"    ? &band->healthy
                     : key.str() == "abnormal" ? &band->abnormal
                                               : nullptr;
    if (target == nullptr) {
      return InvalidInput(fmt::format("{}unknown key '{}' (a band has healthy and abnormal)",
                                      Where(path, value), full));
    }
    Result<double> number = ReadNumber(path, full, value);
    if (!number.ok()) return number.status();
    *target = *number;
  }
  // The two limits must bracket the warning zone on the metric's good side,
  // or Evaluate() would call values healthy and abnormal at the same time.
  const bool ordered =
      band->higher_is_better ? band->abnormal <= band->healthy : band->healthy <= band->abnormal;
  if (!ordered) {
    return InvalidInput(fmt::format(
        "{}[{}]: {} is better, so abnormal ({}) must be {} healthy ({})", Where(path, node),
        spec.name, band->higher_is_better ? "higher" : "lower", band->abnormal,
        band->higher_is_better ? "at most" : "at least", band->healthy));
  }
  return Status::Ok();
}

Result<Thresholds> ParseThresholds(const std::string& path, const toml::table& root) {
  Thresholds t;
  for (const auto& [key, node] : root) {
    const ScalarKey* scalar = nullptr;
    for (const ScalarKey& sk : kScalars) {
      if (sk.name == key.str()) scalar = &sk;
    }
    if (scalar != nullptr) {
      Result<double> value = ReadNumber(path, scalar->name, node);
      if (!value.ok()) return value.status();
      t.*(scalar->member) = *value;
      continue;
    }
    const BandKey* spec = nullptr;
    for (const BandKey& b : kBands) {
      if (b.name == key.str()) spec = &b;
    }
    if (spec == nullptr) {
      return InvalidInput(fmt::format("{}unknown key '{}'", Where(path, node), key.str()));
    }
    if (Status s = ReadBand(path, *spec, node, &(t.*(spec->member))); !s.ok()) return s;
  }
  return t;
}

Result<std::string> ReadSmallFile(const std::string& path) {
  std::error_code ec;
  const std::filesystem::file_status st = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(st)) return NotFound(fmt::format("{}: no such file", path));
  if (!std::filesystem::is_regular_file(st)) {
    return InvalidInput(fmt::format("{}: not a regular file", path));
  }
  const uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec) return IoError(fmt::format("{}: {}", path, ec.message()));
  if (size > kMaxConfigBytes) {
    return LimitExceeded(fmt::format("{}: {} bytes, more than a config file can be ({})", path,
                                     size, kMaxConfigBytes));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return IoError(fmt::format("{}: cannot open", path));
  std::ostringstream content;
  content << in.rdbuf();
  if (in.bad()) return IoError(fmt::format("{}: read error", path));
  return content.str();
}

// Shortest text that reads back to the same double; bands always show a
// decimal point so the file reads as the float it is.
std::string FormatDouble(double v) {
  std::string s = fmt::format("{}", v);
  if (s.find_first_of(".eEn") == std::string::npos) s += ".0";
  return s;
}

// Durations, sizes and counts read best as integers; the rest as floats.
std::string FormatScalar(const ScalarKey& key, double v) {
  const bool whole_unit = key.unit == "ns" || key.unit == "bytes" || key.unit == "count";
  if (whole_unit && v == std::floor(v) && v < 9.0e15) {
    return fmt::format("{}", static_cast<int64_t>(v));
  }
  return FormatDouble(v);
}

}  // namespace

std::span<const BandKey> ThresholdBands() {
  return kBands;
}
std::span<const ScalarKey> ThresholdScalars() {
  return kScalars;
}

Result<Thresholds> LoadThresholds(const std::string& path) {
  Result<std::string> content = ReadSmallFile(path);
  if (!content.ok()) return content.status();
  try {
    const toml::table root = toml::parse(*content, path);
    return ParseThresholds(path, root);
  } catch (const toml::parse_error& e) {
    const toml::source_position& at = e.source().begin;
    return InvalidInput(
        fmt::format("{}:{}:{}: not valid TOML: {}", path, at.line, at.column, e.description()));
  } catch (const std::exception& e) {
    return InvalidInput(fmt::format("{}: {}", path, e.what()));
  }
}

Result<Thresholds> ResolveThresholds(const std::string& config_path) {
  if (!config_path.empty()) return LoadThresholds(config_path);
  std::error_code ec;
  if (std::filesystem::exists(kDefaultConfigFile, ec)) {
    return LoadThresholds(std::string(kDefaultConfigFile));
  }
  return Thresholds{};
}

std::string ConfigToml(const Thresholds& t) {
  std::string out =
      "# perfdx thresholds. `perfdx analyze` reads ./perfdx.toml, or the file given with\n"
      "# --config; keys left out keep these defaults, unknown keys are errors.\n"
      "#\n"
      "# Each table is a band: a metric is healthy on the good side of `healthy`,\n"
      "# abnormal beyond `abnormal`, and a warning in between. Shares are fractions\n"
      "# (0.1 = 10%).\n\n";
  // Scalars first: in TOML a key after a [table] header belongs to the table.
  for (const ScalarKey& sk : kScalars) {
    out += fmt::format("# {} ({}).\n# Default from {}.\n{} = {}\n\n", sk.meaning, sk.unit,
                       sk.source, sk.name, FormatScalar(sk, t.*(sk.member)));
  }
  for (const BandKey& b : kBands) {
    const Band& band = t.*(b.member);
    out += fmt::format(
        "# {} ({} is better).\n# Default from {}.\n[{}]\nhealthy = {}\nabnormal = {}\n\n",
        b.meaning, band.higher_is_better ? "higher" : "lower", b.source, b.name,
        FormatDouble(band.healthy), FormatDouble(band.abnormal));
  }
  return out;
}

std::string DefaultConfigToml() {
  return ConfigToml(Thresholds{});
}

}  // namespace perfdx::advisor
