#include "perfdx/formats/msprof/msprof_reader.h"

#include <filesystem>
#include <vector>

#include <simdjson.h>

#include "perfdx/formats/ascend/device.h"
#include "perfdx/formats/ascend/kernel_details.h"
#include "perfdx/formats/ascend/memory_tables.h"
#include "perfdx/formats/ascend/operator_tables.h"
#include "perfdx/formats/ascend/profiler_reported.h"

namespace perfdx::formats {

namespace fs = std::filesystem;
using model::AscendData;
using side_file::Ascend;
using side_file::FilesLike;
using side_file::FillRankInfo;
using side_file::JsonInt;
using side_file::JsonNumber;
using side_file::ParseCommunication;
using side_file::ParseCommunicationMatrix;
using side_file::ReadAiCpu;
using side_file::ReadApiStatistic;
using side_file::ReadKernelCsv;
using side_file::ReadModuleMemory;
using side_file::ReadOpStatistic;
using side_file::ReadSideJson;
using side_file::SetDeviceFromData;

void ReadMsprofDeviceInfo(const std::string& dir, const AscendSideOptions& options,
                          model::Trace* trace) {
  AscendData& a = Ascend(trace);
  std::vector<fs::path> prof_dirs;
  const fs::path root(dir);
  if (root.filename().string().starts_with("PROF_")) prof_dirs.push_back(root);
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(root, ec)) {
    if (entry.is_directory(ec) && entry.path().filename().string().starts_with("PROF_")) {
      prof_dirs.push_back(entry.path());
    }
  }
  for (const fs::path& prof : prof_dirs) {
    for (const auto& dev : fs::directory_iterator(prof, ec)) {
      const std::string dev_name = dev.path().filename().string();
      if (!dev.is_directory(ec) || !dev_name.starts_with("device_")) continue;
      for (const fs::path& info : FilesLike(dev.path(), "info.json", "")) {
        if (info.filename().string().ends_with(".done")) continue;
        ReadSideJson(info, options, trace, [&](simdjson::dom::element doc) {
          simdjson::dom::array devices;
          if (doc["DeviceInfo"].get(devices) != simdjson::SUCCESS || devices.size() == 0) return;
          simdjson::dom::object d;
          if (devices.at(0).get(d) != simdjson::SUCCESS) return;
          simdjson::dom::element e;
          if (d["ai_core_num"].get(e) == simdjson::SUCCESS) {
            a.device.ai_core_count = static_cast<int32_t>(JsonInt(e).value_or(-1));
          }
          if (d["aiv_num"].get(e) == simdjson::SUCCESS) {
            a.device.aiv_count = static_cast<int32_t>(JsonInt(e).value_or(-1));
          }
          if (d["aic_frequency"].get(e) == simdjson::SUCCESS && a.device.aicore_freq_mhz < 0) {
            a.device.aicore_freq_mhz = JsonNumber(e).value_or(-1);
          }
          if (d["id"].get(e) == simdjson::SUCCESS && a.device.device_id < 0) {
            a.device.device_id = static_cast<int32_t>(JsonInt(e).value_or(-1));
          }
        });
        if (a.device.ai_core_count >= 0) return;
      }
    }
  }
}

void ReadMsprofFiles(const std::string& prof_dir, const AscendSideOptions& options,
                     model::Trace* trace) {
  AscendData& a = Ascend(trace);
  a.config.framework = "msprof";
  const fs::path out = fs::path(prof_dir) / "mindstudio_profiler_output";
  for (const fs::path& p : FilesLike(out, "op_summary_", ".csv")) ReadKernelCsv(p, options, trace);
  for (const fs::path& p : FilesLike(out, "op_statistic_", ".csv"))
    ReadOpStatistic(p, options, trace);
  for (const fs::path& p : FilesLike(out, "api_statistic_", ".csv"))
    ReadApiStatistic(p, options, trace);
  for (const fs::path& p : FilesLike(out, "npu_module_mem_", ".csv")) {
    ReadModuleMemory(p, options, trace);
  }
  for (const fs::path& p : FilesLike(out, "aicpu_", ".csv")) ReadAiCpu(p, options, trace);
  const fs::path analyze = fs::path(prof_dir) / "analyze";
  ReadSideJson(analyze / "communication.json", options, trace,
               [&](simdjson::dom::element doc) { ParseCommunication(doc, &a.profiler_reported); });
  ReadSideJson(
      analyze / "communication_matrix.json", options, trace,
      [&](simdjson::dom::element doc) { ParseCommunicationMatrix(doc, &a.profiler_reported); });
  ReadMsprofDeviceInfo(prof_dir, options, trace);
  SetDeviceFromData(trace);
  LinkAscendKernels(trace);
  FillRankInfo(trace);
}

}  // namespace perfdx::formats
