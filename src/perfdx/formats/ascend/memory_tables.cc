#include "perfdx/formats/ascend/memory_tables.h"

#include <algorithm>
#include <numeric>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "perfdx/formats/ascend/device.h"

namespace perfdx::formats {

namespace fs = std::filesystem;
using model::AscendData;

namespace {

// Memory sizes in the CSVs: torch_npu divides bytes by 1024² for "MB" and by
// 1024 for "KB" (the DB export holds the same records in bytes).
constexpr double kMiB = 1024.0 * 1024.0;
constexpr double kKiB = 1024.0;

// "Total Allocated(MB)" or msprof's "Total Allocated(KB)": the column and
// the factor to bytes.
std::pair<int, double> SizeColumn(const CsvHeader& h, std::string_view stem) {
  const std::string mb = std::string(stem) + "(MB)";
  const std::string kb = std::string(stem) + "(KB)";
  const int c_mb = h.Find({mb});
  if (c_mb >= 0) return {c_mb, kMiB};
  const int c_kb = h.Find({kb});
  if (c_kb >= 0) return {c_kb, kKiB};
  return {-1, 1};
}

}  // namespace

namespace side_file {

void ReadMemoryRecords(const fs::path& path, const AscendSideOptions& options,
                       model::Trace* trace) {
  AscendData& a = Ascend(trace);
  ReadSideCsv(path, options, trace, [&](const CsvHeader& h, const CsvRow& r) {
    const int component = h.Find({"Component"});
    const auto ts = r.MicrosToNanos(h.Find({"Timestamp(us)"}));
    if (r.Text(component).empty() || !ts) return false;
    const auto [alloc_col, alloc_f] = SizeColumn(h, "Total Allocated");
    const auto [res_col, res_f] = SizeColumn(h, "Total Reserved");
    const auto [act_col, act_f] = SizeColumn(h, "Total Active");
    model::AscendMemoryRecord m;
    m.component = Intern(trace, r.Text(component));
    m.ts_ns = *ts;
    m.allocated_bytes = r.Scaled(alloc_col, alloc_f).value_or(-1);
    m.reserved_bytes = r.Scaled(res_col, res_f).value_or(-1);
    m.active_bytes = r.Scaled(act_col, act_f).value_or(-1);
    m.stream_ptr = r.Int(h.Find({"Stream Ptr"})).value_or(-1);
    m.device_id = DeviceOf(r, h.Find({"Device Type", "Device", "Device_id"}));
    a.memory_records.push_back(m);
    return true;
  });
}

void ReadOperatorMemory(const fs::path& path, const AscendSideOptions& options,
                        model::Trace* trace) {
  AscendData& a = Ascend(trace);
  ReadSideCsv(path, options, trace, [&](const CsvHeader& h, const CsvRow& r) {
    const std::string_view name = r.Text(h.Find({"Name"}));
    const auto [size_col, size_f] = SizeColumn(h, "Size");
    const auto size = r.Scaled(size_col, size_f);
    const auto alloc = r.MicrosToNanos(h.Find({"Allocation Time(us)"}));
    if (name.empty() || !size || !alloc) return false;
    auto bytes = [&](std::string_view stem) {
      const auto [c, f] = SizeColumn(h, stem);
      return r.Scaled(c, f).value_or(-1);
    };
    model::AscendOperatorMemory m;
    m.name = Intern(trace, name);
    m.size_bytes = *size;
    m.allocation_ns = *alloc;
    m.release_ns = r.MicrosToNanos(h.Find({"Release Time(us)"})).value_or(-1);
    m.active_release_ns = r.MicrosToNanos(h.Find({"Active Release Time(us)"})).value_or(-1);
    m.duration_ns = r.MicrosToNanos(h.Find({"Duration(us)"})).value_or(-1);
    m.active_duration_ns = r.MicrosToNanos(h.Find({"Active Duration(us)"})).value_or(-1);
    m.allocation_allocated_bytes = bytes("Allocation Total Allocated");
    m.allocation_reserved_bytes = bytes("Allocation Total Reserved");
    m.allocation_active_bytes = bytes("Allocation Total Active");
    m.release_allocated_bytes = bytes("Release Total Allocated");
    m.release_reserved_bytes = bytes("Release Total Reserved");
    m.release_active_bytes = bytes("Release Total Active");
    m.stream_ptr = r.Int(h.Find({"Stream Ptr"})).value_or(-1);
    m.device_id = DeviceOf(r, h.Find({"Device Type", "Device", "Device_id"}));
    a.operator_memory.push_back(m);
    return true;
  });
}

void ReadModuleMemory(const fs::path& path, const AscendSideOptions& options, model::Trace* trace) {
  AscendData& a = Ascend(trace);
  ReadSideCsv(path, options, trace, [&](const CsvHeader& h, const CsvRow& r) {
    const std::string_view component = r.Text(h.Find({"Component"}));
    const auto ts = r.MicrosToNanos(h.Find({"Timestamp(us)"}));
    const auto [res_col, res_f] = SizeColumn(h, "Total Reserved");
    const auto reserved = r.Scaled(res_col, res_f);
    if (component.empty() || !ts || !reserved) return false;
    model::AscendModuleMemory m;
    m.component = Intern(trace, component);
    m.ts_ns = *ts;
    m.reserved_bytes = *reserved;
    int device = h.Find({"Device"});
    if (device < 0) device = h.Find({"Device_id"});
    m.device_id = DeviceOf(r, device);
    a.module_memory.push_back(m);
    return true;
  });
}

}  // namespace side_file

void CopyAscendMemoryToTrace(model::Trace* trace) {
  if (!trace->ascend || trace->ascend->memory_records.empty()) return;
  AscendData& a = *trace->ascend;
  // The framework's caching allocator, as Kineto's "[memory]" records are
  // for CUDA: torch_npu's PTA; MindSpore's own component; else the merged
  // and graph-engine views. APP (the whole process, sampled) is never used:
  // it has no allocated total and includes HCCL buffers and the runtime.
  std::string chosen;
  for (std::string_view want : {"PTA", "MindSpore", "MS", "PTA+GE", "GE"}) {
    for (const model::AscendMemoryRecord& m : a.memory_records) {
      if (trace->str(m.component) == want && m.allocated_bytes >= 0) {
        chosen = std::string(want);
        break;
      }
    }
    if (!chosen.empty()) break;
  }
  if (chosen.empty()) return;
  a.memory_component = chosen;
  std::vector<const model::AscendMemoryRecord*> rows;
  for (const model::AscendMemoryRecord& m : a.memory_records) {
    if (trace->str(m.component) == chosen && m.allocated_bytes >= 0) rows.push_back(&m);
  }
  std::stable_sort(rows.begin(), rows.end(),
                   [](const auto* x, const auto* y) { return x->ts_ns < y->ts_ns; });
  model::MemoryEventTable& t = trace->memory;
  std::unordered_map<int32_t, int64_t> previous;  // allocated total per device
  for (const model::AscendMemoryRecord* m : rows) {
    auto [it, first] = previous.try_emplace(m->device_id, m->allocated_bytes);
    t.ts_ns.push_back(m->ts_ns);
    t.bytes.push_back(first ? 0 : m->allocated_bytes - it->second);
    it->second = m->allocated_bytes;
    t.total_allocated.push_back(m->allocated_bytes);
    t.total_reserved.push_back(m->reserved_bytes);
    t.device_id.push_back(static_cast<int16_t>(std::clamp<int32_t>(m->device_id, -1, INT16_MAX)));
    t.device_type.push_back(-1);
    t.addr.push_back(0);
  }
  // Keep the table sorted by time (the model's invariant) if it held events.
  std::vector<uint32_t> order(t.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&t](uint32_t x, uint32_t y) { return t.ts_ns[x] < t.ts_ns[y]; });
  auto permute = [&order](auto& column) {
    auto copy = column;
    for (size_t i = 0; i < order.size(); ++i) column[i] = copy[order[i]];
  };
  permute(t.ts_ns);
  permute(t.bytes);
  permute(t.total_allocated);
  permute(t.total_reserved);
  permute(t.device_id);
  permute(t.device_type);
  permute(t.addr);
}

}  // namespace perfdx::formats
