// Every Ascend side-file reader on the real files: both ranks of the level-1
// text export and both mstt kernel_details.csv variants (PipeUtilization
// and the older ArithmeticUtilization header).
//
// Expected values come from the files themselves, read with Python's csv
// module while writing the test, e.g.
//   python3 -c "import csv; r=list(csv.DictReader(open(F, newline='', encoding='utf-8-sig')));
//               print(len(r), r[0])"
// and sums with decimal.Decimal (µs * 1000 -> ns), never from perfdx.
#include <cmath>
#include <map>
#include <string>

#include <gtest/gtest.h>

#include "perfdx/formats/ascend/device.h"
#include "perfdx/formats/ascend/kernel_details.h"
#include "perfdx/formats/ascend/profile_reader.h"
#include "perfdx/formats/ascend/profiler_info.h"
#include "perfdx/formats/trace_loader.h"
#include "test_support.h"

namespace perfdx::formats {
namespace {

using perfdx::testing::SharedPath;

std::string TextRank(int rank) {
  return SharedPath("traces/ascend/torch_npu_2rank_text_level1/rank" + std::to_string(rank) +
                    "_ascend_pt");
}

model::Trace LoadOne(const std::string& path) {
  auto loaded = LoadTraces({path}, LoadOptions{});
  EXPECT_TRUE(loaded.ok()) << loaded.status().message();
  if (!loaded.ok() || loaded->traces.size() != 1) {
    ADD_FAILURE() << "expected one trace from " << path;
    return model::Trace{};
  }
  return std::move(loaded->traces[0]);
}

// Expected numbers per rank (python3 csv, see the file comment).
struct RankExpect {
  int rank;
  int64_t kernel_dur_sum_ns;   // sum(Decimal(Duration(us))*1000)
  int64_t kernel_wait_sum_ns;  // sum(Decimal(Wait Time(us))*1000)
  int64_t first_start_ns;      // row 0 Start Time(us)
  int64_t first_dur_ns;
  double first_aiv_vec_ratio;
  int64_t first_aiv_time_ns;  // aiv_time(us) * 1000
  double aic_mac_ratio_sum;   // over rows where it is not N/A (6 rows are)
  int64_t last_dur_ns;
  int64_t last_task_id;
  // operator_details Device Self Duration(us), each rounded to the nearest
  // ns (Decimal(x) * 1000).to_integral_value(ROUND_HALF_UP): the values have
  // up to 6 decimals.
  int64_t operator_device_self_sum_ns;
  double l2_first_victim;
  int64_t api_first_ns;       // hccl Launch_Ffts Time(us)
  int64_t op_first_total_ns;  // ForeachAddList Total Time(us)
};

const RankExpect kRanks[] = {
    {0, 114865613, 101120641, 1736408883704643212, 53741, 0.186, 50522, 12.316, 624152, 11267,
     115730766, 0.23264, 474410, 1959079},
    {1, 109253559, 96394100, 1736408883709301270, 53841, 0.186, 50681, 12.268, 626832, 11276,
     110550644, 0.103524, 458390, 1954139},
};

class AscendTextSideFilesTest : public ::testing::TestWithParam<RankExpect> {};

TEST_P(AscendTextSideFilesTest, EveryReader) {
  PERFDX_REQUIRE_SHARED();
  const RankExpect& e = GetParam();
  const model::Trace trace = LoadOne(TextRank(e.rank));
  ASSERT_TRUE(trace.ascend.has_value());
  const model::AscendData& a = *trace.ascend;
  EXPECT_EQ(trace.info.rank, e.rank);
  EXPECT_EQ(trace.load_stats.Get(model::LoadStat::kSideRowSkipped), 0u);
  EXPECT_EQ(trace.load_stats.Get(model::LoadStat::kSideFileUnreadable), 0u);

  // profiler_info_{rank}.json / profiler_metadata.json.
  EXPECT_EQ(a.config.framework, "torch_npu");
  EXPECT_EQ(a.config.profiler_level, "Level1");
  EXPECT_EQ(a.config.aic_metrics, "ACL_AICORE_PIPE_UTILIZATION");
  EXPECT_EQ(a.config.export_types, std::vector<std::string>{"text"});
  EXPECT_EQ(a.config.activities.size(), 2u);
  EXPECT_EQ(a.config.with_stack, true);
  EXPECT_EQ(a.config.l2_cache, true);
  EXPECT_EQ(a.config.rank_id, e.rank);
  EXPECT_EQ(a.env_variables.size(), 8u);
  EXPECT_EQ(a.env_variables.at("PYTORCH_NPU_ALLOC_CONF"), "");
  EXPECT_TRUE(a.parallel_groups.empty());     // this sample has none
  EXPECT_EQ(a.device.device_id, e.rank);      // "NPU:1" on rank 1
  EXPECT_EQ(a.device.aicore_freq_mhz, 1800);  // "AI Core Freq" counter

  // kernel_details.csv: 191 rows, 149 AI_VECTOR_CORE, 23 AI_CORE, 13 MIX_AIV,
  // 4 HCCL, 2 DSA_SQE.
  ASSERT_EQ(a.kernels.rows.size(), 191u);
  std::map<std::string, int> by_core;
  int64_t dur_sum = 0;
  int64_t wait_sum = 0;
  int linked = 0;
  for (const model::AscendKernel& k : a.kernels.rows) {
    ++by_core[std::string(trace.str(k.core_type))];
    dur_sum += k.dur_ns;
    wait_sum += k.wait_ns;
    if (k.slice >= 0) {
      ++linked;
      // The CSV and trace_view.json round sub-ns times apart (HCCL op
      // starts …241.563 vs …241.564 µs).
      EXPECT_NEAR(trace.slices.ts_ns[k.slice], k.start_ns, 1) << trace.str(k.name);
      EXPECT_NEAR(trace.slices.dur_ns[k.slice], k.dur_ns, 1) << trace.str(k.name);
      EXPECT_EQ(trace.slice_name(k.slice), trace.str(k.name));
    }
  }
  EXPECT_EQ(
      by_core,
      (std::map<std::string, int>{
          {"AI_VECTOR_CORE", 149}, {"AI_CORE", 23}, {"MIX_AIV", 13}, {"HCCL", 4}, {"DSA_SQE", 2}}));
  EXPECT_EQ(dur_sum, e.kernel_dur_sum_ns);
  EXPECT_EQ(wait_sum, e.kernel_wait_sum_ns);
  // Every kernel has its Ascend Hardware task (and every HCCL row its op).
  EXPECT_EQ(linked, 191);
  const model::AscendKernel& first = a.kernels.rows.front();
  EXPECT_EQ(trace.str(first.name), "trans_TransData_0");
  EXPECT_EQ(trace.str(first.op_type), "TransData");
  EXPECT_EQ(first.op_state, model::AscendOpState::kDynamic);
  EXPECT_EQ(first.start_ns, e.first_start_ns);
  EXPECT_EQ(first.dur_ns, e.first_dur_ns);
  EXPECT_EQ(first.wait_ns, 0);
  EXPECT_EQ(first.block_dim, 32);
  EXPECT_EQ(first.mix_block_dim, 0);
  EXPECT_EQ(first.hf32_eligible, 0);
  EXPECT_EQ(first.stream_id, 2);
  EXPECT_EQ(first.step_id, 50);
  EXPECT_EQ(first.model_id, 4294967295);
  EXPECT_EQ(first.context_id, -1);  // N/A
  EXPECT_EQ(trace.str(first.input_shapes), "32,3,224,224");
  EXPECT_EQ(trace.str(first.input_dtypes), "FLOAT");
  EXPECT_EQ(trace.str(first.output_formats), "NC1HWC0");
  EXPECT_DOUBLE_EQ(a.kernels.Metric(0, "aiv_vec_ratio").value_or(-1), e.first_aiv_vec_ratio);
  EXPECT_NEAR(a.kernels.Metric(0, "aiv_total_time_ns").value_or(-1), e.first_aiv_time_ns, 1e-6);
  EXPECT_EQ(a.kernels.Metric(0, "no_such_metric"), std::nullopt);
  // The PipeUtilization metric set, canonical names.
  for (const char* m :
       {"aic_total_time_ns", "aic_total_cycles", "aic_mac_time_ns", "aic_mac_ratio",
        "aic_mte2_ratio", "aic_fixpipe_ratio", "aic_icache_miss_rate", "aiv_total_cycles",
        "aiv_vec_ratio", "aiv_mte3_ratio", "cube_utilization_pct"}) {
    EXPECT_GE(a.kernels.MetricColumn(m), 0) << m;
  }
  double mac_sum = 0;
  int mac_missing = 0;
  const int mac = a.kernels.MetricColumn("aic_mac_ratio");
  for (size_t k = 0; k < a.kernels.rows.size(); ++k) {
    if (auto v = a.kernels.Metric(k, mac)) {
      mac_sum += *v;
    } else {
      ++mac_missing;
    }
  }
  EXPECT_NEAR(mac_sum, e.aic_mac_ratio_sum, 1e-9);
  EXPECT_EQ(mac_missing, 6);  // the 4 HCCL and 2 DSA rows say N/A
  EXPECT_EQ(a.kernels.rows.back().dur_ns, e.last_dur_ns);
  EXPECT_EQ(a.kernels.rows.back().task_id, e.last_task_id);

  // operator_details.csv: 859 records (call stacks span lines).
  ASSERT_EQ(a.operator_details.size(), 859u);
  int64_t self_sum = 0;
  for (const model::AscendOperatorDetail& d : a.operator_details) self_sum += d.device_self_ns;
  EXPECT_EQ(self_sum, e.operator_device_self_sum_ns);
  EXPECT_EQ(trace.str(a.operator_details[0].name),
            "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__");
  EXPECT_EQ(std::count(trace.str(a.operator_details[0].call_stack).begin(),
                       trace.str(a.operator_details[0].call_stack).end(), '\n'),
            10);

  // op_statistic.csv / api_statistic.csv.
  ASSERT_EQ(a.op_statistics.size(), 33u);
  EXPECT_EQ(trace.str(a.op_statistics[0].op_type), "ForeachAddList");
  EXPECT_EQ(trace.str(a.op_statistics[0].core_type), "AI_VECTOR_CORE");
  EXPECT_EQ(a.op_statistics[0].count, 3);
  EXPECT_EQ(a.op_statistics[0].total_ns, e.op_first_total_ns);
  ASSERT_EQ(a.api_statistics.size(), 57u);
  EXPECT_EQ(trace.str(a.api_statistics[0].level), "hccl");
  EXPECT_EQ(trace.str(a.api_statistics[0].name), "Launch_Ffts");
  EXPECT_EQ(a.api_statistics[0].total_ns, e.api_first_ns);
  EXPECT_EQ(a.api_statistics[0].count, 4);

  // memory_record.csv: 1004 rows = PTA+GE 495, PTA 381, GE 114, APP 14.
  ASSERT_EQ(a.memory_records.size(), 1004u);
  std::map<std::string, int> by_component;
  int64_t pta_max_allocated = 0;
  for (const model::AscendMemoryRecord& m : a.memory_records) {
    ++by_component[std::string(trace.str(m.component))];
    EXPECT_EQ(m.device_id, e.rank);
    if (trace.str(m.component) == "PTA")
      pta_max_allocated = std::max(pta_max_allocated, m.allocated_bytes);
    if (trace.str(m.component) == "APP") {
      EXPECT_EQ(m.allocated_bytes, -1);  // empty cell
    }
  }
  EXPECT_EQ(by_component,
            (std::map<std::string, int>{{"PTA+GE", 495}, {"PTA", 381}, {"GE", 114}, {"APP", 14}}));
  // max(round(float(Total Allocated(MB)) * 1048576)) over PTA rows.
  EXPECT_EQ(pta_max_allocated, 1245688832);
  // PTA is the framework allocator: its records are the trace's memory events.
  EXPECT_EQ(a.memory_component, "PTA");
  ASSERT_EQ(trace.memory.size(), 381u);
  EXPECT_EQ(trace.memory.total_allocated[0], 981462016);  // 935.9951171875 MB
  EXPECT_EQ(trace.memory.total_reserved[0], 1522532352);  // 1452.0 MB
  int64_t max_allocated = 0;
  for (size_t i = 0; i < trace.memory.size(); ++i) {
    max_allocated = std::max(max_allocated, trace.memory.total_allocated[i]);
    if (i > 0) {
      EXPECT_LE(trace.memory.ts_ns[i - 1], trace.memory.ts_ns[i]);
    }
  }
  EXPECT_EQ(max_allocated, 1245688832);

  // operator_memory.csv: 184 rows, 160 released; sizes KB -> bytes.
  ASSERT_EQ(a.operator_memory.size(), 184u);
  EXPECT_EQ(trace.str(a.operator_memory[0].name), "aten::empty_strided");
  EXPECT_EQ(a.operator_memory[0].size_bytes, 19268096);  // 18816.5 KB
  EXPECT_EQ(a.operator_memory[0].release_ns, -1);
  EXPECT_EQ(std::count_if(a.operator_memory.begin(), a.operator_memory.end(),
                          [](const auto& m) { return m.release_ns >= 0; }),
            160);

  // npu_module_mem.csv: 1078 rows; l2_cache.csv: 179 rows, every Hit Rate N/A.
  ASSERT_EQ(a.module_memory.size(), 1078u);
  EXPECT_EQ(trace.str(a.module_memory.back().component), "MBUFF");
  ASSERT_EQ(a.l2_cache.size(), 179u);
  EXPECT_TRUE(std::isnan(a.l2_cache[0].hit_rate));
  EXPECT_DOUBLE_EQ(a.l2_cache[0].victim_rate, e.l2_first_victim);
  EXPECT_EQ(trace.str(a.l2_cache[0].op_name), "trans_TransData_1");

  // Cross-check data only: step_trace_time.csv, communication*.json.
  ASSERT_EQ(a.profiler_reported.step_trace.size(), 1u);
  EXPECT_EQ(a.profiler_reported.step_trace[0].step, "50");
  // 4 allreduce ops + "Total Op Info".
  EXPECT_EQ(a.profiler_reported.communication.size(), 5u);
  EXPECT_FALSE(a.profiler_reported.communication_matrix.empty());
  EXPECT_TRUE(a.ai_cpu_ops.empty());  // no data_preprocess.csv in this sample
}

INSTANTIATE_TEST_SUITE_P(BothRanks, AscendTextSideFilesTest, ::testing::ValuesIn(kRanks),
                         [](const auto& p) { return "Rank" + std::to_string(p.param.rank); });

TEST(AscendTextSideFilesTest, CommunicationJsonValues) {
  PERFDX_REQUIRE_SHARED();
  const model::Trace trace = LoadOne(TextRank(0));
  ASSERT_TRUE(trace.ascend.has_value());
  const auto& comm = trace.ascend->profiler_reported.communication;
  const model::ReportedCommOp* op = nullptr;
  for (const auto& c : comm) {
    if (c.op_name == "hcom_allReduce__586_0_1") op = &c;
  }
  ASSERT_NE(op, nullptr);
  // communication.json, step50/collective/hcom_allReduce__586_0_1@17522688603477080586.
  EXPECT_EQ(op->step, "step50");
  EXPECT_FALSE(op->p2p);
  EXPECT_EQ(op->group, "17522688603477080586");
  EXPECT_EQ(op->elapse_ns, 79089520);  // 79.08952021875 ms
  EXPECT_EQ(op->transit_ns, 239185);   // 0.23918478124999998 ms
  EXPECT_EQ(op->wait_ns, 5646633);     // 5.64663284375 ms
  EXPECT_DOUBLE_EQ(op->wait_ratio, 0.9594);
  const model::ReportedTransportBandwidth* hccs = nullptr;
  for (const auto& b : op->bandwidth) {
    if (b.transport == "HCCS") hccs = &b;
  }
  ASSERT_NE(hccs, nullptr);
  EXPECT_EQ(hccs->transit_bytes, 28647232);  // 28.647232 MB
  EXPECT_EQ(hccs->transit_ns, 1816836);      // 1.81683634375 ms
  EXPECT_DOUBLE_EQ(hccs->bandwidth_gbps, 15.7676);
  ASSERT_EQ(hccs->size_distribution.size(), 2u);
  EXPECT_EQ(hccs->size_distribution[0].packet_bytes, 2064384);  // "2.064384"
  EXPECT_EQ(hccs->size_distribution[0].count, 12);
}

// mstt's two kernel_details.csv samples: PipeUtilization (with OP State and
// HF32 Eligible, trailing tabs) and ArithmeticUtilization (neither, plain
// times). python3 csv: 29 and 591 rows.
TEST(AscendKernelDetailsTest, MsttPipeUtilization) {
  PERFDX_REQUIRE_SHARED();
  model::Trace trace;
  AscendSideOptions options;
  // The reader takes a profile folder; point it at a copy of the layout.
  perfdx::testing::TempDir dir;
  dir.Write("x_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv",
            perfdx::testing::ReadFileOrDie(
                SharedPath("traces/ascend/mstt_samples/kernel_details_pipe_util.csv")));
  ReadAscendProfileFiles(dir.path() + "/x_ascend_pt", "torch_npu", options, &trace);
  ASSERT_TRUE(trace.ascend.has_value());
  const model::AscendKernelTable& k = trace.ascend->kernels;
  ASSERT_EQ(k.rows.size(), 29u);
  EXPECT_EQ(trace.load_stats.Get(model::LoadStat::kSideRowSkipped), 0u);
  EXPECT_GE(k.MetricColumn("aic_mte2_ratio"), 0);
  EXPECT_GE(k.MetricColumn("aiv_vec_ratio"), 0);
  EXPECT_NE(k.rows[0].op_state, model::AscendOpState::kUnknown);
}

TEST(AscendKernelDetailsTest, MsttArithmeticUtilization) {
  PERFDX_REQUIRE_SHARED();
  model::Trace trace;
  perfdx::testing::TempDir dir;
  dir.Write("x_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv",
            perfdx::testing::ReadFileOrDie(
                SharedPath("traces/ascend/mstt_samples/kernel_details_arith_util.csv")));
  ReadAscendProfileFiles(dir.path() + "/x_ascend_pt", "torch_npu", AscendSideOptions{}, &trace);
  ASSERT_TRUE(trace.ascend.has_value());
  const model::AscendKernelTable& k = trace.ascend->kernels;
  ASSERT_EQ(k.rows.size(), 591u);
  EXPECT_EQ(trace.load_stats.Get(model::LoadStat::kSideRowSkipped), 0u);
  // Row 0: 1,4294967295,1259,16,ZerosLike46,ZerosLike,AI_VECTOR_CORE,
  // 1699529622790614.8,607.98,0,48,0,"""544404480""",FLOAT16,FORMAT_ND,...
  EXPECT_EQ(trace.str(k.rows[0].name), "ZerosLike46");
  EXPECT_EQ(trace.str(k.rows[0].core_type), "AI_VECTOR_CORE");
  EXPECT_EQ(k.rows[0].start_ns, 1699529622790614800);
  EXPECT_EQ(k.rows[0].dur_ns, 607980);
  EXPECT_EQ(k.rows[0].block_dim, 48);
  EXPECT_EQ(k.rows[0].task_id, 1259);
  EXPECT_EQ(k.rows[0].stream_id, 16);
  EXPECT_EQ(trace.str(k.rows[0].input_shapes), "544404480");
  EXPECT_EQ(k.rows[0].op_state, model::AscendOpState::kUnknown);  // no OP State column
  EXPECT_EQ(k.rows[0].hf32_eligible, -1);
  for (const char* m : {"aic_mac_fp16_ratio", "aic_mac_int8_ratio", "aic_cube_fops",
                        "aiv_vec_fp32_ratio", "aiv_vec_fp16_ratio", "aiv_vector_fops"}) {
    EXPECT_GE(k.MetricColumn(m), 0) << m;
  }
  EXPECT_EQ(k.MetricColumn("aic_mac_ratio"), -1);  // not in this metric set
}

TEST(AscendKernelDetailsTest, BlockNumSpellingAndDeviceId) {
  // CANN 8.3 headers: Device_id after Step Id; current torch_npu spells
  // "Block Num" / "Mix Block Num"; op_summary spells "Op Name", "OP Type",
  // "Task Type", "Task Start Time(us)".
  perfdx::testing::TempDir dir;
  dir.Write("x_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv",
            "Step Id,Device_id,Name,Type,Accelerator Core,Start Time(us),Duration(us),"
            "Wait Time(us),Block Num,Mix Block Num,aicore_time(us),aic_mac_ratio\r\n"
            "3,5,MatMul1,MatMulV2,AI_CORE,100.5\t,2.25,N/A,24,0,2.0,0.5\r\n"
            "3,5,bad_row,MatMulV2,AI_CORE,N/A,2.25,0,24,0,2.0,0.5\r\n");
  model::Trace trace;
  ReadAscendProfileFiles(dir.path() + "/x_ascend_pt", "torch_npu", AscendSideOptions{}, &trace);
  ASSERT_TRUE(trace.ascend.has_value());
  const model::AscendKernelTable& k = trace.ascend->kernels;
  ASSERT_EQ(k.rows.size(), 1u);
  EXPECT_EQ(trace.load_stats.Get(model::LoadStat::kSideRowSkipped), 1u);  // no start time
  EXPECT_EQ(k.rows[0].device_id, 5);
  EXPECT_EQ(k.rows[0].block_dim, 24);
  EXPECT_EQ(k.rows[0].mix_block_dim, 0);
  EXPECT_EQ(k.rows[0].start_ns, 100500);
  EXPECT_EQ(k.rows[0].wait_ns, -1);
  EXPECT_EQ(k.Metric(0, "aic_total_time_ns"), 2000.0);
  EXPECT_EQ(k.Metric(0, "aic_mac_ratio"), 0.5);
  EXPECT_EQ(trace.ascend->device.device_id, 5);
}

TEST(AscendSideFilesTest, CanonicalMetricNames) {
  double f = 0;
  EXPECT_EQ(CanonicalMetricName("aic_mte2_time(us)", false, &f), "aic_mte2_time_ns");
  EXPECT_EQ(f, 1000);
  EXPECT_EQ(CanonicalMetricName("aicore_time(us)", false, &f), "aic_total_time_ns");
  EXPECT_EQ(CanonicalMetricName("aiv_time(us)", false, &f), "aiv_total_time_ns");
  EXPECT_EQ(CanonicalMetricName("cube_utilization(%)", false, &f), "cube_utilization_pct");
  EXPECT_EQ(f, 1);
  EXPECT_EQ(CanonicalMetricName("aic_l0a_read_bw(GB/s)", false, &f), "aic_l0a_read_bw_gbps");
  EXPECT_EQ(CanonicalMetricName("aic_total_time", true, &f), "aic_total_time_ns");
  EXPECT_EQ(f, 1);
  EXPECT_EQ(CanonicalMetricName("aic_mac_ratio", true, &f), "aic_mac_ratio");
  EXPECT_EQ(ParseAscendDevice("NPU:3"), 3);
  EXPECT_EQ(ParseAscendDevice("7"), 7);
  EXPECT_EQ(ParseAscendDevice("host"), std::nullopt);
}

// Issue #17: the Ascend JSON side files read a UTF-8 byte-order mark as bad
// JSON (the CSVs already skipped it).
TEST(AscendSideFilesTest, ALeadingByteOrderMarkIsSkipped) {
  perfdx::testing::TempDir dir;
  dir.Write("x_ascend_pt/profiler_metadata.json",
            "\xEF\xBB\xBF{\"distributed_args\": {\"world_size\": 8}}");
  dir.Write("x_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv",
            "\xEF\xBB\xBFName,Accelerator Core,Start Time(us),Duration(us)\nk,AI_CORE,1,2\n");
  model::Trace trace;
  ReadAscendProfileFiles(dir.path() + "/x_ascend_pt", "torch_npu", AscendSideOptions{}, &trace);
  EXPECT_EQ(trace.load_stats.Get(model::LoadStat::kSideFileUnreadable), 0u);
  EXPECT_EQ(trace.info.world_size, 8);
  model::AscendData metadata;
  EXPECT_TRUE(ParseProfilerMetadataJson("\xEF\xBB\xBF{\"distributed_args\": {}}", &metadata));
}

TEST(AscendSideFilesTest, UnreadableJsonIsAWarningNotAFailure) {
  perfdx::testing::TempDir dir;
  dir.Write("x_ascend_pt/profiler_info_3.json", "{\"config\": [");  // cut
  dir.Write("x_ascend_pt/profiler_metadata.json",
            R"({"distributed_args": {"tensor_model_parallel_size": 2, "world_size": 8,
                "sequence_parallel": false},
               "parallel_group_info": {"group_name_19": {"group_name": "pp", "group_rank": 0,
                                                         "global_ranks": [0, 2]}}})");
  dir.Write("x_ascend_pt/ASCEND_PROFILER_OUTPUT/communication.json", "not json");
  model::Trace trace;
  ReadAscendProfileFiles(dir.path() + "/x_ascend_pt", "mindspore", AscendSideOptions{}, &trace);
  ASSERT_TRUE(trace.ascend.has_value());
  EXPECT_EQ(trace.load_stats.Get(model::LoadStat::kSideFileUnreadable), 2u);
  EXPECT_EQ(trace.ascend->config.framework, "mindspore");
  EXPECT_EQ(trace.ascend->DistributedInt("tensor_model_parallel_size"), 2);
  EXPECT_EQ(trace.ascend->distributed_args.at("sequence_parallel"), "false");
  EXPECT_EQ(trace.info.world_size, 8);
  ASSERT_EQ(trace.ascend->parallel_groups.size(), 1u);
  EXPECT_EQ(trace.ascend->parallel_groups[0].name, "pp");
  EXPECT_EQ(trace.ascend->parallel_groups[0].global_ranks, (std::vector<int64_t>{0, 2}));
}

}  // namespace
}  // namespace perfdx::formats
