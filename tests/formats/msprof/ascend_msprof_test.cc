// msprof PROF_* folders (issue #5 item 5) and the mstt single-step trace.
// No real PROF_* folder is shared, so the folder is built here from the
// layout msprof-docs give: mindstudio_profiler_output/msprof_{ts}.json (a
// Chrome trace with the same processes as trace_view.json, possibly cut into
// msprof_slice_{n}_{ts}.json), op_summary_{ts}.csv (kernel_details with
// msprof's column names), device_{id}/info.json.{id} (rank and chip).
#include <gtest/gtest.h>

#include "perfdx/analysis/rank_analysis.h"
#include "perfdx/formats/trace_loader.h"
#include "test_support.h"

namespace perfdx::formats {
namespace {

using perfdx::testing::TempDir;

constexpr const char* kMeta = R"(
  {"ph": "M", "name": "process_name", "pid": 100, "tid": 0, "args": {"name": "Ascend Hardware"}},
  {"ph": "M", "name": "process_labels", "pid": 100, "tid": 0, "args": {"labels": "NPU"}},
  {"ph": "M", "name": "thread_name", "pid": 100, "tid": 7, "args": {"name": "Stream 7"}},
  {"ph": "M", "name": "process_name", "pid": 200, "tid": 0, "args": {"name": "CANN"}})";

std::string Task(const char* name, const char* ts, double dur_us, int connection) {
  return std::string(R"({"ph": "X", "pid": 100, "tid": 7, "name": ")") + name + R"(", "ts": ")" +
         ts + R"(", "dur": )" + std::to_string(dur_us) +
         R"(, "args": {"Task Type": "AI_CORE", "Physic Stream Id": 7, "connection_id": )" +
         std::to_string(connection) + "}}";
}

void WriteProf(const TempDir& dir, const std::string& prof, bool sliced) {
  const std::string out = prof + "/mindstudio_profiler_output/";
  const std::string t1 = Task("MatMul_1", "1000.000", 5.0, 1);
  const std::string t2 = Task("Add_2", "1010.500", 2.0, 2);
  if (sliced) {
    dir.Write(out + "msprof_slice_0_20231023172400.json",
              std::string("[") + kMeta + ",\n" + t1 + "]");
    dir.Write(out + "msprof_slice_1_20231023172400.json", "[" + t2 + "]");
  } else {
    dir.Write(out + "msprof_20231023172400.json",
              std::string("[") + kMeta + ",\n" + t1 + ",\n" + t2 + "]");
  }
  dir.Write(out + "op_summary_20231023172400.csv",
            "Device_id,Model Name,Model ID,Task ID,Stream ID,Infer ID,Op Name,OP Type,OP State,"
            "Task Type,Task Start Time(us),Task Duration(us),Task Wait Time(us),Block Num,"
            "HF32 Eligible,Mix Block Num,Input Shapes,Input Data Types,Input Formats,"
            "Output Shapes,Output Data Types,Output Formats,Context ID,aicore_time(us),"
            "aic_total_cycles,aic_mac_ratio\n"
            "0,N/A,4294967295,11,7,N/A,MatMul_1,MatMulV2,static,AI_CORE,1000.000\t,5.0,0,24,NO,0,"
            "\"\"\"16,16\"\"\",FLOAT16,ND,\"\"\"16,16\"\"\",FLOAT16,ND,N/A,4.5,8100,0.75\n"
            "0,N/A,4294967295,12,7,N/A,Add_2,Add,dynamic,AI_CORE,1010.500\t,2.0,5.5,8,NO,0,"
            "\"\"\"16\"\"\",FLOAT,ND,\"\"\"16\"\"\",FLOAT,ND,N/A,1.5,2700,0.0\n");
  dir.Write(
      out + "op_statistic_20231023172400.csv",
      "Device_id,OP Type,Core Type,Count,Total Time(us),Min Time(us),Avg Time(us),Max Time(us),"
      "Ratio(%)\n0,MatMulV2,AI_CORE,1,5.0,5.0,5.0,5.0,71.4\n0,Add,AI_CORE,1,2.0,2.0,2.0,2.0,28."
      "6\n");
  dir.Write(
      prof + "/device_0/info.json.0",
      R"({"DeviceInfo": [{"id": 0, "ai_core_num": 24, "aiv_num": 48, "aic_frequency": "1800"}],
                "rank_id": 3})");
}

