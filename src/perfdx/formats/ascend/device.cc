#include "perfdx/formats/ascend/device.h"

#include "perfdx/formats/ascend/side_file.h"

namespace perfdx::formats {

std::optional<int32_t> ParseAscendDevice(std::string_view text) {
  std::string_view t = TrimCell(text);
  const size_t colon = t.find_first_of(": ");
  if (colon != std::string_view::npos) t = t.substr(colon + 1);
  if (t.empty() || t.size() > 6) return std::nullopt;
  int32_t v = 0;
  for (char c : t) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + (c - '0');
  }
  return v;
}

namespace side_file {

using model::AscendData;

int32_t DeviceOf(const CsvRow& r, int column) {
  return ParseAscendDevice(r.Text(column)).value_or(-1);
}

void SetDeviceFromData(model::Trace* trace) {
  AscendData& a = Ascend(trace);
  if (a.device.device_id >= 0) return;
  for (const model::AscendKernel& k : a.kernels.rows) {
    if (k.device_id >= 0) {
      a.device.device_id = k.device_id;
      return;
    }
  }
  for (const model::AscendMemoryRecord& m : a.memory_records) {
    if (m.device_id >= 0) {
      a.device.device_id = m.device_id;
      return;
    }
  }
  for (const model::Track& t : trace->tracks) {
    if (t.device_id >= 0 && model::IsDeviceTrack(t.kind)) {
      a.device.device_id = t.device_id;
      return;
    }
  }
}

void FillRankInfo(model::Trace* trace) {
  const AscendData& a = *trace->ascend;
  if (!trace->info.world_size) {
    if (auto w = a.DistributedInt("world_size")) trace->info.world_size = w;
  }
  if (!trace->info.rank && a.config.rank_id) trace->info.rank = a.config.rank_id;
  if (!a.device.chip.empty()) trace->info.device_name = a.device.chip;
}

}  // namespace side_file
}  // namespace perfdx::formats
