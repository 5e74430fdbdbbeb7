// The Ascend facts RankAnalysis carries for the advisor (ascend_profile.h,
// ascend_operators.h, hccl_transfers.h, op_sequences.h, host_calls.h): the
// host-call table one test per real name, hand-built trace_view.json /
// *_ascend_pt fixtures with every expected value counted in the comments,
// and the 2-rank text profile's rank 0, whose values come from the
// profiler's own files (the Python in the comments), never from perfdx.
#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "ascend_trace_fixtures.h"
#include "perfdx/analysis/rank_analysis.h"
#include "perfdx/formats/trace_loader.h"
#include "test_support.h"

namespace perfdx::analysis {
namespace {

using model::EventKind;
using model::TrackKind;
using namespace perfdx::testing::ascend;  // NOLINT: the fixture builders
using perfdx::testing::ImportString;
using perfdx::testing::SharedPath;
using perfdx::testing::TempDir;

struct Analysed {
  model::Trace trace;
  RankAnalysis analysis;
};

std::unique_ptr<Analysed> AnalyseTrace(model::Trace trace) {
  auto a = std::make_unique<Analysed>();
  a->trace = std::move(trace);
  a->analysis = AnalyzeRank(a->trace, {});
  return a;
}

std::unique_ptr<Analysed> AnalyseJson(const std::string& json) {
  auto t = ImportString(json);
  EXPECT_TRUE(t.ok()) << t.status().message();
  return AnalyseTrace(t.ok() ? std::move(*t) : model::Trace());
}

std::unique_ptr<Analysed> LoadOne(const std::string& path) {
  auto loaded = formats::LoadTraces({path}, {});
  EXPECT_TRUE(loaded.ok()) << loaded.status().message();
  if (!loaded.ok() || loaded->traces.size() != 1) return nullptr;
  return AnalyseTrace(std::move(loaded->traces[0]));
}

size_t CountKind(const HostCalls& calls, HostCallKind kind) {
  return calls.Of(kind).size();
}

// --- the host-call table -----------------------------------------------------

TEST(HostCallTableTest, RuntimeCallNames) {
  const std::pair<const char*, HostCallKind> names[] = {
      {"AscendCL@aclrtSynchronizeStream", HostCallKind::kSynchronizeStream},
      {"AscendCL@aclrtSynchronizeStreamWithTimeout", HostCallKind::kSynchronizeStream},
      {"Node@launch", HostCallKind::kNodeLaunch},
      {"AscendCL@aclopCompileAndExecute", HostCallKind::kOpCompileAndExecute},
      {"AscendCL@opCompile", HostCallKind::kOpCompile},
      {"AscendCL@aclMallocMemInner", HostCallKind::kMallocMemInner},
      {"AscendCL@aclrtFreePhysical", HostCallKind::kFreePhysical},
      {"AscendCL@aclrtFree", HostCallKind::kFree},
  };
  for (const auto& [name, kind] : names) {
    EXPECT_EQ(ClassifyHostCall(EventKind::kRuntimeCall, TrackKind::kHostThread, name, ""),
              std::vector<HostCallKind>{kind})
        << name;
    // Only as a runtime call: a framework operator of that name is none.
    EXPECT_TRUE(ClassifyHostCall(EventKind::kFrameworkOp, TrackKind::kHostThread, name, "").empty())
        << name;
  }
}

TEST(HostCallTableTest, FrameworkOperatorAndGcNames) {
  for (const char* name : {"SyncBatchNorm", "syncbatchnorm", "SYNCBATCHNORM"}) {
    EXPECT_EQ(ClassifyHostCall(EventKind::kFrameworkOp, TrackKind::kHostThread, name, "cpu_op"),
              std::vector<HostCallKind>{HostCallKind::kSyncBatchNorm})
        << name;
  }
  // Optimizer steps (torch.optim's profiling hook: "Optimizer.step#" + the
  // class + ".step"): any event on a host thread, none on another track;
  // AdamW's is also a kind of its own (the Ascend affinity rule counts it).
  const std::pair<const char*, std::vector<HostCallKind>> steps[] = {
      {"Optimizer.step#AdamW.step", {HostCallKind::kAdamWStep, HostCallKind::kOptimizerStep}},
      {"Optimizer.step#Adam.step", {HostCallKind::kOptimizerStep}},
      {"Optimizer.step#SGD.step", {HostCallKind::kOptimizerStep}},
      {"Optimizer.step#Shampoo.step", {HostCallKind::kOptimizerStep}},
      {"Optimizer.step#EMAOptimizer.step", {HostCallKind::kOptimizerStep}},
  };
  for (const auto& [name, kinds] : steps) {
    EXPECT_EQ(ClassifyHostCall(EventKind::kUserAnnotation, TrackKind::kHostThread, name, ""), kinds)
        << name;
    EXPECT_TRUE(
        ClassifyHostCall(EventKind::kUserAnnotation, TrackKind::kDeviceStream, name, "").empty())
        << name;
  }
  // A GC is its category, whatever its name.
  EXPECT_EQ(ClassifyHostCall(EventKind::kOther, TrackKind::kHostThread, "GC", "gc"),
            std::vector<HostCallKind>{HostCallKind::kPythonGc});
  EXPECT_EQ(HostCallName(HostCallKind::kFree), "AscendCL@aclrtFree");
  EXPECT_EQ(HostCallName(HostCallKind::kMallocMemInner), "AscendCL@aclMallocMemInner");
}

TEST(HostCallTableTest, LookAlikesAreNone) {
  // Exact names stay exact; the prefixes only as prefixes.
  for (const char* name :
       {"AscendCL@aclrtFreeHost", "AscendCL@aclopCompile", "AscendCL@opCompileX",
        "aclrtSynchronizeStream", "AscendCL@aclrtSynchronizeDevice", "Node@launc",
        "AscendCL@aclMallocMemInnerX", "aclrtFree", "SyncBatchNorm2", "aten::batch_norm",
        "Optimizer.zero_grad#SGD.zero_grad", "optimizer.step"}) {
    EXPECT_TRUE(ClassifyHostCall(EventKind::kRuntimeCall, TrackKind::kHostThread, name, "").empty())
        << name;
    EXPECT_TRUE(ClassifyHostCall(EventKind::kFrameworkOp, TrackKind::kHostThread, name, "").empty())
        << name;
  }
  EXPECT_TRUE(
      ClassifyHostCall(EventKind::kOther, TrackKind::kHostThread, "gc", "python_function").empty());
}

// --- host calls of a window --------------------------------------------------

TEST(HostCallsTest, TheWindowsCallsByKind) {
  // Step [1000, 11000) us. In it: 2 Node@launch, 1 synchronize (WithTimeout),
  // aclopCompileAndExecute with opCompile inside (300 / 100 us), a malloc of
  // 50 us, 2 SyncBatchNorm ops, a GC of 2 ms (cat gc). Outside it (before the
  // step, at 100 and 200 us, and after it at 12000): a launch, a GC, a free.
  std::string events =
      Cann("Node@launch", 100, 5) + X(60, 60, "GC", 200, 500, "gc") + Cann("Node@launch", 2000, 5) +
      Cann("Node@launch", 2010, 5) + Cann("AscendCL@aclrtSynchronizeStreamWithTimeout", 2020, 40) +
      Cann("AscendCL@aclopCompileAndExecute", 3000, 300) + Cann("AscendCL@opCompile", 3010, 100) +
      Cann("AscendCL@aclMallocMemInner", 4000, 50) + Op("SyncBatchNorm", 5000, 30) +
      Op("SyncBatchNorm", 6000, 30) + X(60, 60, "GC", 7000, 2000, "gc") +
      Cann("AscendCL@aclrtFree", 12000, 9) + Task("Add", "AI_CORE", 2050, 10);
  auto a = AnalyseJson(AscendTraceFrom(1000, 10'000, events));
  ASSERT_NE(a, nullptr);
  const HostCalls& h = a->analysis.host_calls;
  EXPECT_TRUE(h.host_recorded);
  EXPECT_EQ(CountKind(h, HostCallKind::kNodeLaunch), 2u);
  EXPECT_EQ(CountKind(h, HostCallKind::kSynchronizeStream), 1u);
  EXPECT_EQ(CountKind(h, HostCallKind::kOpCompileAndExecute), 1u);
  EXPECT_EQ(CountKind(h, HostCallKind::kMallocMemInner), 1u);
  EXPECT_EQ(CountKind(h, HostCallKind::kFree), 0u);  // after the step
  EXPECT_EQ(CountKind(h, HostCallKind::kSyncBatchNorm), 2u);
  EXPECT_EQ(h.calls.size(), 2u + 1 + 1 + 1 + 1 + 2 + 1);
  const std::vector<HostCall> compile = h.Of(HostCallKind::kOpCompile);
  ASSERT_EQ(compile.size(), 1u);
  EXPECT_EQ(compile[0].ts_ns, 3'010'000);
  EXPECT_EQ(compile[0].dur_ns, 100'000);
  EXPECT_EQ(compile[0].tid, 41);
  const std::vector<HostCall> gc = h.Of(HostCallKind::kPythonGc);
  ASSERT_EQ(gc.size(), 1u);
  EXPECT_EQ(gc[0].ts_ns, 7'000'000);
  EXPECT_EQ(gc[0].end_ns(), 9'000'000);
  // By thread, then by start: the launches come in their order.
  const std::vector<HostCall> launches = h.Of(HostCallKind::kNodeLaunch);
  ASSERT_EQ(launches.size(), 2u);
  EXPECT_EQ(launches[0].ts_ns, 2'000'000);
  EXPECT_EQ(launches[1].ts_ns, 2'010'000);
}

// --- the kernel table, the profile and the clock -----------------------------

constexpr std::string_view kKernelHeader =
    "Step Id,Model ID,Task ID,Stream ID,Name,Type,OP State,Accelerator Core,Start Time(us),"
    "Duration(us),Wait Time(us),Block Dim,Mix Block Dim,Input Data Types,aic_mac_ratio,"
    "aiv_vec_ratio,aiv_mte2_ratio\n";

TEST(AscendOperatorsTest, KernelRowsOfTheWindowWithTheirFacts) {
  // A profile folder: step [1000, 2000) us; kernel rows (name, type, state,
  // core, start, dur, block dim, mix block dim, dtypes, mac, vec, mte2):
  //   MatMul1  MatMulV2 static  AI_CORE        1100 100  24  0 FLOAT16 0.5 N/A N/A
  //   Add1     Add      dynamic AI_VECTOR_CORE 1300  50  40  0 FLOAT   N/A 0.3 0.7
  //   Cast1    Cast     N/A     AI_CPU         1400  30   1  0 DOUBLE  N/A N/A N/A
  //   hcom1    hcom_    N/A     HCCL           1500 100   1  0 ""      N/A N/A N/A
  //   Late     Add      static  AI_CORE        2500  10   8  0 FLOAT   0.9 N/A N/A (after the step)
  // In the window: 4 rows; op states (HCCL aside): 1 static, 1 dynamic, 1
  // unknown. Busiest pipes: 0.5, max(0.3, 0.7) = 0.7, 0 (none), 0.
  TempDir dir;
  const std::string root = "rank0_ascend_pt/";
  dir.Write(root + "profiler_info_0.json",
            R"({"rank_id": 0, "cann_version": "8.0.RC2", "config": {"common_config": {}}})");
  std::string events = Task("MatMul1", "AI_CORE", 1100, 100) +
                       Task("Add1", "AI_VECTOR_CORE", 1300, 50) +
                       Task("Cast1", "AI_CPU", 1400, 30) + Task("Late", "AI_CORE", 2500, 10) +
                       Freq(2600, 1500) + Freq(0, 1800) + Freq(1200, 1650);
  dir.Write(root + "ASCEND_PROFILER_OUTPUT/trace_view.json", AscendTraceFrom(1000, 1000, events));
  std::string csv(kKernelHeader);
  csv +=
      "1,4294967295,1,3,MatMul1,MatMulV2,static,AI_CORE,\"1100.000\t\",100,0,24,0,FLOAT16,0.5,N/"
      "A,N/A\n";
  csv +=
      "1,4294967295,2,3,Add1,Add,dynamic,AI_VECTOR_CORE,\"1300.000\t\",50,0,40,0,FLOAT,N/"
      "A,0.3,0.7\n";
  csv += "1,4294967295,3,3,Cast1,Cast,N/A,AI_CPU,\"1400.000\t\",30,0,1,0,DOUBLE,N/A,N/A,N/A\n";
  csv += "1,4294967295,4,3,hcom1,hcom_,N/A,HCCL,\"1500.000\t\",100,0,1,0,,N/A,N/A,N/A\n";
  csv += "1,4294967295,5,3,Late,Add,static,AI_CORE,\"2500.000\t\",10,0,8,0,FLOAT,0.9,N/A,N/A\n";
  dir.Write(root + "ASCEND_PROFILER_OUTPUT/kernel_details.csv", csv);
  dir.Write(root + "profiler_metadata.json",
            R"({"ENV_VARIABLES": {"ASCEND_GLOBAL_LOG_LEVEL": "1", "HCCL_ALGO": ""}})");
  dir.Write(
      root + "PROF_000001_20250101000000000_ABCDEFGHIJKLMNO/device_0/info.json.0",
      R"({"DeviceInfo": [{"id": 0, "ai_core_num": 20, "aiv_num": 40, "aic_frequency": 1800}]})");
  auto a = LoadOne(dir.path() + "/" + root);
  ASSERT_NE(a, nullptr);

  const AscendProfile& p = a->analysis.ascend_profile;
  EXPECT_TRUE(p.present);
  EXPECT_EQ(p.cann_version, "8.0.RC2");
  EXPECT_EQ(p.ai_core_count, 20);
  EXPECT_EQ(p.aiv_count, 40);
  EXPECT_EQ(p.env_variables.size(), 2u);
  EXPECT_EQ(p.env_variables.at("ASCEND_GLOBAL_LOG_LEVEL"), "1");
  EXPECT_EQ(p.env_variables.at("HCCL_ALGO"), "");

  const AscendOperators& o = a->analysis.ascend_operators;
  EXPECT_TRUE(o.has_pipe_ratios);
  ASSERT_EQ(o.kernel_rows.size(), 4u);
  EXPECT_EQ(o.kernel_rows[0].name, "MatMul1");
  EXPECT_EQ(o.kernel_rows[0].op_type, "MatMulV2");
  EXPECT_EQ(o.kernel_rows[0].task_type, "AI_CORE");
  EXPECT_EQ(o.kernel_rows[0].start_ns, 1'100'000);
  EXPECT_EQ(o.kernel_rows[0].dur_ns, 100'000);
  EXPECT_EQ(o.kernel_rows[0].block_dim, 24);
  EXPECT_EQ(o.kernel_rows[0].mix_block_dim, 0);
  EXPECT_DOUBLE_EQ(o.kernel_rows[0].busiest_pipe_ratio, 0.5);
  EXPECT_DOUBLE_EQ(o.kernel_rows[1].busiest_pipe_ratio, 0.7);
  EXPECT_EQ(o.kernel_rows[2].task_type, "AI_CPU");
  EXPECT_DOUBLE_EQ(o.kernel_rows[2].busiest_pipe_ratio, 0);
  EXPECT_EQ(o.kernel_rows[3].task_type, "HCCL");
  EXPECT_EQ(o.op_states.static_ops, 1u);
  EXPECT_EQ(o.op_states.dynamic_ops, 1u);
  EXPECT_EQ(o.op_states.unknown_ops, 1u);
  EXPECT_FALSE(o.op_states.NoStatic());
  EXPECT_FALSE(o.op_states.AllDynamic());

  // The timeline's compute tasks of the step: MatMul1, Add1, Cast1 (Late is
  // after it), the AI_CPU one with its row's DOUBLE input.
  std::vector<std::string> names;
  for (const AscendComputeTask& t : o.compute_tasks) names.push_back(t.name);
  EXPECT_EQ(names, (std::vector<std::string>{"MatMul1", "Add1", "Cast1"}));
  for (const AscendComputeTask& t : o.compute_tasks) {
    if (t.name != "Cast1") continue;
    EXPECT_EQ(t.task_type, "AI_CPU");
    EXPECT_EQ(t.input_dtypes, "DOUBLE");
    EXPECT_EQ(t.ts_ns, 1'400'000);
    EXPECT_EQ(t.dur_ns, 30'000);
  }
  // Every clock sample, by time, also the ones outside the step.
  ASSERT_EQ(o.ai_core_freq.size(), 3u);
  EXPECT_EQ(o.ai_core_freq[0].ts_ns, 0);
  EXPECT_DOUBLE_EQ(o.ai_core_freq[0].mhz, 1800);
  EXPECT_EQ(o.ai_core_freq[1].ts_ns, 1'200'000);
  EXPECT_DOUBLE_EQ(o.ai_core_freq[1].mhz, 1650);
  EXPECT_EQ(o.ai_core_freq[2].ts_ns, 2'600'000);
}

TEST(AscendOperatorsTest, NoStaticOperatorWithoutRecordedStates) {
  // kernel_details.csv alone (no host side): two compute rows with no state
  // and an HCCL row: 2 unknown, none static -> msprof's dynamic-shape test
  // holds, though not "all recorded dynamic". No pipe ratio column.
  TempDir dir;
  std::string csv =
      "Step Id,Model ID,Task ID,Stream ID,Name,Type,OP State,Accelerator Core,Start Time(us),"
      "Duration(us),Wait Time(us),Block Dim\n";
  csv += "1,4294967295,1,3,A,Add,N/A,AI_CORE,\"100.000\t\",10,0,8\n";
  csv += "1,4294967295,2,3,B,Mul,N/A,AI_VECTOR_CORE,\"120.000\t\",10,0,8\n";
  csv += "1,4294967295,3,3,H,hcom_,N/A,HCCL,\"140.000\t\",10,0,1\n";
  auto a = LoadOne(dir.Write("kernel_details.csv", csv));
  ASSERT_NE(a, nullptr);
  const AscendOperators& o = a->analysis.ascend_operators;
  EXPECT_FALSE(a->analysis.host_calls.host_recorded);
  EXPECT_FALSE(o.has_pipe_ratios);
  EXPECT_EQ(o.op_states.unknown_ops, 2u);
  EXPECT_EQ(o.op_states.static_ops + o.op_states.dynamic_ops, 0u);
  EXPECT_TRUE(o.op_states.NoStatic());
  EXPECT_FALSE(o.op_states.AllDynamic());
}

TEST(AscendOperatorsTest, EmptyForAKinetoTrace) {
  auto a = AnalyseJson(R"({"traceEvents": [
    {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 0, "dur": 100},
    {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 10, "dur": 5, "args": {"device": 0, "stream": 7}},
    {"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 1, "tid": 1, "ts": 5, "dur": 5}]})");
  ASSERT_NE(a, nullptr);
  EXPECT_FALSE(a->analysis.ascend_profile.present);
  EXPECT_TRUE(a->analysis.ascend_operators.kernel_rows.empty());
  EXPECT_TRUE(a->analysis.ascend_operators.compute_tasks.empty());
  EXPECT_TRUE(a->analysis.hccl_transfers.tasks.empty());
  EXPECT_TRUE(a->analysis.op_sequences.threads.empty());
  EXPECT_TRUE(a->analysis.host_calls.calls.empty());
  EXPECT_TRUE(a->analysis.host_calls.host_recorded);
}

// --- HCCL ops and tasks ------------------------------------------------------

TEST(HcclTransfersTest, TasksWithTheirOp) {
  // Step [0, 10000) us. Ops: allReduce_A at 1000 (dur 2000), allReduce_B at
  // 5000 (dur 1000), allReduce_C at 12000 (after the step). Tasks: a Memcpy
  // at 500 (before every op: op -1), a Memcpy at 1500 (op A, SDMA HCCS 1000
  // bytes), a Reduce_Inline at 4000 (ends after A, before B: a task is filed
  // under the op its end falls in, so none — the old by-start rule said A),
  // a Memcpy at 5500 (op B, ON_CHIP), a Memcpy at 12500 (after the step).
  std::string events = perfdx::testing::ascend::HcclOp("allReduce_A", 1000, 2000) +
                       perfdx::testing::ascend::HcclOp("allReduce_B", 5000, 1000) +
                       perfdx::testing::ascend::HcclOp("allReduce_C", 12000, 100) +
                       HcclTaskEvent("Memcpy", 500, 10, "SDMA", "HCCS", 512) +
                       HcclTaskEvent("Memcpy", 1500, 20, "SDMA", "HCCS", 1000) +
                       HcclTaskEvent("Reduce_Inline", 4000, 30, "SDMA", "HCCS", 2048) +
                       HcclTaskEvent("Memcpy", 5500, 40, "SDMA", "ON_CHIP", 4096) +
                       HcclTaskEvent("Memcpy", 12500, 10, "SDMA", "HCCS", 512) +
                       Task("Add", "AI_CORE", 100, 10);
  auto a = AnalyseJson(AscendTraceFrom(0, 10'000, events));
  ASSERT_NE(a, nullptr);
  const HcclTransfers& h = a->analysis.hccl_transfers;
  ASSERT_EQ(h.ops.size(), 2u);
  EXPECT_EQ(h.ops[0].name, "allReduce_A");
  EXPECT_EQ(h.ops[0].start_ns, 1'000'000);
  EXPECT_EQ(h.ops[0].end_ns, 3'000'000);
  EXPECT_EQ(h.ops[1].name, "allReduce_B");
  ASSERT_EQ(h.tasks.size(), 4u);
  EXPECT_EQ(h.tasks[0].op, -1);
  EXPECT_EQ(h.tasks[1].op, 0);
  EXPECT_EQ(h.tasks[1].name, "Memcpy");
  EXPECT_EQ(h.tasks[1].transport, "SDMA");
  EXPECT_EQ(h.tasks[1].link, "HCCS");
  EXPECT_EQ(h.tasks[1].bytes, 1000);
  EXPECT_EQ(h.tasks[1].ts_ns, 1'500'000);
  EXPECT_EQ(h.tasks[1].dur_ns, 20'000);
  EXPECT_EQ(h.tasks[2].name, "Reduce_Inline");
  EXPECT_EQ(h.tasks[2].op, -1);
  EXPECT_EQ(h.tasks[3].op, 1);
  EXPECT_EQ(h.tasks[3].link, "ON_CHIP");
}

// --- aten sequences ----------------------------------------------------------

TEST(OpSequencesTest, TopLevelAtenOpsPerThread) {
  // Step [0, 1000) us, thread 10: aten::matmul 100..200 with aten::mm inside
  // (left out), aten::add 200, npu::npu_rms_norm 300, a python function at
  // 400 (not an operator), aten::softmax 2000 (after the step). Thread 11:
  // ATEN::mul at 50. Sequences: [matmul, add, npu::npu_rms_norm], [mul].
  std::string events = Op("aten::matmul", 100, 100) + Op("aten::mm", 110, 50) +
                       Op("aten::add", 200, 10) + Op("npu::npu_rms_norm", 300, 10) +
                       X(10, 10, "model.py(12): forward", 400, 10, "python_function") +
                       Op("aten::softmax", 2000, 10) + X(10, 11, "ATEN::mul", 50, 10, "cpu_op") +
                       Task("Add", "AI_CORE", 100, 10);
  auto a = AnalyseJson(AscendTraceFrom(0, 1000, events));
  ASSERT_NE(a, nullptr);
  const std::vector<std::vector<std::string>>& threads = a->analysis.op_sequences.threads;
  ASSERT_EQ(threads.size(), 2u);
  std::vector<std::vector<std::string>> sorted = threads;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted[0], (std::vector<std::string>{"matmul", "add", "npu::npu_rms_norm"}));
  EXPECT_EQ(sorted[1], (std::vector<std::string>{"mul"}));
}

// --- the shared 2-rank text profile, rank 0 -----------------------------------
// Its one step ProfilerStep#... is the window. The values, from the
// profiler's files (base = rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/):
//   import json, csv, collections; from decimal import Decimal as D
//   ev = json.load(open(base + 'trace_view.json'), parse_float=D)
//   s = [e for e in ev if e.get('ph') == 'X' and e['name'].startswith('ProfilerStep#')][0]
//   lo, hi = D(s['ts']), D(s['ts']) + D(s['dur']); inw = lambda t: lo <= D(t) < hi
//   X = [e for e in ev if e.get('ph') == 'X' and inw(e['ts'])]
//   sum(e['name'].startswith('Node@launch') for e in X)                      -> 191
//   sum(e['name'].startswith('AscendCL@aclrtSynchronizeStream') for e in X)  -> 7
//   sum(e['name'] == 'AscendCL@aclopCompileAndExecute' for e in X)           -> 19
//   sum(D(e['dur']) for e in X if e['name'] == 'AscendCL@opCompile')         -> 372.94 us
//   collections.Counter(e['args']['Task Type'] for e in X if 'Task Type' in e.get('args', {}))
//                                                             -> AI_CORE 172, MIX_AIV 13, ...
//   rows = [r for r in csv.DictReader(open(base + 'kernel_details.csv'))
//           if inw(r['Start Time(us)'].strip())]
//   collections.Counter(r['OP State'] for r in rows if r['Accelerator Core'] != 'HCCL')
//                                                                  -> dynamic 187
//   HCCL (pid of process "HCCL"): 4 ops on "Group 0 Communication", hcom_allReduce__586_{0..3}_1;
//   296 tasks on the Planes; Memcpy/Reduce with transport SDMA and link HCCS: 56, ON_CHIP: 16;
//   and the 72 "Ascend Hardware" tasks of Task Type "SDMA" (HCCL's own transfers, counted
//   above), which carry no transport: 368 tasks.
TEST(AscendFactsSharedTest, TextProfileRank0) {
  PERFDX_REQUIRE_SHARED();
  auto a = LoadOne(SharedPath("traces/ascend/torch_npu_2rank_text_level1/rank0_ascend_pt"));
  ASSERT_NE(a, nullptr);
  const RankAnalysis& r = a->analysis;
  EXPECT_EQ(r.host_calls.Of(HostCallKind::kNodeLaunch).size(), 191u);
  EXPECT_EQ(r.host_calls.Of(HostCallKind::kSynchronizeStream).size(), 7u);
  EXPECT_EQ(r.host_calls.Of(HostCallKind::kOpCompileAndExecute).size(), 19u);
  int64_t compile_ns = 0;
  for (const HostCall& c : r.host_calls.Of(HostCallKind::kOpCompile)) compile_ns += c.dur_ns;
  EXPECT_NEAR(static_cast<double>(compile_ns), 372'940, 19);  // ns rounding per call
  EXPECT_TRUE(r.host_calls.host_recorded);

  EXPECT_EQ(r.ascend_operators.op_states.dynamic_ops, 187u);
  EXPECT_EQ(r.ascend_operators.op_states.static_ops, 0u);
  EXPECT_EQ(r.ascend_operators.op_states.unknown_ops, 0u);
  EXPECT_TRUE(r.ascend_operators.op_states.AllDynamic());
  size_t ai_core = 0, mix_aiv = 0;
  for (const AscendComputeTask& t : r.ascend_operators.compute_tasks) {
    ai_core += t.task_type == "AI_CORE";
    mix_aiv += t.task_type == "MIX_AIV";
  }
  EXPECT_EQ(ai_core, 172u);
  EXPECT_EQ(mix_aiv, 13u);

  const HcclTransfers& h = r.hccl_transfers;
  ASSERT_EQ(h.ops.size(), 4u);
  for (size_t k = 0; k < h.ops.size(); ++k)
    EXPECT_EQ(h.ops[k].name, fmt::format("hcom_allReduce__586_{}_1", k));
  EXPECT_EQ(h.tasks.size(), 296u + 72u);
  size_t hccs = 0, on_chip = 0, no_transport = 0;
  for (const HcclTask& t : h.tasks) {
    no_transport += t.transport.empty();
    const bool moves = t.name.starts_with("Memcpy") || t.name.starts_with("Reduce");
    hccs += moves && t.transport == "SDMA" && t.link == "HCCS";
    on_chip += moves && t.transport == "SDMA" && t.link == "ON_CHIP";
    // Every plane task of the step ends inside one of its ops; the Ascend
    // Hardware copies are not filed under an op (collectives.h's one rule,
    // as msprof's communication analysis: it reads the planes only).
    if (t.transport.empty()) {
      EXPECT_EQ(t.op, -1);
    } else {
      EXPECT_GE(t.op, 0);
    }
  }
  EXPECT_EQ(hccs, 56u);
  EXPECT_EQ(on_chip, 16u);
  EXPECT_EQ(no_transport, 72u);
}

}  // namespace
}  // namespace perfdx::analysis
