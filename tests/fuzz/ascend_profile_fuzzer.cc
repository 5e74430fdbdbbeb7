// libFuzzer target for the torch_npu / MindSpore text profile folder: each
// input is one file of the folder ("NAME\n" then its bytes; names below),
// written into a folder that otherwise holds a small well-formed profile, and
// the folder is analysed as `perfdx analyze` would. Every side-file reader
// (CSV, JSON, profiler_info / metadata, the device's info.json) and every
// analysis that reads what they let through is reached.
// Seeds: tests/fuzz/make_seeds.py (heads of the shared profiles' files).
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>

#include "ascend_trace_fixtures.h"
#include "fuzz_support.h"

namespace {

namespace fs = std::filesystem;
namespace a = perfdx::testing::ascend;

// The base profile: one step with operators, launches, AI Core and HCCL
// work, so that side files have a timeline to be linked to.
std::string BaseTraceView() {
  std::string events;
  events += a::Op("aten::matmul", 10, 300);
  events += a::Cann("AscendCL@aclnnMatmul", 20, 40);
  events += a::Task("MatMulV2_1", "AI_CORE", 100, 200);
  events += a::Op("aten::add", 320, 50);
  events += a::Cann("AscendCL@aclnnAdd", 330, 20);
  events += a::Task("Add_2", "AI_VECTOR_CORE", 360, 30);
  events += a::HcclOp("hcom_allReduce__1_0_1", 400, 300);
  events += a::HcclMemcpy(420, 100, 1 << 20);
  events += a::Freq(0, 1800);
  return a::AscendTrace(1000, events);
}

constexpr const char* kProfilerInfo =
    R"({"config": {"common_config": {"profile_memory": true},
        "experimental_config": {"_profiler_level": "Level1", "_export_type": "text"}},
        "rank_id": 0})";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto input = perfdx::fuzz::SplitNamed(
      data, size,
      {"profiler_info_0.json", "profiler_metadata.json", "ASCEND_PROFILER_OUTPUT/trace_view.json",
       "ASCEND_PROFILER_OUTPUT/kernel_details.csv", "ASCEND_PROFILER_OUTPUT/operator_details.csv",
       "ASCEND_PROFILER_OUTPUT/op_statistic.csv", "ASCEND_PROFILER_OUTPUT/api_statistic.csv",
       "ASCEND_PROFILER_OUTPUT/memory_record.csv", "ASCEND_PROFILER_OUTPUT/operator_memory.csv",
       "ASCEND_PROFILER_OUTPUT/npu_module_mem.csv", "ASCEND_PROFILER_OUTPUT/data_preprocess.csv",
       "ASCEND_PROFILER_OUTPUT/l2_cache.csv", "ASCEND_PROFILER_OUTPUT/step_trace_time.csv",
       "ASCEND_PROFILER_OUTPUT/communication.json",
       "ASCEND_PROFILER_OUTPUT/communication_matrix.json",
       "PROF_000001_20250109000000000_ABCDEFGH/device_0/info.json.0"});
  if (!input) return 0;
  static const std::string base_trace = BaseTraceView();
  const fs::path profile = perfdx::fuzz::ScratchDir() / "rank0_ascend_pt";
  std::error_code ec;
  fs::remove_all(profile, ec);
  perfdx::fuzz::WriteFile(profile / "profiler_info_0.json", kProfilerInfo);
  perfdx::fuzz::WriteFile(profile / "ASCEND_PROFILER_OUTPUT/trace_view.json", base_trace);
  perfdx::fuzz::WriteFile(profile / input->name, input->content);
  perfdx::fuzz::AnalyzePath(profile.string(), size);
  return 0;
}
