// The Ascend rules (issue #5; ../shared/docs/ascend-advisor_rules.md): for
// every rule a hand-built trace_view.json (imported from a string) or an
// *_ascend_pt folder / kernel_details.csv written to a temporary folder and
// loaded through the real loader, with the expected numbers worked out in
// the comments and a negative case; then the real samples: the mstt
// single-step trace and kernel_details.csv samples, and the 2-rank text and
// DB profiles, whose expected values are derived from the profiler's own
// files (the Python one-liners in the comments), never from perfdx.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "advisor/rule_test_support.h"
#include "ascend_trace_fixtures.h"
#include "perfdx/advisor/advisor.h"
#include "perfdx/advisor/cluster_advisor.h"
#include "perfdx/advisor/knobs.h"
#include "perfdx/analysis/rank_analysis.h"
#include "perfdx/formats/trace_loader.h"
#include "test_support.h"

namespace perfdx::advisor {
namespace {

using perfdx::advisor::testing::Analyse;
using perfdx::advisor::testing::Analysed;
using perfdx::advisor::testing::AnalyseJson;
using perfdx::advisor::testing::Detail;
using perfdx::advisor::testing::FindRule;
using perfdx::advisor::testing::JobFindings;
using namespace perfdx::testing::ascend;  // NOLINT: the fixture builders
using perfdx::testing::ImportString;
using perfdx::testing::SharedPath;
using perfdx::testing::TempDir;

std::vector<std::unique_ptr<Analysed>> LoadAndAnalyse(const std::string& path,
                                                      const Thresholds& thresholds = {}) {
  auto loaded = formats::LoadTraces({path}, {});
  EXPECT_TRUE(loaded.ok()) << loaded.status().message();
  std::vector<std::unique_ptr<Analysed>> out;
  if (!loaded.ok()) return out;
  for (model::Trace& t : loaded->traces) out.push_back(Analyse(std::move(t), thresholds));
  return out;
}

bool HasFix(const Finding& f, std::string_view fix, FixTarget framework = FixTarget::kTorchNpu) {
  for (const Recommendation& want : RecommendationsFor(fix)) {
    if (want.framework != framework) continue;
    for (const Recommendation& r : f.recommendations) {
      if (r.framework == want.framework && r.snippet == want.snippet) return true;
    }
  }
  return false;
}

bool Contains(const std::string& s, std::string_view part) {
  return s.find(part) != std::string::npos;
}

// --- *_ascend_pt folder fixtures -------------------------------------------

constexpr std::string_view kKernelHeader =
    "Step Id,Model ID,Task ID,Stream ID,Name,Type,OP State,Accelerator Core,Start Time(us),"
    "Duration(us),Wait Time(us),Block Dim,Mix Block Dim,Input Data Types,aic_mac_ratio,"
    "aic_scalar_ratio,aic_mte2_ratio,aic_fixpipe_ratio,aiv_vec_ratio,aiv_mte2_ratio,"
    "aiv_mte3_ratio\n";

struct KernelRow {
  std::string name;
  std::string type;
  std::string state;  // "static", "dynamic", "N/A"
  std::string core;   // Accelerator Core
  double start_us;
  double dur_us;
  int block = 1;
  int mix_block = 0;
  std::string ratios =
      "N/A,N/A,N/A,N/A,N/A,N/A,N/A";  // aic mac,scalar,mte2,fixpipe,aiv vec,mte2,mte3
};

std::string KernelCsv(const std::vector<KernelRow>& rows) {
  std::string csv(kKernelHeader);
  int task = 1;
  for (const KernelRow& r : rows) {
    // torch_npu writes the start with a trailing tab.
    csv += fmt::format("1,4294967295,{},3,{},{},{},{},\"{:.3f}\t\",{},0,{},{},FLOAT16,{}\n", task++,
                       r.name, r.type, r.state, r.core, r.start_us, r.dur_us, r.block, r.mix_block,
                       r.ratios);
  }
  return csv;
}

// The timeline the kernel rows belong to: each row a task on Stream 3 at
// the same start, in one step of step_us.
std::string TraceOfKernels(const std::vector<KernelRow>& rows, double step_us,
                           const std::string& more = "") {
  std::string events;
  for (const KernelRow& r : rows) events += Task(r.name, r.core, r.start_us, r.dur_us);
  return AscendTrace(step_us, events + more);
}

std::string EnvJson(const std::map<std::string, std::string>& env) {
  std::string out = R"({"ENV_VARIABLES": {)";
  bool first = true;
  for (const auto& [k, v] : env) {
    out += fmt::format(R"({}"{}": "{}")", first ? "" : ", ", k, v);
    first = false;
  }
  return out + "}}";
}

// rank0_ascend_pt under `dir`; returns the folder.
std::string WriteProfile(const TempDir& dir, const std::string& trace_view,
                         const std::string& kernel_details, const std::string& metadata = "",
                         const std::string& device_info = "") {
  const std::string root = "rank0_ascend_pt/";
  dir.Write(root + "profiler_info_0.json", R"({"rank_id": 0, "cann_version": "8.0.RC2"})");
  dir.Write(root + "ASCEND_PROFILER_OUTPUT/trace_view.json", trace_view);
  if (!kernel_details.empty())
    dir.Write(root + "ASCEND_PROFILER_OUTPUT/kernel_details.csv", kernel_details);
  if (!metadata.empty()) dir.Write(root + "profiler_metadata.json", metadata);
  if (!device_info.empty()) {
    dir.Write(root + "PROF_000001_20250101000000000_ABCDEFGHIJKLMNO/device_0/info.json.0",
              device_info);
  }
  return dir.path() + "/" + root;
}

std::unique_ptr<Analysed> LoadOne(const std::string& path, const Thresholds& thresholds = {}) {
  auto ranks = LoadAndAnalyse(path, thresholds);
  EXPECT_EQ(ranks.size(), 1u);
  return ranks.empty() ? nullptr : std::move(ranks[0]);
}

// ============================================================================
// dynamic_shape (rows 8 and 16)
// ============================================================================

TEST(DynamicShapeRuleTest, TwentyRuntimeCompilationsPerStep) {
  // One 10 ms step; 20 AscendCL@aclopCompileAndExecute of 300 us, each with
  // an AscendCL@opCompile of 100 us inside. 20 >= 20 (MAX_OP_COMPILE_NUM):
  // an issue. Gain = 20 x 100 us = 2 ms = 20% of the step -> critical.
  std::string events = Task("aclnnMul_MulAiCore_Mul", "AI_CORE", 0, 100);
  for (int k = 0; k < 20; ++k) {
    const double ts = 200 + k * 400;
    events +=
        Cann("AscendCL@aclopCompileAndExecute", ts, 300) + Cann("AscendCL@opCompile", ts + 10, 100);
  }
  auto a = AnalyseJson(AscendTrace(10'000, events));
  const Finding* f = FindRule(a->findings, "dynamic_shape");
  ASSERT_NE(f, nullptr);
  EXPECT_DOUBLE_EQ(Detail(*f, "op_compiles_per_step"), 20);
  EXPECT_EQ(f->gain.ns_per_step, 2'000'000);
  EXPECT_DOUBLE_EQ(f->gain.share, 0.2);
  EXPECT_EQ(f->severity, Severity::kCritical);
  EXPECT_EQ(f->category, Category::kOperator);
  EXPECT_TRUE(HasFix(*f, "jit_compile_off"));
  EXPECT_TRUE(Contains(f->title, "20 operator compilations per step")) << f->title;

  // 19 (the shared 2-rank profiles' count): below the threshold.
  std::string fewer = Task("aclnnMul_MulAiCore_Mul", "AI_CORE", 0, 100);
  for (int k = 0; k < 19; ++k) fewer += Cann("AscendCL@aclopCompileAndExecute", 200 + k * 400, 300);
  EXPECT_EQ(FindRule(AnalyseJson(AscendTrace(10'000, fewer))->findings, "dynamic_shape"), nullptr);
}

TEST(DynamicShapeRuleTest, AllOperatorsDynamicFromOpState) {
  // kernel_details.csv alone: three dynamic operators and an HCCL row
  // without a state. No static operator: msprof's Dynamic Shape issue. No
  // compilation in the trace (a kernel table has no host side): binary
  // kernels already; the finding says so and prints no fix; gain 0.
  TempDir dir;
  const std::vector<KernelRow> rows = {
      {"MatMul1", "MatMulV2", "dynamic", "AI_CORE", 1000, 100},
      {"Add1", "Add", "dynamic", "AI_VECTOR_CORE", 1100, 50},
      {"Cast1", "Cast", "dynamic", "AI_CPU", 1150, 10},
      {"hcom_allReduce__1_0_1", "hcom_allReduce_", "N/A", "HCCL", 1200, 100}};
  auto a = LoadOne(dir.Write("kernel_details.csv", KernelCsv(rows)));
  ASSERT_NE(a, nullptr);
  const Finding* f = FindRule(a->findings, "dynamic_shape");
  ASSERT_NE(f, nullptr);
  EXPECT_DOUBLE_EQ(Detail(*f, "dynamic_ops"), 3);
  EXPECT_DOUBLE_EQ(Detail(*f, "static_ops"), 0);
  EXPECT_EQ(f->gain.ns_per_step, 0);
  EXPECT_EQ(f->severity, Severity::kInfo);
  EXPECT_TRUE(f->recommendations.empty());
  EXPECT_TRUE(Contains(f->title,
                       "All 3 operators are dynamic-shape; no run-time compilation can "
                       "be seen (kernel table only)"))
      << f->title;

  // One static operator: not all dynamic.
  TempDir dir2;
  std::vector<KernelRow> mixed = rows;
  mixed[0].state = "static";
  auto b = LoadOne(dir2.Write("kernel_details.csv", KernelCsv(mixed)));
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(FindRule(b->findings, "dynamic_shape"), nullptr);
}

// ============================================================================
// operator_no_bound (row 9), through a lone kernel_details.csv
// ============================================================================

// Static operators in [1000, 1200) us (one "step": the rows' span, 200 us):
//   MatMul  AI_CORE 100 us, aic_mac 0.9                -> bound (0.9 > 0.8)
//   Add     AI_VECTOR_CORE 50 us, aiv_vec 0.4, mte2 0.6 -> unbound, busiest 0.6
//   Mul     AI_VECTOR_CORE 10 us, aiv_vec 0.2           -> unbound, busiest 0.2
//   Cast    AI_CPU 40 us, no ratios                     -> not measured
std::vector<KernelRow> NoBoundRows() {
  return {
      {"MatMul1", "MatMulV2", "static", "AI_CORE", 1000, 100, 20, 0, "0.9,0.1,0.5,0.1,N/A,N/A,N/A"},
      {"Add1", "Add", "static", "AI_VECTOR_CORE", 1100, 50, 40, 0, "0,0,0,0,0.4,0.6,0.2"},
      {"Mul1", "Mul", "static", "AI_VECTOR_CORE", 1150, 10, 40, 0, "0,0,0,0,0.2,0.1,0.1"},
      {"Cast1", "Cast", "static", "AI_CPU", 1160, 40}};
}

TEST(OperatorNoBoundRuleTest, UnboundOperatorsFromPipeRatios) {
  // 2 of 3 measured tasks unbound, the longest 50 us > 20 us. What-if:
  // Add 50 x (1 - 0.6/0.8) = 12.5 us + Mul 10 x (1 - 0.2/0.8) = 7.5 us =
  // 20 us of the 200 us window = 10% -> critical.
  TempDir dir;
  auto a = LoadOne(dir.Write("kernel_details.csv", KernelCsv(NoBoundRows())));
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->trace.info.source, model::SourceFormat::kAscendKernelCsv);
  const Finding* f = FindRule(a->findings, "operator_no_bound");
  ASSERT_NE(f, nullptr);
  EXPECT_DOUBLE_EQ(Detail(*f, "unbound_tasks"), 2);
  EXPECT_DOUBLE_EQ(Detail(*f, "measured_tasks"), 3);
  EXPECT_DOUBLE_EQ(Detail(*f, "longest_task_ns"), 50'000);
  // A kernel table has no steps: no per-step gain, the window's total.
  EXPECT_EQ(f->gain.ns_per_step, 0);
  EXPECT_EQ(f->gain.basis, kNoCompleteStep);
  EXPECT_NEAR(f->gain.total_ns, 20'000, 1);
  EXPECT_EQ(f->severity, Severity::kCritical);
  ASSERT_EQ(f->evidence.contributors.size(), 2u);
  EXPECT_EQ(f->evidence.contributors[0].name, "Add");
  EXPECT_TRUE(HasFix(*f, "aoe_tuning"));
  // The AI_CPU task (40 us >= 20 us) is ai_cpu_operators' finding.
  EXPECT_NE(FindRule(a->findings, "ai_cpu_operators"), nullptr);
}

TEST(OperatorNoBoundRuleTest, QuietWhenShortDynamicOrBound) {
  // The longest unbound task 10 us (<= 20 us): nothing.
  std::vector<KernelRow> short_rows = NoBoundRows();
  short_rows[1].ratios = "0,0,0,0,0.9,0.6,0.2";  // Add bound by vec
  TempDir d1;
  auto a = LoadOne(d1.Write("kernel_details.csv", KernelCsv(short_rows)));
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(FindRule(a->findings, "operator_no_bound"), nullptr);
  // All dynamic: msprof skips the check (and AOE tunes static operators only).
  std::vector<KernelRow> dynamic_rows = NoBoundRows();
  for (KernelRow& r : dynamic_rows) r.state = "dynamic";
  TempDir d2;
  auto b = LoadOne(d2.Write("kernel_details.csv", KernelCsv(dynamic_rows)));
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(FindRule(b->findings, "operator_no_bound"), nullptr);
  EXPECT_NE(FindRule(b->findings, "dynamic_shape"), nullptr);
}

// ============================================================================
// block_dim (row 10): core counts from PROF_*/device_0/info.json.0
// ============================================================================

constexpr std::string_view kDeviceInfo =
    R"({"DeviceInfo": [{"id": 0, "ai_core_num": 20, "aiv_num": 40, "aic_frequency": 1800}]})";

std::vector<KernelRow> BlockDimRows() {
  // One 1000 us step:
  //   MatMul1 AI_CORE block 16 on 20 cores, 100 us: 16 % 20 != 0; one wave
  //     at 0.8 -> saves 100 x (1 - 0.8) = 20 us
  //   MatMul2 AI_CORE block 40, 100 us: 40 % 20 == 0
  //   FA      MIX_AIC block 20 (20 % 40 vector cores != 0) but mix block 40
  //     % 40 == 0: not flagged (msprof's MIX_AIC exception)
  //   Add     AI_VECTOR_CORE block 48 on 40, 50 us: two waves for 1.2 ->
  //     saves 50 x (1 - 1.2/2) = 20 us
  //   Cast    AI_CPU block 1: not a checked task type
  return {{"MatMul1", "MatMulV2", "static", "AI_CORE", 0, 100, 16},
          {"MatMul2", "MatMulV2", "static", "AI_CORE", 100, 100, 40},
          {"FA1", "FlashAttentionScore", "static", "MIX_AIC", 200, 200, 20, 40},
          {"Add1", "Add", "static", "AI_VECTOR_CORE", 400, 50, 48},
          {"Cast1", "Cast", "static", "AI_CPU", 450, 10, 1}};
}

TEST(BlockDimRuleTest, BlockDimNotAMultipleOfTheCores) {
  // Saved 40 us of the 1000 us step = 4% -> warning (msprof medium >= 3%).
  TempDir dir;
  const std::vector<KernelRow> rows = BlockDimRows();
  auto a = LoadOne(
      WriteProfile(dir, TraceOfKernels(rows, 1000), KernelCsv(rows), "", std::string(kDeviceInfo)));
  ASSERT_NE(a, nullptr);
  ASSERT_TRUE(a->trace.ascend.has_value());
  EXPECT_EQ(a->trace.ascend->device.ai_core_count, 20);
  const Finding* f = FindRule(a->findings, "block_dim");
  ASSERT_NE(f, nullptr);
  EXPECT_DOUBLE_EQ(Detail(*f, "mismatched_tasks"), 2);
  EXPECT_DOUBLE_EQ(Detail(*f, "checked_tasks"), 4);
  EXPECT_NEAR(f->gain.ns_per_step, 40'000, 1);
  EXPECT_EQ(f->severity, Severity::kWarning);
  EXPECT_TRUE(HasFix(*f, "aoe_tuning"));
  EXPECT_TRUE(Contains(f->title, "20 AI cores / 40 vector cores")) << f->title;
}

TEST(BlockDimRuleTest, SilentWithoutCoreCountsOrWithDynamicShapes) {
  // No info.json: the core counts are unknown and msprof skips the check;
  // perfdx does not guess them.
  const std::vector<KernelRow> rows = BlockDimRows();
  TempDir d1;
  auto a = LoadOne(WriteProfile(d1, TraceOfKernels(rows, 1000), KernelCsv(rows)));
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(FindRule(a->findings, "block_dim"), nullptr);
  std::vector<KernelRow> dynamic_rows = rows;
  for (KernelRow& r : dynamic_rows) r.state = "dynamic";
  TempDir d2;
  auto b = LoadOne(WriteProfile(d2, TraceOfKernels(dynamic_rows, 1000), KernelCsv(dynamic_rows), "",
                                std::string(kDeviceInfo)));
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(FindRule(b->findings, "block_dim"), nullptr);
}

// ============================================================================
// ai_core_freq_drop (row 11)
// ============================================================================

TEST(AiCoreFreqRuleTest, OperatorsRunBelowTheRatedClock) {
  // Samples: 1800 MHz from 0, 1500 from 500, 1800 from 700 (rated: the
  // highest, 1800). AI_CORE tasks and the lowest frequency in force:
  //   MatMul [100, 200) 1800; MatMul [550, 650) 1500
  //   Add    [450, 550) 1500 (1500 starts inside); Add [800, 900) 1800
  //   Norm   MIX_AIV [550, 600): not an AI_CORE / MIX_AIC task
  // MatMul: (0 + 300) / (1800 x 2) = 8.3% >= 5%; Add the same. What-if at
  // 1800: 100 x (1 - 1500/1800) = 16.667 us each -> 33.333 us of 1000 us =
  // 3.3% -> warning.
  const std::string events =
      Freq(0, 1800) + Freq(500, 1500) + Freq(700, 1800) + Task("MatMul", "AI_CORE", 100, 100) +
      Task("MatMul", "AI_CORE", 550, 100) + Task("Add", "AI_CORE", 450, 100) +
      Task("Add", "AI_CORE", 800, 100) + Task("Norm", "MIX_AIV", 560, 30);
  auto a = AnalyseJson(AscendTrace(1000, events));
  const Finding* f = FindRule(a->findings, "ai_core_freq_drop");
  ASSERT_NE(f, nullptr);
  EXPECT_DOUBLE_EQ(Detail(*f, "rated_mhz"), 1800);
  EXPECT_DOUBLE_EQ(Detail(*f, "lowest_mhz"), 1500);
  EXPECT_DOUBLE_EQ(Detail(*f, "operators_with_drop"), 2);
  EXPECT_NEAR(f->evidence.value, 300.0 / 3600.0, 1e-12);
  EXPECT_NEAR(f->gain.ns_per_step, 33'333, 1);
  EXPECT_EQ(f->severity, Severity::kWarning);
  EXPECT_EQ(f->category, Category::kSystem);
  EXPECT_TRUE(HasFix(*f, "npu_health_check"));

  // A steady clock: nothing.
  auto steady = AnalyseJson(
      AscendTrace(1000, Freq(0, 1800) + Freq(700, 1800) + Task("MatMul", "AI_CORE", 100, 100)));
  EXPECT_EQ(FindRule(steady->findings, "ai_core_freq_drop"), nullptr);
}

// ============================================================================
// byte_alignment (row 6)
// ============================================================================

TEST(ByteAlignmentRuleTest, UnalignedSdmaTransfers) {
  // One op [100, 600) us; its SDMA Memcpy tasks over HCCS:
  //   [110, 210) 1048576 B  (2048 x 512: aligned)
  //   [300, 500) 1048000 B  (1048000 % 512 = 448: misaligned)
  //   [520, 530) 1000 B ON_CHIP, [540, 545) 100 B (<= 512): not considered
  // Misaligned share 200 / 300 = 66.7% -> medium (warning). What-if at the
  // aligned bandwidth 1048576 B / 100 us = 10.48576 GB/s: 1048000 B in
  // 99945.068 ns instead of 200000 ns; all communication exposed (compute
  // 0..50) -> 100054 ns per step.
  const std::string events = Task("aclnnMul_MulAiCore_Mul", "AI_CORE", 0, 50) +
                             HcclOp("hcom_allReduce__1_0_1", 100, 500) +
                             HcclMemcpy(110, 100, 1'048'576) + HcclMemcpy(300, 200, 1'048'000) +
                             HcclMemcpy(520, 10, 1000, "ON_CHIP") + HcclMemcpy(540, 5, 100);
  auto a = AnalyseJson(AscendTrace(1000, events));
  const Finding* f = FindRule(a->findings, "byte_alignment");
  ASSERT_NE(f, nullptr);
  EXPECT_DOUBLE_EQ(Detail(*f, "misaligned_ops"), 1);
  EXPECT_NEAR(f->evidence.value, 2.0 / 3.0, 1e-12);
  EXPECT_NEAR(f->gain.ns_per_step, 100'054, 1);
  EXPECT_EQ(f->severity, Severity::kWarning);
  ASSERT_EQ(f->evidence.contributors.size(), 1u);
  EXPECT_EQ(f->evidence.contributors[0].name, "hcom_allReduce__1_0_1");

  // Every size a multiple of 512: nothing.
  auto aligned = AnalyseJson(AscendTrace(1000, Task("aclnnMul_MulAiCore_Mul", "AI_CORE", 0, 50) +
                                                   HcclOp("hcom_allReduce__1_0_1", 100, 500) +
                                                   HcclMemcpy(110, 100, 1'048'576) +
                                                   HcclMemcpy(300, 200, 1'047'552)));
  EXPECT_EQ(FindRule(aligned->findings, "byte_alignment"), nullptr);
}

// ============================================================================
// exposed_communication: the collectives' time split by their plane tasks
// ============================================================================

// One 1000 us step: compute [0, 50), one all-reduce [100, 900) that nothing
// hides (80% exposed). Plane 0, the master (the one with transfers), copies
// over HCCS for 40 us and waits in a Notify_Wait for 12 us; plane 1 waits
// in a Notify_Wait for 730 us. CANN's split: transit 40, wait 12 (the
// master plane's waits only), idle 800 - 40 - 12 = 748 us = 93.5% > 50%.
std::string ExposedAllReduce(double transit_us, double plane1_wait_us) {
  return Task("aclnnMul_MulAiCore_Mul", "AI_CORE", 0, 50) +
         R"({"ph": "M", "name": "thread_name", "pid": 30, "tid": 2, "args": {"name": "Plane 1"}},)" +
         HcclOp("hcom_allReduce__1_0_1", 100, 800) + HcclMemcpy(110, transit_us, 1'048'576) +
         X(30, 1, "Notify_Wait", 110 + transit_us, 12, "",
           R"("task type": "Notify_Wait", "transport type": "LOCAL")") +
         X(30, 2, "Notify_Wait", 160, plane1_wait_us, "",
           R"("task type": "Notify_Wait", "transport type": "LOCAL")");
}

TEST(ExposedCommunicationAscendTest, IdleInsideTheCollectivesReplacesTheOverlapFixes) {
  auto a = AnalyseJson(AscendTrace(1000, ExposedAllReduce(40, 730)));
  const analysis::CommTimeSplit& split = a->analysis.collectives.window_time;
  EXPECT_EQ(split.collectives, 1u);
  EXPECT_EQ(split.without_tasks, 0u);
  EXPECT_EQ(split.elapse_ns, 800'000);
  EXPECT_EQ(split.transit_ns, 40'000);
  EXPECT_EQ(split.wait_ns, 12'000);
  EXPECT_EQ(split.idle_ns, 748'000);
  const analysis::CollectiveStats& op = a->analysis.collectives.collectives.at(0);
  EXPECT_EQ(op.longest_task, "Notify_Wait");
  EXPECT_EQ(op.longest_task_plane, 1);
  EXPECT_EQ(op.longest_task_ns, 730'000);

  const Finding* f = FindRule(a->findings, "exposed_communication");
  ASSERT_NE(f, nullptr);
  EXPECT_NEAR(Detail(*f, "comm_idle_share"), 0.935, 1e-12);
  EXPECT_NEAR(Detail(*f, "comm_transit_share"), 0.05, 1e-12);
  EXPECT_NEAR(Detail(*f, "comm_wait_share"), 0.015, 1e-12);
  EXPECT_TRUE(Contains(f->title,
                       "93.5% of the collectives' time is idle inside them, outside "
                       "their master plane's transfers (5.0%) and waits (1.5%)"))
      << f->title;
  EXPECT_TRUE(Contains(f->title, "Notify_Wait on plane 1 of hcom_allReduce__1_0_1, runs 0.73 ms"))
      << f->title;
  EXPECT_NE(std::find(f->evidence_tags.begin(), f->evidence_tags.end(), "comm_idle_in_op"),
            f->evidence_tags.end());
  EXPECT_TRUE(HasFix(*f, "locate_comm_idle"));
  for (const char* moot : {"overlap_communication", "ddp_bucket", "gradient_accumulation"}) {
    EXPECT_FALSE(HasFix(*f, moot)) << moot;
  }

  // The same op moving data for 700 us: idle 800 - 700 - 12 = 88 us = 11%;
  // the split is reported, the title and the fixes are the usual ones.
  auto busy = AnalyseJson(AscendTrace(1000, ExposedAllReduce(700, 20)));
  const Finding* g = FindRule(busy->findings, "exposed_communication");
  ASSERT_NE(g, nullptr);
  EXPECT_NEAR(Detail(*g, "comm_idle_share"), 0.11, 1e-12);
  EXPECT_FALSE(Contains(g->title, "idle inside them")) << g->title;
  EXPECT_EQ(std::find(g->evidence_tags.begin(), g->evidence_tags.end(), "comm_idle_in_op"),
            g->evidence_tags.end());
  EXPECT_FALSE(HasFix(*g, "locate_comm_idle"));

  // The same op without plane tasks (a Level0 profile): nothing to split;
  // the finding asks for a Level1 profile.
  auto unsplit = AnalyseJson(AscendTrace(1000, Task("aclnnMul_MulAiCore_Mul", "AI_CORE", 0, 50) +
                                                   HcclOp("hcom_allReduce__1_0_1", 100, 800)));
  EXPECT_EQ(unsplit->analysis.collectives.window_time.without_tasks, 1u);
  const Finding* u = FindRule(unsplit->findings, "exposed_communication");
  ASSERT_NE(u, nullptr);
  EXPECT_FALSE(Contains(u->title, "idle inside them")) << u->title;
  EXPECT_NE(std::find(u->evidence_tags.begin(), u->evidence_tags.end(), "comm_time_unsplit"),
            u->evidence_tags.end());
  EXPECT_TRUE(HasFix(*u, "profile_comm_tasks"));
  EXPECT_FALSE(HasFix(*f, "profile_comm_tasks"));

  // At the threshold itself (idle share not above it): no tag.
  Thresholds lenient;
  lenient.comm_idle_in_op_share = 0.935;
  const std::vector<Finding> at_threshold = RunAdvisor(a->analysis, lenient);
  const Finding* h = FindRule(at_threshold, "exposed_communication");
  ASSERT_NE(h, nullptr);
  EXPECT_FALSE(Contains(h->title, "idle inside them")) << h->title;
}

// ============================================================================
// environment_variables (row 23)
// ============================================================================

TEST(EnvironmentVariablesRuleTest, OffendingVariablesWithTheirFixes) {
  // Offending: ASCEND_GLOBAL_LOG_LEVEL=1 (info), HCCL_RDMA_TC set (listed,
  // no fix), PYTORCH_NPU_ALLOC_CONF without expandable segments, HCCL_ALGO
  // set, TASK_QUEUE_ENABLE=1 -> 5. Not offending: ACLNN_CACHE_LIMIT and
  // HOST_CACHE_CAPACITY unset with static operators only,
  // ASCEND_LAUNCH_BLOCKING=0, CPU_AFFINITY_CONF=2. Info logging slows every
  // step: warning. Four torch_npu fixes.
  const std::vector<KernelRow> rows = {{"MatMul1", "MatMulV2", "static", "AI_CORE", 0, 100}};
  TempDir dir;
  auto a = LoadOne(WriteProfile(dir, TraceOfKernels(rows, 1000), KernelCsv(rows),
                                EnvJson({{"ASCEND_GLOBAL_LOG_LEVEL", "1"},
                                         {"HCCL_RDMA_TC", "132"},
                                         {"HCCL_RDMA_SL", ""},
                                         {"ACLNN_CACHE_LIMIT", ""},
                                         {"HOST_CACHE_CAPACITY", ""},
                                         {"PYTORCH_NPU_ALLOC_CONF", "max_split_size_mb:128"},
                                         {"ASCEND_LAUNCH_BLOCKING", "0"},
                                         {"HCCL_ALGO", "level0:NA;level1:ring"},
                                         {"TASK_QUEUE_ENABLE", "1"},
                                         {"CPU_AFFINITY_CONF", "2"}})));
  ASSERT_NE(a, nullptr);
  const Finding* f = FindRule(a->findings, "environment_variables");
  ASSERT_NE(f, nullptr);
  EXPECT_DOUBLE_EQ(f->evidence.value, 5);
  EXPECT_EQ(f->severity, Severity::kWarning);
  EXPECT_EQ(f->gain.ns_per_step, 0);
  std::set<std::string> named;
  for (const Contributor& x : f->evidence.contributors)
    named.insert(x.name.substr(0, x.name.find('=')));
  EXPECT_EQ(named,
            (std::set<std::string>{"ASCEND_GLOBAL_LOG_LEVEL", "HCCL_RDMA_TC",
                                   "PYTORCH_NPU_ALLOC_CONF", "HCCL_ALGO", "TASK_QUEUE_ENABLE"}));
  bool suggests_value = false;
  for (const Contributor& x : f->evidence.contributors) {
    suggests_value |= x.name == "ASCEND_GLOBAL_LOG_LEVEL=1: export ASCEND_GLOBAL_LOG_LEVEL=3";
  }
  EXPECT_TRUE(suggests_value);
  EXPECT_EQ(f->recommendations.size(), 4u);
  for (const char* fix :
       {"ascend_log_level", "memory_fragmentation", "hccl_algo_auto", "reduce_launch_overhead"}) {
    EXPECT_TRUE(HasFix(*f, fix)) << fix;
  }
  for (const Recommendation& r : f->recommendations) EXPECT_EQ(r.framework, FixTarget::kTorchNpu);
}

TEST(EnvironmentVariablesRuleTest, CachesOnlyForDynamicShapesAndLaunchBlocking) {
  // Dynamic operators: unset ACLNN_CACHE_LIMIT and HOST_CACHE_CAPACITY are
  // offending too; ASCEND_LAUNCH_BLOCKING=1 -> warning.
  const std::vector<KernelRow> rows = {{"MatMul1", "MatMulV2", "dynamic", "AI_CORE", 0, 100}};
  TempDir dir;
  auto a = LoadOne(WriteProfile(dir, TraceOfKernels(rows, 1000), KernelCsv(rows),
                                EnvJson({{"ACLNN_CACHE_LIMIT", ""},
                                         {"HOST_CACHE_CAPACITY", "0"},
                                         {"PYTORCH_NPU_ALLOC_CONF", "expandable_segments:True"},
                                         {"ASCEND_LAUNCH_BLOCKING", "1"}})));
  ASSERT_NE(a, nullptr);
  const Finding* f = FindRule(a->findings, "environment_variables");
  ASSERT_NE(f, nullptr);
  EXPECT_DOUBLE_EQ(f->evidence.value, 3);
  EXPECT_EQ(f->severity, Severity::kWarning);
  for (const char* fix : {"aclnn_cache", "host_shape_cache", "launch_blocking_off"}) {
    EXPECT_TRUE(HasFix(*f, fix)) << fix;
  }

  // A good environment: nothing. A variable not recorded is unknown, not
  // unset (TASK_QUEUE_ENABLE, CPU_AFFINITY_CONF are absent here).
  TempDir good;
  auto b = LoadOne(WriteProfile(good, TraceOfKernels(rows, 1000), KernelCsv(rows),
                                EnvJson({{"ASCEND_GLOBAL_LOG_LEVEL", "3"},
                                         {"ACLNN_CACHE_LIMIT", "100000"},
                                         {"HOST_CACHE_CAPACITY", "20"},
                                         {"PYTORCH_NPU_ALLOC_CONF", "expandable_segments:True"},
                                         {"ASCEND_LAUNCH_BLOCKING", ""},
                                         {"HCCL_ALGO", ""}})));
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(FindRule(b->findings, "environment_variables"), nullptr);
}

// ============================================================================
// synchronize_stream (row 17)
// ============================================================================

TEST(SynchronizeStreamRuleTest, EveryLaunchFollowedBySynchronize) {
  // One 1000 us step: 10 x (Node@launch 10 us, then
  // AscendCL@aclrtSynchronizeStream 50 us): co-occurrence 10/10 = 1 > 0.5.
  // Gain 10 x 50 us = 500 us = 50% -> critical.
  std::string events = Task("aclnnMul_MulAiCore_Mul", "AI_CORE", 0, 10);
  for (int k = 0; k < 10; ++k) {
    events += Cann("Node@launch", 20 + k * 80, 10) +
              Cann("AscendCL@aclrtSynchronizeStream", 35 + k * 80, 50);
  }
  auto a = AnalyseJson(AscendTrace(1000, events));
  const Finding* f = FindRule(a->findings, "synchronize_stream");
  ASSERT_NE(f, nullptr);
  EXPECT_DOUBLE_EQ(f->evidence.value, 1.0);
  EXPECT_EQ(f->gain.ns_per_step, 500'000);
  EXPECT_EQ(f->severity, Severity::kCritical);
  EXPECT_TRUE(HasFix(*f, "launch_blocking_off"));

  // 10 launches, then 2 synchronizations: 1/10 = 10% -> nothing.
  std::string batched = Task("aclnnMul_MulAiCore_Mul", "AI_CORE", 0, 10);
  for (int k = 0; k < 10; ++k) batched += Cann("Node@launch", 20 + k * 20, 10);
  batched += Cann("AscendCL@aclrtSynchronizeStream", 300, 50) +
             Cann("AscendCL@aclrtSynchronizeStream", 400, 50);
  EXPECT_EQ(FindRule(AnalyseJson(AscendTrace(1000, batched))->findings, "synchronize_stream"),
            nullptr);
}

// ============================================================================
// sync_batchnorm (row 18), python_gc (row 20), memory_operators (row 22)
// ============================================================================

TEST(SyncBatchNormRuleTest, TwentyPerStep) {
  auto trace_with = [](int n) {
    std::string events = Task("aclnnMul_MulAiCore_Mul", "AI_CORE", 0, 10);
    for (int k = 0; k < n; ++k)
      events += Op(k % 2 ? "SyncBatchNorm" : "syncbatchnorm", 10 + k * 40, 30);
    return AscendTrace(1000, events);
  };
  auto a = AnalyseJson(trace_with(20));
  const Finding* f = FindRule(a->findings, "sync_batchnorm");
  ASSERT_NE(f, nullptr);
  EXPECT_DOUBLE_EQ(f->evidence.value, 20);
  EXPECT_DOUBLE_EQ(Detail(*f, "syncbn_host_ns_per_step"), 20 * 30'000);
  EXPECT_EQ(f->gain.ns_per_step, 0);
  EXPECT_TRUE(HasFix(*f, "avoid_sync_batchnorm"));
  EXPECT_EQ(FindRule(AnalyseJson(trace_with(19))->findings, "sync_batchnorm"), nullptr);
}

TEST(PythonGcRuleTest, CollectionsOfAtLeastOneMillisecond) {
  // 20 ms step; GC events of 2 ms, 0.5 ms and 1.5 ms (cat "gc"): two reach
  // 1 ms, 3.5 ms per step = 17.5% -> critical.
  const std::string gc = X(60, 60, "GC", 1000, 2000, "gc") + X(60, 60, "GC", 5000, 500, "gc") +
                         X(60, 60, "GC", 9000, 1500, "gc");
  auto a = AnalyseJson(AscendTrace(20'000, Task("aclnnMul_MulAiCore_Mul", "AI_CORE", 0, 10) + gc));
  const Finding* f = FindRule(a->findings, "python_gc");
  ASSERT_NE(f, nullptr);
  EXPECT_DOUBLE_EQ(Detail(*f, "gc_events"), 2);
  EXPECT_EQ(f->gain.ns_per_step, 3'500'000);
  EXPECT_EQ(f->severity, Severity::kCritical);
  EXPECT_TRUE(HasFix(*f, "python_gc"));
  ASSERT_FALSE(f->evidence.ranges.empty());
  EXPECT_EQ(f->evidence.ranges[0].end_ns - f->evidence.ranges[0].start_ns, 2'000'000);

  auto short_gc = AnalyseJson(AscendTrace(
      20'000, Task("aclnnMul_MulAiCore_Mul", "AI_CORE", 0, 10) + X(60, 60, "GC", 5000, 500, "gc")));
  EXPECT_EQ(FindRule(short_gc->findings, "python_gc"), nullptr);
}

TEST(MemoryOperatorsRuleTest, AllocationTimePerStep) {
  // 100 ms step: 3 x aclMallocMemInner of 4 ms = 12 ms >= 10 ms; aclrtFree
  // 5 ms < 10 ms. Gain 12 ms = 12% -> critical; fix: expandable segments.
  std::string events = Task("aclnnMul_MulAiCore_Mul", "AI_CORE", 0, 10);
  for (int k = 0; k < 3; ++k) events += Cann("AscendCL@aclMallocMemInner", 1000 + k * 10'000, 4000);
  events += Cann("AscendCL@aclrtFree", 50'000, 5000);
  auto a = AnalyseJson(AscendTrace(100'000, events));
  const Finding* f = FindRule(a->findings, "memory_operators");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->gain.ns_per_step, 12'000'000);
  EXPECT_EQ(f->severity, Severity::kCritical);
  ASSERT_EQ(f->evidence.contributors.size(), 1u);
  EXPECT_EQ(f->evidence.contributors[0].name, "AscendCL@aclMallocMemInner");
  EXPECT_TRUE(HasFix(*f, "memory_fragmentation"));
  EXPECT_FALSE(HasFix(*f, "avoid_empty_cache"));

  std::string less = Task("aclnnMul_MulAiCore_Mul", "AI_CORE", 0, 10);
  for (int k = 0; k < 3; ++k) less += Cann("AscendCL@aclMallocMemInner", 1000 + k * 10'000, 3000);
  EXPECT_EQ(FindRule(AnalyseJson(AscendTrace(100'000, less))->findings, "memory_operators"),
            nullptr);
}

// ============================================================================
// affinity_api (row 14)
// ============================================================================

TEST(AffinityApiRuleTest, FusedApiCandidates) {
  // Top-level aten ops of the Python thread:
  //   pow mean add rsqrt mul        -> npu_rms_norm
  //   matmul mul softmax matmul     -> npu_fusion_attention
  // (aten::empty inside aten::pow is part of it), and Optimizer.step#AdamW.step
  // -> NpuFusedAdamW. 3 candidates; fixes operator_fusion and
  // fused_optimizer for torch_npu only; gain 0, info.
  std::string ops;
  double ts = 100;
  for (const char* op : {"aten::pow", "aten::mean", "aten::add", "aten::rsqrt", "aten::mul",
                         "aten::matmul", "aten::mul", "aten::softmax", "aten::matmul"}) {
    ops += Op(op, ts, 10);
    if (std::string_view(op) == "aten::pow") ops += Op("aten::empty", ts + 1, 2);
    ts += 20;
  }
  ops += Op("Optimizer.step#AdamW.step", 500, 100);
  auto a = AnalyseJson(AscendTrace(1000, Task("aclnnMul_MulAiCore_Mul", "AI_CORE", 0, 10) + ops));
  const Finding* f = FindRule(a->findings, "affinity_api");
  ASSERT_NE(f, nullptr);
  EXPECT_DOUBLE_EQ(f->evidence.value, 3);
  std::set<std::string> apis;
  for (const Contributor& x : f->evidence.contributors) apis.insert(x.name);
  EXPECT_EQ(apis, (std::set<std::string>{"torch_npu.npu_rms_norm", "torch_npu.npu_fusion_attention",
                                         "torch_npu.optim.NpuFusedAdamW"}));
  EXPECT_EQ(f->severity, Severity::kInfo);
  EXPECT_EQ(f->recommendations.size(), 2u);
  EXPECT_TRUE(HasFix(*f, "operator_fusion"));
  EXPECT_TRUE(HasFix(*f, "fused_optimizer"));

  // mean add mul (no rsqrt), Adam instead of AdamW: nothing the catalogue covers.
  std::string other;
  ts = 100;
  for (const char* op : {"aten::mean", "aten::add", "aten::mul"}) other += Op(op, ts += 20, 10);
  other += Op("Optimizer.step#Adam.step", 500, 100);
  auto b = AnalyseJson(AscendTrace(1000, Task("aclnnMul_MulAiCore_Mul", "AI_CORE", 0, 10) + other));
  EXPECT_EQ(FindRule(b->findings, "affinity_api"), nullptr);
}

TEST(AffinityApiRuleTest, QuantifiersAndNonOverlappingMatches) {
  // One thread's top-level ops, each 10 us, worked out by hand against the
  // patterns (CANN unknown, so every rule applies):
  //   slice neg cat mul mul add      rotary, (mul){0,2} takes both muls  1
  //   chunk neg cat add              rotary with no mul                  1
  //   chunk neg cat mul mul mul add  three muls: no rotary match         0
  //   slice silu mul slice silu mul  two swiglu, not overlapping         2
  //   mean add rsqrt mul             rms_norm, (pow)? absent             1
  // The third group's "mul-mul-..." holds no swiglu either (no silu /
  // sigmoid). 5 candidates: rotary 2, swiglu 2, rms_norm 1.
  std::string ops;
  double ts = 100;
  for (const char* op :
       {"slice", "neg",   "cat",   "mul",  "mul", "add",  "chunk", "neg",   "cat",
        "add",   "chunk", "neg",   "cat",  "mul", "mul",  "mul",   "add",   "slice",
        "silu",  "mul",   "slice", "silu", "mul", "mean", "add",   "rsqrt", "mul"}) {
    ops += Op(fmt::format("aten::{}", op), ts, 10);
    ts += 20;
  }
  auto a = AnalyseJson(AscendTrace(1000, Task("aclnnMul_MulAiCore_Mul", "AI_CORE", 0, 10) + ops));
  const Finding* f = FindRule(a->findings, "affinity_api");
  ASSERT_NE(f, nullptr);
  EXPECT_DOUBLE_EQ(f->evidence.value, 5);
  std::set<std::string> apis;
  for (const Contributor& x : f->evidence.contributors) apis.insert(x.name);
  EXPECT_EQ(apis, (std::set<std::string>{"torch_npu.npu_rotary_mul", "torch_npu.npu_swiglu",
                                         "torch_npu.npu_rms_norm"}));
}

// ============================================================================
// Cluster: slow_rank and slow_link (rows 1, 2), reconciled with late_rank
// ============================================================================

// One Kineto rank: a step of compute C, then F idle, then an all-reduce of
// M (µs, ns precision).
model::Trace ClusterRank(int rank, double c_us, double m_us, double f_us) {
  std::string json = fmt::format(
      R"({{"schemaVersion": 1,
    "distributedInfo": {{"backend": "nccl", "rank": {}, "world_size": 8}},
    "traceEvents": [
    {{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1,
      "ts": 0, "dur": {:.3f}}},
    {{"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 0, "dur": {:.3f}}},
    {{"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllReduce_Sum_f32_RING_LL", "pid": 0,
      "tid": 20, "ts": {:.3f}, "dur": {:.3f}}}]}})",
      rank, c_us + f_us + m_us + 1, c_us, c_us + f_us, m_us);
  auto t = ImportString(json);
  EXPECT_TRUE(t.ok()) << t.status().message();
  return std::move(*t);
}

TEST(ClusterRulesTest, MsttClusterStepTraceGapsRideOnLateRank) {
  // The 8 ranks of the mstt sample's cluster_step_trace_time.csv
  // (Computing, Communication(Not Overlapped), Free in µs) rebuilt as
  // traces. msprof's slow-rank gaps, by
  //   python3 -c "import csv; r=[x for x in csv.DictReader(open('cluster_step_trace_time.csv'))
  //     if x['Type']=='rank']; v=lambda k:[float(x[k]) for x in r];
  //     m=sum(a+b+c for a,b,c in zip(v('Computing'),v('Communication(Not Overlapped)'),
  //     v('Free')))/len(r); print(m, [(max(v(k))-min(v(k)))/m for k in ('Computing',
  //     'Communication(Not Overlapped)','Free')])"
  // = 1713736.1276894559 [0.0009248390052686035, 0.3635267253114513,
  // 0.3476457951370144]. Rank 1 communicates least (133.4 ms): the others
  // wait for it, so late_rank names it and carries the gaps; no second
  // slow_rank finding.
  struct Row {
    double c, m, f;
  };
  const Row rows[8] = {{80309.68717187493, 683731.2897031249, 990605.1042031233},
                       {80435.74650000008, 133385.97745312497, 1488610.0587500026},
                       {80335.81743750002, 530279.2325156251, 1110332.1177812554},
                       {80077.26998437475, 265574.66, 1366552.5200156313},
                       {81662.19999999994, 478477.3900000001, 1130793.2500000068},
                       {81367.62001562494, 756374.86, 892836.8999843737},
                       {81359.02999999997, 244123.84000000003, 1390633.03},
                       {81416.40999999992, 539037.92, 1061577.0900000043}};
  std::vector<model::Trace> traces;
  for (int r = 0; r < 8; ++r) traces.push_back(ClusterRank(r, rows[r].c, rows[r].m, rows[r].f));
  std::vector<analysis::RankAnalysis> analyses;
  for (const model::Trace& t : traces) analyses.push_back(analysis::AnalyzeRank(t, {}));
  std::vector<const analysis::RankAnalysis*> ptrs;
  for (const auto& a : analyses) ptrs.push_back(&a);
  const std::vector<Finding> findings = JobFindings(ptrs, Thresholds{});
  const Finding* late = FindRule(findings, "late_rank");
  ASSERT_NE(late, nullptr);
  EXPECT_EQ(late->rank, 1);
  EXPECT_EQ(FindRule(findings, "slow_rank"), nullptr);
  // The traces hold the times to the ns: the gaps agree to 1e-8.
  EXPECT_NEAR(Detail(*late, "slow_rank_computing_gap_ratio"), 0.0009248390052686035, 1e-8);
  EXPECT_NEAR(Detail(*late, "slow_rank_communication_gap_ratio"), 0.3635267253114513, 1e-8);
  EXPECT_NEAR(Detail(*late, "slow_rank_free_gap_ratio"), 0.3476457951370144, 1e-8);
  EXPECT_NEAR(Detail(*late, "slow_rank_mean_total_ns"), 1713736127.6894559, 10);
}

TEST(ClusterRulesTest, SlowRankWithoutLateRank) {
  // Two ranks, the same 2 ms all-reduce (nobody waits: no late_rank).
  // Rank 1 computes 10 ms, rank 0 8 ms; free 10 and 8 ms: every step total
  // is 20 ms. Computing gap 2 / 20 = 10% and Free gap 10% > 5% -> slow_rank,
  // naming rank 1 (the most computing; Computing is found first among equal
  // gaps), gain 2 ms, warning (5%..15%).
  const model::Trace r0 = ClusterRank(0, 8000, 2000, 10'000);
  const model::Trace r1 = ClusterRank(1, 10'000, 2000, 8000);
  const analysis::RankAnalysis a0 = analysis::AnalyzeRank(r0, {});
  const analysis::RankAnalysis a1 = analysis::AnalyzeRank(r1, {});
  const std::vector<Finding> findings = JobFindings({&a0, &a1}, Thresholds{});
  EXPECT_EQ(FindRule(findings, "late_rank"), nullptr);
  const Finding* f = FindRule(findings, "slow_rank");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->rank, 1);
  EXPECT_NEAR(f->evidence.value, 0.1, 1e-9);
  EXPECT_EQ(f->gain.ns_per_step, 2'000'000);
  EXPECT_EQ(f->severity, Severity::kWarning);
  EXPECT_TRUE(Contains(f->title, "Computing by 2.0 ms (10.0%)")) << f->title;
  EXPECT_TRUE(Contains(f->title, "Free by 2.0 ms (10.0%)")) << f->title;

  // 0.5 ms apart (2.5%): nothing.
  const model::Trace b1 = ClusterRank(1, 8500, 2000, 9500);
  const analysis::RankAnalysis c1 = analysis::AnalyzeRank(b1, {});
  EXPECT_TRUE(JobFindings({&a0, &c1}, Thresholds{}).empty());
}

TEST(ClusterRulesTest, SlowLinkFromSdmaBandwidth) {
  // Each rank one all-reduce moving 1 MB over HCCS: rank 0 in 50 us (20
  // GB/s), rank 1 in 100 us (10 GB/s). Mean 15, (20 - 10) / 15 = 66.7% >=
  // 5% -> slow_link naming rank 1. Gain: 100 us x (1 - 10/20) = 50 us of
  // its 1000 us step = 5% -> critical (msprof high from 5%).
  auto rank_trace = [](int rank, double transfer_us) {
    auto t = ImportString(AscendTrace(
        1000,
        Task("aclnnMul_MulAiCore_Mul", "AI_CORE", 0, 50) +
            HcclOp("hcom_allReduce__1_0_1", 100, 200) + HcclMemcpy(110, transfer_us, 1'000'000),
        fmt::format(R"("distributedInfo": {{"backend": "hccl", "rank": {}, "world_size": 2}}, )",
                    rank)));
    EXPECT_TRUE(t.ok()) << t.status().message();
    return std::move(*t);
  };
  const model::Trace r0 = rank_trace(0, 50);
  const model::Trace r1 = rank_trace(1, 100);
  const analysis::RankAnalysis a0 = analysis::AnalyzeRank(r0, {});
  const analysis::RankAnalysis a1 = analysis::AnalyzeRank(r1, {});
  const std::vector<Finding> findings = JobFindings({&a0, &a1}, Thresholds{});
  const Finding* f = FindRule(findings, "slow_link");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->rank, 1);
  EXPECT_NEAR(f->evidence.value, 10.0 / 15.0, 1e-9);
  EXPECT_DOUBLE_EQ(Detail(*f, "sdma_min_gbps"), 10);
  EXPECT_DOUBLE_EQ(Detail(*f, "sdma_max_gbps"), 20);
  EXPECT_EQ(f->gain.ns_per_step, 50'000);
  EXPECT_EQ(f->severity, Severity::kCritical);

  // 1 MB in 100 and 98 us: 2% apart -> nothing.
  const model::Trace b0 = rank_trace(0, 98);
  const analysis::RankAnalysis c0 = analysis::AnalyzeRank(b0, {});
  EXPECT_EQ(FindRule(JobFindings({&c0, &a1}, Thresholds{}), "slow_link"), nullptr);
}

// ============================================================================
// Real samples
// ============================================================================

TEST(AscendRealSamplesTest, MsttSingleStepTrace) {
  PERFDX_REQUIRE_SHARED();
  // Read from the trace's JSON:
  //   python3 -c "import json,collections; e=json.load(open('single_step_trace_view.json'));
  //     print(collections.Counter(x['name'] for x in e if x.get('ph')=='X' and
  //     x['name'].startswith(('AscendCL@aclopCompileAndExecute','Node@launch',
  //     'AscendCL@aclMallocMemInner','AscendCL@aclrtFree'))))"
  // -> 11 aclopCompileAndExecute (< 20), no Node@launch, no memory APIs; the
  // optimizer is Adam (Optimizer.step#Adam.step), whose fused API is not in
  // the catalogue; no OP State, no GC events, no AI Core Freq counter. Its
  // data supports the AI CPU finding (2 tasks, rules_memory_comm_op_test)
  // and none of the Ascend rules here.
  auto ranks = LoadAndAnalyse(SharedPath("traces/ascend/mstt_samples/single_step_trace_view.json"));
  ASSERT_EQ(ranks.size(), 1u);
  const std::vector<Finding>& findings = ranks[0]->findings;
  const Finding* ai_cpu = FindRule(findings, "ai_cpu_operators");
  ASSERT_NE(ai_cpu, nullptr);
  EXPECT_DOUBLE_EQ(Detail(*ai_cpu, "tasks"), 2);
  for (const char* rule : {"dynamic_shape", "operator_no_bound", "block_dim", "ai_core_freq_drop",
                           "byte_alignment", "environment_variables", "synchronize_stream",
                           "sync_batchnorm", "python_gc", "memory_operators", "affinity_api"}) {
    EXPECT_EQ(FindRule(findings, rule), nullptr) << rule;
  }
}

// Most of the sample's dispatch idle is in gaps during bursts of short
// launch calls (gaps.h launch_overhead), a cause that names no operator.
// Regression: the title said "59.5% inside (launch calls)", the
// placeholder of the unnamed cause.
TEST(AscendRealSamplesTest, MsttDispatchIdleInLaunchBurstsReadsAsSuch) {
  PERFDX_REQUIRE_SHARED();
  auto ranks = LoadAndAnalyse(SharedPath("traces/ascend/mstt_samples/single_step_trace_view.json"));
  ASSERT_EQ(ranks.size(), 1u);
  const Finding* f = FindRule(ranks[0]->findings, "host_bound_dispatch");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->title.find("% in bursts of launch calls"), std::string::npos) << f->title;
  EXPECT_EQ(f->title.find("(launch calls)"), std::string::npos) << f->title;
}

TEST(AscendRealSamplesTest, MsttKernelDetailsArithmeticUtilization) {
  PERFDX_REQUIRE_SHARED();
  // kernel_details_arith_util.csv (ArithmeticUtilization: no pipe ratios,
  // no OP State) loads as a kernel-only trace of 591 rows:
  //   python3 -c "import csv; r=list(csv.DictReader(open('kernel_details_arith_util.csv')));
  //     a=[float(x['Duration(us)']) for x in r if x['Accelerator Core']=='AI_CPU'];
  //     print(len(r), len(a), sum(a), max(a))"
  // -> 591 rows, 7 AI_CPU tasks (trans_Cast_5 / trans_Cast_18, INT32
  // inputs) of 785.18 us, the longest 197.54 us >= 20 us: an AI CPU
  // finding with 785.18 us of the single "step" (the rows' span). No pipe
  // ratios (operator_no_bound silent), no OP State (dynamic_shape silent),
  // no core counts (block_dim silent).
  auto ranks =
      LoadAndAnalyse(SharedPath("traces/ascend/mstt_samples/kernel_details_arith_util.csv"));
  ASSERT_EQ(ranks.size(), 1u);
  const Analysed& a = *ranks[0];
  EXPECT_EQ(a.trace.info.source, model::SourceFormat::kAscendKernelCsv);
  EXPECT_EQ(a.trace.info.device_type, model::DeviceType::kNpu);
  ASSERT_TRUE(a.trace.ascend.has_value());
  EXPECT_EQ(a.trace.ascend->kernels.rows.size(), 591u);
  size_t linked = 0;
  for (const model::AscendKernel& k : a.trace.ascend->kernels.rows) linked += k.slice >= 0;
  EXPECT_EQ(linked, 591u);
  const Finding* f = FindRule(a.findings, "ai_cpu_operators");
  ASSERT_NE(f, nullptr);
  EXPECT_DOUBLE_EQ(Detail(*f, "tasks"), 7);
  EXPECT_DOUBLE_EQ(Detail(*f, "longest_task_ns"), 197'540);
  EXPECT_DOUBLE_EQ(Detail(*f, "double_input_tasks"), 0);
  EXPECT_EQ(f->gain.ns_per_step, 0);  // no complete step in a kernel table
  EXPECT_EQ(f->gain.total_ns, 785'180);
  for (const char* rule : {"operator_no_bound", "dynamic_shape", "block_dim"}) {
    EXPECT_EQ(FindRule(a.findings, rule), nullptr) << rule;
  }
}

TEST(AscendRealSamplesTest, MsttKernelDetailsPipeUtilization) {
  PERFDX_REQUIRE_SHARED();
  // kernel_details_pipe_util.csv (PipeUtilization, CANN >= 8.0): 29 rows,
  // all OP State "dynamic" — msprof's Dynamic Shape issue, and its Operator
  // No Bound check is skipped for it. No AI_CPU rows.
  //   python3 -c "import csv; r=list(csv.DictReader(open('kernel_details_pipe_util.csv')));
  //     print(len(r), {x['OP State'] for x in r})"  -> 29 {'dynamic'}
  const std::string sample = SharedPath("traces/ascend/mstt_samples/kernel_details_pipe_util.csv");
  auto ranks = LoadAndAnalyse(sample);
  ASSERT_EQ(ranks.size(), 1u);
  const Finding* dynamic = FindRule(ranks[0]->findings, "dynamic_shape");
  ASSERT_NE(dynamic, nullptr);
  EXPECT_DOUBLE_EQ(Detail(*dynamic, "dynamic_ops"), 29);
  EXPECT_TRUE(dynamic->recommendations.empty());  // no run-time compilation in a kernel table
  EXPECT_EQ(FindRule(ranks[0]->findings, "operator_no_bound"), nullptr);
  EXPECT_EQ(FindRule(ranks[0]->findings, "ai_cpu_operators"), nullptr);
  // A kernel table has no host timeline: idle time is not blamed on the host
  // (regression: the title said the idle time "has no single host-side cause").
  const Finding* idle = FindRule(ranks[0]->findings, "low_device_utilization");
  ASSERT_NE(idle, nullptr);
  EXPECT_TRUE(Contains(idle->title, "the trace records no host activity")) << idle->title;

  // The same rows as static operators: the pipe data supports an Operator
  // No Bound finding. Max over the vec/mac/scalar/mte1/mte2/mte3 ratios of
  // both cores (fixpipe is not in msprof's list):
  //   python3 -c "import csv; r=list(csv.DictReader(open('kernel_details_pipe_util.csv')));
  //     c=[k for k in r[0] if k.split('_')[-1]=='ratio' and k.split('_')[1] in
  //     ('vec','mac','scalar','mte1','mte2','mte3')]; f=[(float(x['Duration(us)']),
  //     max(float(x[k]) for k in c)) for x in r]; u=[(d,m) for d,m in f if 0<m<=0.8];
  //     print(len(u), max(d for d,m in u), sum(d*(1-m/0.8) for d,m in u))"
  // -> 8 unbound tasks (4 FlashAttentionScoreGrad at 0.772-0.786, 4 tiny
  // Add), the longest 763.215 us > 20 us, saving 75.68025 us.
  std::ifstream in(sample);
  std::stringstream text;
  text << in.rdbuf();
  std::string csv = text.str();
  for (size_t at = csv.find(",dynamic,"); at != std::string::npos; at = csv.find(",dynamic,", at))
    csv.replace(at, 9, ",static,");
  TempDir dir;
  auto a = LoadOne(dir.Write("kernel_details.csv", csv));
  ASSERT_NE(a, nullptr);
  const Finding* f = FindRule(a->findings, "operator_no_bound");
  ASSERT_NE(f, nullptr);
  EXPECT_DOUBLE_EQ(Detail(*f, "unbound_tasks"), 8);
  EXPECT_DOUBLE_EQ(Detail(*f, "measured_tasks"), 29);
  EXPECT_DOUBLE_EQ(Detail(*f, "longest_task_ns"), 763'215);
  EXPECT_EQ(f->gain.ns_per_step, 0);  // no complete step in a kernel table
  EXPECT_NEAR(f->gain.total_ns, 75'680, 2);
  ASSERT_FALSE(f->evidence.contributors.empty());
  EXPECT_EQ(f->evidence.contributors[0].name, "FlashAttentionScoreGrad");
}

const char* const kTextProfile = "traces/ascend/torch_npu_2rank_text_level1";
const char* const kDbProfile = "traces/ascend/torch_npu_2rank_db_level1";

TEST(AscendRealSamplesTest, TwoRankEnvironmentVariables) {
  PERFDX_REQUIRE_SHARED();
  // profiler_metadata.json (text) and META_DATA ENV_VARIABLES (DB) of both
  // ranks: every variable "" (unset). With msprof's conditions
  //   python3 -c "import json; e=json.load(open('rank0_ascend_pt/profiler_metadata.json'))
  //     ['ENV_VARIABLES']; print([k for k,v in e.items() if
  //     (k=='ACLNN_CACHE_LIMIT' and (v=='' or int(v)<10000)) or
  //     (k=='HOST_CACHE_CAPACITY' and (v=='' or int(v)==0)) or
  //     (k=='PYTORCH_NPU_ALLOC_CONF' and 'expandable_segments:True' not in v) or
  //     (k in ('HCCL_RDMA_TC','HCCL_RDMA_SL','HCCL_ALGO') and v!='') or
  //     (k=='ASCEND_GLOBAL_LOG_LEVEL' and v!='' and int(v)!=3) or
  //     (k=='ASCEND_LAUNCH_BLOCKING' and v!='' and int(v)==1)])"
  // -> ACLNN_CACHE_LIMIT, HOST_CACHE_CAPACITY, PYTORCH_NPU_ALLOC_CONF. No
  // operator is static (text kernel_details OP State: 187 dynamic; the DB's
  // COMPUTE_TASK_INFO records no state), so perfdx's cache checks, which
  // need that, agree with msprof here.
  for (const char* profile : {kTextProfile, kDbProfile}) {
    SCOPED_TRACE(profile);
    auto ranks = LoadAndAnalyse(SharedPath(profile));
    ASSERT_EQ(ranks.size(), 2u);
    for (const auto& r : ranks) {
      const Finding* f = FindRule(r->findings, "environment_variables");
      ASSERT_NE(f, nullptr);
      std::set<std::string> named;
      for (const Contributor& x : f->evidence.contributors)
        named.insert(x.name.substr(0, x.name.find('=')));
      EXPECT_EQ(named, (std::set<std::string>{"ACLNN_CACHE_LIMIT", "HOST_CACHE_CAPACITY",
                                              "PYTORCH_NPU_ALLOC_CONF"}));
      EXPECT_EQ(f->severity, Severity::kInfo);
      for (const char* fix : {"aclnn_cache", "host_shape_cache", "memory_fragmentation"}) {
        EXPECT_TRUE(HasFix(*f, fix)) << fix;
      }
      // No static operator (187 compute rows: text OP State "dynamic", DB
      // COMPUTE_TASK_INFO without opState) and 19 aclopCompileAndExecute in
      // the step, by
      //   python3 -c "import json; e=json.load(open('trace_view.json'));
      //     s=[x for x in e if x.get('name','').startswith('ProfilerStep#')][0];
      //     a=float(s['ts']); print(sum(1 for x in e if x.get('name')==
      //     'AscendCL@aclopCompileAndExecute' and a<=float(x['ts'])<a+s['dur']))"
      // (19 for both ranks; the DB's CANN_API in STEP_TIME gives the same):
      // run-time compilation with no static operator -> dynamic_shape with
      // jit_compile_off; 19 < 20 is not the count condition.
      const Finding* d = FindRule(r->findings, "dynamic_shape");
      ASSERT_NE(d, nullptr);
      EXPECT_DOUBLE_EQ(Detail(*d, "static_ops"), 0);
      EXPECT_DOUBLE_EQ(Detail(*d, "dynamic_ops") + Detail(*d, "unknown_state_ops"), 187);
      EXPECT_DOUBLE_EQ(Detail(*d, "op_compiles_per_step"), 19);
      EXPECT_TRUE(HasFix(*d, "jit_compile_off"));
    }
  }
}

TEST(AscendRealSamplesTest, TwoRankProfilesHaveNoSlowRankOrLink) {
  PERFDX_REQUIRE_SHARED();
  // The profiler's own per-rank numbers (µs; SDMA MB and ms):
  //   text: step_trace_time.csv Computing, Communication(Not Overlapped), Free
  //     rank 0: 8873.756, 101963.203, 25744.05   rank 1: 8878.295, 96359.047, 26675.274
  //     communication.json Total Op Info SDMA: 427.596096 MB in 27.315705875 / 27.58397134375 ms
  //   DB: analysis.db StepTraceTime, CommAnalyzerBandwidth (SDMA rows summed)
  //     python3 -c "import sqlite3; c=sqlite3.connect('analysis.db'); print(c.execute(
  //       'select computing, communication_not_overlapped, free from StepTraceTime')
  //       .fetchall(), c.execute(\"select sum(transit_size), sum(transit_time) from
  //       CommAnalyzerBandwidth where transport_type='SDMA'\").fetchall())"
  //     rank 0: 8903.431, 98071.947, 25258.144   rank 1: 8915.634, 94556.05, 25840.499
  //     SDMA: 427.596096 MB in 28.57005090625 / 28.7885753125 ms
  // msprof's gaps, (max - min) / mean step total: text Communication
  // 5604.156 / 134246.81 = 4.17%, Free 0.69%; DB Communication 3515.897 /
  // 130772.85 = 2.69%, Free 0.45%; Computing ~0 — all below 5%: no slow
  // rank (the shared ranks are balanced). SDMA 15.654 / 15.502 GB/s (text),
  // 14.967 / 14.853 (DB), under 1% apart: no slow link.
  struct Expected {
    const char* profile;
    double c0, m0, f0, c1, m1, f1;  // µs
    double sdma_mb, t0_ms, t1_ms;
  };
  const Expected cases[] = {{kTextProfile, 8873.756, 101963.203, 25744.05, 8878.295, 96359.047,
                             26675.274, 427.596096, 27.315705875, 27.58397134375},
                            {kDbProfile, 8903.431, 98071.947, 25258.144, 8915.634, 94556.05,
                             25840.499, 427.596096, 28.57005090625, 28.7885753125}};
  for (const Expected& e : cases) {
    SCOPED_TRACE(e.profile);
    auto ranks = LoadAndAnalyse(SharedPath(e.profile));
    ASSERT_EQ(ranks.size(), 2u);
    const std::vector<const analysis::RankAnalysis*> ptrs = {&ranks[0]->analysis,
                                                             &ranks[1]->analysis};
    const std::vector<Finding> findings = JobFindings(ptrs, Thresholds{});
    for (const char* rule : {"late_rank", "slow_rank", "slow_link"}) {
      EXPECT_EQ(FindRule(findings, rule), nullptr) << rule;
    }
    // With the thresholds at 0.1%, the gaps themselves come out, to compare
    // with the profiler's numbers.
    Thresholds low;
    low.slow_rank_gap_ratio = 0.001;
    low.slow_link_gap_ratio = 0.001;
    const std::vector<Finding> all = JobFindings(ptrs, low);
    const Finding* slow = FindRule(all, "slow_rank");
    ASSERT_NE(slow, nullptr);
    const double mean = (e.c0 + e.m0 + e.f0 + e.c1 + e.m1 + e.f1) / 2;
    EXPECT_NEAR(Detail(*slow, "slow_rank_communication_gap_ratio"), std::abs(e.m0 - e.m1) / mean,
                1e-5);
    EXPECT_NEAR(Detail(*slow, "slow_rank_free_gap_ratio"), std::abs(e.f0 - e.f1) / mean, 1e-5);
    EXPECT_NEAR(Detail(*slow, "slow_rank_computing_gap_ratio"), std::abs(e.c0 - e.c1) / mean, 1e-5);
    EXPECT_LT(Detail(*slow, "slow_rank_communication_gap_ratio"), 0.05);
    EXPECT_EQ(slow->rank, 1);  // the least exposed communication: the others wait for it
    const Finding* link = FindRule(all, "slow_link");
    ASSERT_NE(link, nullptr);
    EXPECT_NEAR(Detail(*link, "sdma_max_gbps"), e.sdma_mb / e.t0_ms, 1e-3);
    EXPECT_NEAR(Detail(*link, "sdma_min_gbps"), e.sdma_mb / e.t1_ms, 1e-3);
    EXPECT_EQ(link->rank, 1);
  }
}

TEST(AscendRealSamplesTest, TwoRankTextByteAlignment) {
  PERFDX_REQUIRE_SHARED();
  // trace_view.json's HCCL tasks: Memcpy / Reduce*, transport SDMA, link not
  // ON_CHIP, size > 512 B, by op (the op running at the task's start):
  //   python3 -c "import json; e=json.load(open('trace_view.json')); P={x['pid']:x['args']['name']
  //     for x in e if x.get('name')=='process_name'}; T={(x['pid'],x['tid']):x['args']['name'] for
  //     x in e if x.get('name')=='thread_name'}; h=[x for x in e if x.get('ph')=='X' and
  //     P.get(x['pid'])
  //     =='HCCL']; o=sorted((float(x['ts']),x['name']) for x in h if 'Communication' in
  //     T.get((x['pid'], x['tid']),'')); k=[(float(x['ts']),x['dur'],int(x['args']['size(Byte)']))
  //     for x in h if x['name'].startswith(('Memcpy','Reduce')) and x['args'].get('transport
  //     type')=='SDMA' and x['args'].get('link type')!='ON_CHIP' and
  //     int(x['args'].get('size(Byte)',0))>512]; b=[t for t in k if t[2]%512]; print({[n for s,n in
  //     o if s<=t[0]][-1] for t in b}, sum(t[1] for t in b)/sum(t[1] for t in k))"
  // -> two ops with misaligned sizes in both ranks, hcom_allReduce__586_0_1
  // (1937312 B = 3783.8 x 512) and hcom_allReduce__586_3_1 (1162496 B),
  // misaligned share of the considered transfer time 1.4534% (rank 0),
  // 1.5797% (rank 1): low priority (info).
  auto ranks = LoadAndAnalyse(SharedPath(kTextProfile));
  ASSERT_EQ(ranks.size(), 2u);
  const double share[2] = {0.014534051465364156, 0.015797172371219578};
  for (size_t r = 0; r < 2; ++r) {
    const Finding* f = FindRule(ranks[r]->findings, "byte_alignment");
    ASSERT_NE(f, nullptr);
    EXPECT_DOUBLE_EQ(Detail(*f, "misaligned_ops"), 2);
    EXPECT_NEAR(f->evidence.value, share[r], 1e-6);
    EXPECT_EQ(f->severity, Severity::kInfo);
    std::set<std::string> ops;
    for (const Contributor& x : f->evidence.contributors) ops.insert(x.name);
    EXPECT_EQ(ops, (std::set<std::string>{"hcom_allReduce__586_0_1", "hcom_allReduce__586_3_1"}));
  }
}

TEST(KernelCsvLoaderTest, ACsvThatIsNoKernelTableIsOneError) {
  TempDir dir;
  auto loaded =
      formats::LoadTraces({dir.Write("memory_record.csv", "Component,Timestamp(us)\nPTA,1\n")}, {});
  ASSERT_FALSE(loaded.ok());
  EXPECT_TRUE(Contains(std::string(loaded.status().message()), "not a kernel_details.csv"))
      << loaded.status().message();
  auto empty =
      formats::LoadTraces({dir.Write("kernel_details.csv", std::string(kKernelHeader))}, {});
  EXPECT_FALSE(empty.ok());
}

TEST(AscendRulesTest, EveryFixTheAscendRulesNameIsInTheCatalogue) {
  for (const char* fix :
       {"jit_compile_off", "aoe_tuning", "npu_health_check", "ascend_log_level", "aclnn_cache",
        "host_shape_cache", "memory_fragmentation", "launch_blocking_off", "hccl_algo_auto",
        "reduce_launch_overhead", "cpu_binding", "hccl_env", "avoid_sync_batchnorm", "python_gc",
        "avoid_empty_cache", "operator_fusion", "fused_optimizer"}) {
    bool torch_npu = false;
    for (const Recommendation& r : RecommendationsFor(fix))
      torch_npu |= r.framework == FixTarget::kTorchNpu;
    EXPECT_TRUE(torch_npu) << fix;
  }
}

}  // namespace
}  // namespace perfdx::advisor