void CheckProf(const model::Trace& t) {
  EXPECT_EQ(t.info.source, model::SourceFormat::kMsprofTimeline);
  EXPECT_EQ(t.info.rank, 3);  // info.json.0 "rank_id"
  size_t kernels = 0;
  for (model::SliceId i = 0; i < t.slices.size(); ++i) {
    kernels += t.slices.kind[i] == model::EventKind::kComputeKernel;
  }
  EXPECT_EQ(kernels, 2u);
  ASSERT_TRUE(t.ascend.has_value());
  const model::AscendData& a = *t.ascend;
  EXPECT_EQ(a.config.framework, "msprof");
  EXPECT_EQ(a.device.ai_core_count, 24);
  EXPECT_EQ(a.device.aiv_count, 48);
  EXPECT_EQ(a.device.aicore_freq_mhz, 1800);
  ASSERT_EQ(a.kernels.rows.size(), 2u);
  const model::AscendKernel& k = a.kernels.rows[1];
  EXPECT_EQ(t.str(k.name), "Add_2");
  EXPECT_EQ(t.str(k.op_type), "Add");
  EXPECT_EQ(t.str(k.core_type), "AI_CORE");
  EXPECT_EQ(k.start_ns, 1010500);
  EXPECT_EQ(k.dur_ns, 2000);
  EXPECT_EQ(k.wait_ns, 5500);
  EXPECT_EQ(k.block_dim, 8);  // "Block Num"
  EXPECT_EQ(k.op_state, model::AscendOpState::kDynamic);
  EXPECT_EQ(t.str(k.input_shapes), "16");
  ASSERT_GE(k.slice, 0);
  EXPECT_EQ(t.slice_name(static_cast<model::SliceId>(k.slice)), "Add_2");
  EXPECT_EQ(a.kernels.Metric(0, "aic_mac_ratio"), 0.75);
  EXPECT_EQ(a.kernels.Metric(0, "aic_total_time_ns"), 4500.0);
  ASSERT_EQ(a.op_statistics.size(), 2u);
  EXPECT_EQ(a.op_statistics[0].total_ns, 5000);
}

TEST(MsprofFolderTest, TimelineAndOpSummary) {
  TempDir dir;
  WriteProf(dir, "run/PROF_000001_20231023172400639_ABCDEFGH", false);
  auto loaded = LoadTraces({dir.path() + "/run"}, LoadOptions{});
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  ASSERT_EQ(loaded->traces.size(), 1u);
  CheckProf(loaded->traces[0]);
}

TEST(MsprofFolderTest, SlicedTimelineIsOneTrace) {
  TempDir dir;
  WriteProf(dir, "PROF_000001_20231023172400639_ABCDEFGH", true);
  // The folder itself, and its output folder, name the same input.
  for (const std::string& p :
       {dir.path() + "/PROF_000001_20231023172400639_ABCDEFGH",
        dir.path() + "/PROF_000001_20231023172400639_ABCDEFGH/mindstudio_profiler_output"}) {
    auto loaded = LoadTraces({p}, LoadOptions{});
    ASSERT_TRUE(loaded.ok()) << loaded.status().message();
    ASSERT_EQ(loaded->traces.size(), 1u);
    CheckProf(loaded->traces[0]);
  }
}

TEST(MsprofFolderTest, WithoutTimelineIsReported) {
  TempDir dir;
  dir.Write("PROF_000001_20231023172400639_ABCDEFGH/mindstudio_profiler_output/op_summary_1.csv",
            "a\n");
  auto loaded = LoadTraces({dir.path() + "/PROF_000001_20231023172400639_ABCDEFGH"}, LoadOptions{});
  ASSERT_FALSE(loaded.ok());
  EXPECT_NE(loaded.status().message().find("msprof_"), std::string::npos);
}

// The mstt advisor's single-step trace_view.json (older pid scheme, no HCCL):
// one step, 276 AI Core tasks on stream 3, flows from ops to tasks.
TEST(MsttSamplesTest, SingleStepTraceLoads) {
  PERFDX_REQUIRE_SHARED();
  auto loaded = LoadTraces(
      {perfdx::testing::SharedPath("traces/ascend/mstt_samples/single_step_trace_view.json")},
      LoadOptions{});
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  ASSERT_EQ(loaded->traces.size(), 1u);
  const model::Trace& t = loaded->traces[0];
  EXPECT_EQ(t.info.source, model::SourceFormat::kAscendTraceView);
  ASSERT_EQ(t.steps.size(), 1u);
  size_t kernels = 0;
  for (model::SliceId i = 0; i < t.slices.size(); ++i) {
    kernels += t.slices.kind[i] == model::EventKind::kComputeKernel;
  }
  // python3: sum(1 for e in json.load(f) if e.get("ph") == "X" and e.get("args", {}).get("Task
  // Type"))
  EXPECT_EQ(kernels, 276u);
  const analysis::RankAnalysis a = analysis::AnalyzeRank(t, analysis::AnalysisOptions{});
  ASSERT_EQ(a.steps.size(), 1u);
  EXPECT_GT(a.steps[0].device.computing_ns, 0);
}

}  // namespace
}  // namespace perfdx::formats
