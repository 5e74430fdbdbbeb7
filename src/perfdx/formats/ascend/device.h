// Which device and rank an Ascend profile is: the device number as the side
// files write it, and the rank-wide facts RankInfo carries too.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "perfdx/formats/csv/csv_reader.h"
#include "perfdx/model/trace.h"

namespace perfdx::formats {

// "NPU:0", "npu:3", "0", "NPU 2" -> the device number; nullopt for "host", "CPU".
std::optional<int32_t> ParseAscendDevice(std::string_view text);

namespace side_file {

// The device number in column `column` of `r`; -1 when it names none.
int32_t DeviceOf(const CsvRow& r, int column);

// Trace::ascend's device id, when nothing said it, from the first kernel
// row, memory record or device track that names one.
void SetDeviceFromData(model::Trace* trace);

// Rank-wide facts the generic RankInfo carries too.
void FillRankInfo(model::Trace* trace);

}  // namespace side_file
}  // namespace perfdx::formats
