// libFuzzer target for msprof's PROF_* folder: each input is one file of the
// folder ("NAME\n" then its bytes; names below) written into a folder that
// otherwise holds a small well-formed msprof profile (the layout of
// tests/formats/msprof/ascend_msprof_test.cc), analysed as `perfdx analyze`
// would: the sliced timeline, op_summary and the other summaries, the
// analyze/ JSON and the device's info.json.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>

#include "fuzz_support.h"

namespace {

namespace fs = std::filesystem;

constexpr const char* kTimeline = R"([
  {"ph": "M", "name": "process_name", "pid": 100, "tid": 0, "args": {"name": "Ascend Hardware"}},
  {"ph": "M", "name": "process_labels", "pid": 100, "tid": 0, "args": {"labels": "NPU"}},
  {"ph": "M", "name": "thread_name", "pid": 100, "tid": 7, "args": {"name": "Stream 7"}},
  {"ph": "M", "name": "process_name", "pid": 200, "tid": 0, "args": {"name": "CANN"}},
  {"ph": "X", "pid": 200, "tid": 1, "name": "AscendCL@aclnnMatmul", "ts": "990.000", "dur": 5},
  {"ph": "X", "pid": 100, "tid": 7, "name": "MatMul_1", "ts": "1000.000", "dur": 5.0,
   "args": {"Task Type": "AI_CORE", "Physic Stream Id": 7, "connection_id": 1}},
  {"ph": "X", "pid": 100, "tid": 7, "name": "Add_2", "ts": "1010.500", "dur": 2.0,
   "args": {"Task Type": "AI_VECTOR_CORE", "Physic Stream Id": 7, "connection_id": 2}}])";

constexpr const char* kOpSummary =
    "Device_id,Model Name,Model ID,Task ID,Stream ID,Infer ID,Op Name,OP Type,OP State,"
    "Task Type,Task Start Time(us),Task Duration(us),Task Wait Time(us),Block Num,"
    "HF32 Eligible,Mix Block Num,Input Shapes,Input Data Types,Input Formats,"
    "Output Shapes,Output Data Types,Output Formats,Context ID,aicore_time(us),"
    "aic_total_cycles,aic_mac_ratio\n"
    "0,N/A,4294967295,11,7,N/A,MatMul_1,MatMulV2,static,AI_CORE,1000.000\t,5.0,0,24,NO,0,"
    "\"\"\"16,16\"\"\",FLOAT16,ND,\"\"\"16,16\"\"\",FLOAT16,ND,N/A,4.5,8100,0.75\n"
    "0,N/A,4294967295,12,7,N/A,Add_2,Add,dynamic,AI_VECTOR_CORE,1010.500\t,2.0,5.5,8,NO,0,"
    "\"\"\"16\"\"\",FLOAT,ND,\"\"\"16\"\"\",FLOAT,ND,N/A,1.5,2700,0.0\n";

constexpr const char* kDeviceInfo =
    R"({"DeviceInfo": [{"id": 0, "ai_core_num": 24, "aiv_num": 48, "aic_frequency": "1800"}],
        "rank_id": 3})";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto input = perfdx::fuzz::SplitNamed(
      data, size,
      {"mindstudio_profiler_output/msprof_slice_0_20231023172400.json",
       "mindstudio_profiler_output/msprof_slice_1_20231023172400.json",
       "mindstudio_profiler_output/op_summary_20231023172400.csv",
       "mindstudio_profiler_output/op_statistic_20231023172400.csv",
       "mindstudio_profiler_output/api_statistic_20231023172400.csv",
       "mindstudio_profiler_output/npu_module_mem_20231023172400.csv",
       "mindstudio_profiler_output/aicpu_20231023172400.csv", "analyze/communication.json",
       "analyze/communication_matrix.json", "device_0/info.json.0"});
  if (!input) return 0;
  const fs::path prof = perfdx::fuzz::ScratchDir() / "PROF_000001_20231023172400000_ABCDEFGH";
  std::error_code ec;
  fs::remove_all(prof, ec);
  perfdx::fuzz::WriteFile(prof / "mindstudio_profiler_output/msprof_slice_0_20231023172400.json",
                          kTimeline);
  perfdx::fuzz::WriteFile(prof / "mindstudio_profiler_output/op_summary_20231023172400.csv",
                          kOpSummary);
  perfdx::fuzz::WriteFile(prof / "device_0/info.json.0", kDeviceInfo);
  perfdx::fuzz::WriteFile(prof / input->name, input->content);
  perfdx::fuzz::AnalyzePath(prof.string(), size);
  return 0;
}
