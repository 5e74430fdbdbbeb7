#include "perfdx/formats/ascend/profile_reader.h"

#include <filesystem>

#include "perfdx/formats/ascend/device.h"
#include "perfdx/formats/ascend/kernel_details.h"
#include "perfdx/formats/ascend/memory_tables.h"
#include "perfdx/formats/ascend/operator_tables.h"
#include "perfdx/formats/ascend/profiler_info.h"
#include "perfdx/formats/ascend/profiler_reported.h"
#include "perfdx/formats/msprof/msprof_reader.h"

namespace perfdx::formats {

namespace fs = std::filesystem;
using model::AscendData;
using side_file::Ascend;
using side_file::FillRankInfo;
using side_file::ParseCommunication;
using side_file::ParseCommunicationMatrix;
using side_file::ReadAiCpu;
using side_file::ReadApiStatistic;
using side_file::ReadKernelCsv;
using side_file::ReadL2Cache;
using side_file::ReadMemoryRecords;
using side_file::ReadModuleMemory;
using side_file::ReadOperatorDetails;
using side_file::ReadOperatorMemory;
using side_file::ReadOpStatistic;
using side_file::ReadSideJson;
using side_file::ReadStepTraceTime;
using side_file::SetDeviceFromData;

void ReadAscendProfileFiles(const std::string& profile_dir, std::string_view framework,
                            const AscendSideOptions& options, model::Trace* trace) {
  AscendData& a = Ascend(trace);
  a.config.framework = std::string(framework);
  ReadProfilerInfoFiles(profile_dir, options, trace);
  const fs::path out = fs::path(profile_dir) / "ASCEND_PROFILER_OUTPUT";
  ReadKernelCsv(out / "kernel_details.csv", options, trace);
  ReadOperatorDetails(out / "operator_details.csv", options, trace);
  ReadOpStatistic(out / "op_statistic.csv", options, trace);
  ReadApiStatistic(out / "api_statistic.csv", options, trace);
  ReadMemoryRecords(out / "memory_record.csv", options, trace);
  ReadOperatorMemory(out / "operator_memory.csv", options, trace);
  ReadModuleMemory(out / "npu_module_mem.csv", options, trace);
  ReadAiCpu(out / "data_preprocess.csv", options, trace);
  ReadL2Cache(out / "l2_cache.csv", options, trace);
  ReadStepTraceTime(out / "step_trace_time.csv", options, trace);
  ReadSideJson(out / "communication.json", options, trace,
               [&](simdjson::dom::element doc) { ParseCommunication(doc, &a.profiler_reported); });
  ReadSideJson(out / "communication_matrix.json", options, trace, [&](simdjson::dom::element doc) {
    ParseCommunicationMatrix(doc, &a.profiler_reported);
  });
  ReadMsprofDeviceInfo(profile_dir, options, trace);
  SetDeviceFromData(trace);
  LinkAscendKernels(trace);
  CopyAscendMemoryToTrace(trace);
  FillRankInfo(trace);
}

}  // namespace perfdx::formats
