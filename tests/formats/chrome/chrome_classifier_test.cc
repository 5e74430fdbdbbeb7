#include "perfdx/formats/chrome/chrome_classifier.h"

#include <string>

#include <gtest/gtest.h>

#include "perfdx/io/byte_source.h"
#include "test_support.h"

namespace perfdx::formats {
namespace {

using model::EventKind;
using model::TrackKind;
using perfdx::testing::ImportString;

EventKind KindOf(const model::Trace& t, std::string_view name) {
  for (model::SliceId i = 0; i < t.slices.size(); ++i) {
    if (t.slice_name(i) == name) return t.slices.kind[i];
  }
  ADD_FAILURE() << "no slice " << name;
  return EventKind::kOther;
}

TEST(ChromeClassifierTest, ProfilerStepAndDataLoaderNames) {
  EXPECT_EQ(ParseProfilerStep("ProfilerStep#12"), 12);
  EXPECT_EQ(ParseProfilerStep("ProfilerStep # 3"), 3);
  EXPECT_EQ(ParseProfilerStep("ProfilerStep#"), std::nullopt);
  EXPECT_EQ(ParseProfilerStep("ProfilerStep#1a"), std::nullopt);
  EXPECT_EQ(ParseProfilerStep("Optimizer.step#SGD.step"), std::nullopt);
  EXPECT_TRUE(IsDataLoaderName("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__"));
  EXPECT_TRUE(IsDataLoaderName("enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__"));
  EXPECT_TRUE(IsDataLoaderName("enumerate(DataPipe)#ShufflerIterDataPipe"));
  EXPECT_FALSE(IsDataLoaderName("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__init__"));
}

TEST(ChromeClassifierTest, KinetoVocabulary) {
  auto t = ImportString(R"json({"schemaVersion": 1, "traceEvents": [
    {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#4", "pid": 10, "tid": 10, "ts": 0, "dur": 100},
    {"ph": "X", "cat": "user_annotation", "name": "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", "pid": 10, "tid": 10, "ts": 1, "dur": 5},
    {"ph": "X", "cat": "cpu_op", "name": "aten::conv2d", "pid": 10, "tid": 10, "ts": 10, "dur": 20},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 10, "tid": 10, "ts": 11, "dur": 2},
    {"ph": "X", "cat": "python_function", "name": "train.py(10): step", "pid": 10, "tid": 10, "ts": 0, "dur": 50},
    {"ph": "X", "cat": "kernel", "name": "volta_sgemm_128x64_nn", "pid": 0, "tid": 7, "ts": 15, "dur": 3},
    {"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)", "pid": 0, "tid": 20, "ts": 15, "dur": 30},
    {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pageable -> Device)", "pid": 0, "tid": 7, "ts": 20, "dur": 3},
    {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy DtoH (Device -> Pinned)", "pid": 0, "tid": 7, "ts": 24, "dur": 3},
    {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy DtoD (Device -> Device)", "pid": 0, "tid": 7, "ts": 28, "dur": 3},
    {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy PtoP (Device -> Device)", "pid": 0, "tid": 7, "ts": 32, "dur": 3},
    {"ph": "X", "cat": "gpu_memset", "name": "Memset (Device)", "pid": 0, "tid": 7, "ts": 36, "dur": 1},
    {"ph": "X", "cat": "gpu_user_annotation", "name": "ProfilerStep#4", "pid": 0, "tid": 7, "ts": 14, "dur": 30},
    {"ph": "X", "cat": "cuda_sync", "name": "Event Sync", "pid": 0, "tid": 7, "ts": 40, "dur": 2},
    {"ph": "X", "cat": "Trace", "name": "PyTorch Profiler (0)", "pid": "Spans", "tid": "PyTorch Profiler", "ts": 0, "dur": 200}
  ]})json");
  ASSERT_TRUE(t.ok()) << t.status().message();
  EXPECT_EQ(t->info.source, model::SourceFormat::kKineto);
  EXPECT_EQ(t->info.device_type, model::DeviceType::kCuda);
  EXPECT_EQ(KindOf(*t, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__"),
            EventKind::kDataLoading);
  EXPECT_EQ(KindOf(*t, "aten::conv2d"), EventKind::kFrameworkOp);
  EXPECT_EQ(KindOf(*t, "cudaLaunchKernel"), EventKind::kRuntimeCall);
  EXPECT_EQ(KindOf(*t, "train.py(10): step"), EventKind::kPythonFunction);
  EXPECT_EQ(KindOf(*t, "volta_sgemm_128x64_nn"), EventKind::kComputeKernel);
  EXPECT_EQ(
      KindOf(*t, "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)"),
      EventKind::kCollective);
  EXPECT_EQ(KindOf(*t, "Memcpy HtoD (Pageable -> Device)"), EventKind::kMemcpyH2D);
  EXPECT_EQ(KindOf(*t, "Memcpy DtoH (Device -> Pinned)"), EventKind::kMemcpyD2H);
  EXPECT_EQ(KindOf(*t, "Memcpy DtoD (Device -> Device)"), EventKind::kMemcpyD2D);
  EXPECT_EQ(KindOf(*t, "Memcpy PtoP (Device -> Device)"), EventKind::kMemcpyP2P);
  EXPECT_EQ(KindOf(*t, "Memset (Device)"), EventKind::kMemset);
  EXPECT_EQ(KindOf(*t, "Event Sync"), EventKind::kDeviceSync);
  EXPECT_EQ(KindOf(*t, "PyTorch Profiler (0)"), EventKind::kOther);
  // Only the host-side ProfilerStep is a step; the GPU projection is not.
  ASSERT_EQ(t->steps.size(), 1u);
  EXPECT_EQ(t->steps[0].id, 4);
  int device_streams = 0;
  for (const model::Track& track : t->tracks) {
    if (track.kind == TrackKind::kDeviceStream) {
      ++device_streams;
      EXPECT_EQ(track.device_id, 0);
      EXPECT_TRUE(track.stream_id == 7 || track.stream_id == 20);
    }
  }
  EXPECT_EQ(device_streams, 2);
}

// The kinds are remembered per (name, category, host or device) in a table
// of a few thousand slots: more names than slots evict one another, and a
// name met again after its slot was taken is classified again, step id
// included. The step ids come from the loop, not from perfdx.
TEST(ChromeClassifierTest, MoreNamesThanTheKindCacheHoldsKeepTheirOwnKinds) {
  std::string json = R"({"schemaVersion": 1, "traceEvents": [)";
  constexpr int kSteps = 9000;
  for (int round = 0; round < 2; ++round) {  // every name twice, far apart
    for (int s = 0; s < kSteps; ++s) {
      const int64_t ts = (round * kSteps + s) * 100;
      const std::string step = "ProfilerStep#" + std::to_string(round * kSteps + s);
      json += (round + s == 0 ? "" : ",");
      json += R"({"ph": "X", "cat": "user_annotation", "name": ")" + step +
              R"(", "pid": 1, "tid": 1, "ts": )" + std::to_string(ts) + R"(, "dur": 90},)";
      json += R"({"ph": "X", "cat": "cpu_op", "name": "op)" + std::to_string(s) +
              R"(", "pid": 1, "tid": 1, "ts": )" + std::to_string(ts + 1) + R"(, "dur": 10},)";
      json += R"({"ph": "X", "cat": "kernel", "name": "op)" + std::to_string(s) +
              R"(", "pid": 0, "tid": 7, "ts": )" + std::to_string(ts + 2) + R"(, "dur": 5})";
    }
  }
  json += "]}";
  auto t = ImportString(json);
  ASSERT_TRUE(t.ok()) << t.status().message();
  ASSERT_EQ(t->steps.size(), size_t{2 * kSteps});
  for (size_t i = 0; i < t->steps.size(); ++i) ASSERT_EQ(t->steps[i].id, int64_t(i)) << i;
  size_t ops = 0, kernels = 0;
  for (model::SliceId i = 0; i < t->slices.size(); ++i) {
    const bool device = t->tracks[t->slices.track[i]].kind == TrackKind::kDeviceStream;
    if (t->slice_name(i).starts_with("op")) {
      EXPECT_EQ(t->slices.kind[i], device ? EventKind::kComputeKernel : EventKind::kFrameworkOp);
      ++(device ? kernels : ops);
    }
  }
  EXPECT_EQ(ops, size_t{2 * kSteps});
  EXPECT_EQ(kernels, size_t{2 * kSteps});
}

TEST(ChromeClassifierTest, LegacyProfilerWithoutCategories) {
  auto t = ImportString(R"([
    {"name": "ProfilerStep#1", "ph": "X", "ts": 268, "dur": 1041, "tid": 1, "pid": "CPU functions", "args": {}},
    {"name": "aten::linear", "ph": "X", "ts": 436, "dur": 89, "tid": 1, "pid": "CPU functions", "args": {}},
    {"name": "log_metrics", "ph": "X", "ts": 600, "dur": 50, "tid": 1, "pid": "CPU functions", "args": {}}])");
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->info.source, model::SourceFormat::kPytorchLegacy);
  EXPECT_EQ(t->info.device_type, model::DeviceType::kCpu);
  EXPECT_EQ(KindOf(*t, "aten::linear"), EventKind::kFrameworkOp);
  EXPECT_EQ(KindOf(*t, "log_metrics"), EventKind::kUserAnnotation);
  ASSERT_EQ(t->steps.size(), 1u);
}

TEST(ChromeClassifierTest, AscendTraceViewVocabulary) {
  PERFDX_REQUIRE_SHARED();
  auto t = perfdx::testing::ImportFile(
      perfdx::testing::SharedPath("traces/ascend/torch_npu_2rank_text_level1/rank0_ascend_pt/"
                                  "ASCEND_PROFILER_OUTPUT/trace_view.json"));
  ASSERT_TRUE(t.ok()) << t.status().message();
  EXPECT_EQ(t->info.source, model::SourceFormat::kAscendTraceView);
  EXPECT_EQ(t->info.device_type, model::DeviceType::kNpu);
  std::array<uint64_t, model::kEventKindCount> by_kind{};
  for (EventKind k : t->slices.kind) ++by_kind[static_cast<size_t>(k)];
  // Counted independently with Python's json module over the file's
  // "Task Type" args and HCCL thread names: AI_CORE 172 + MIX_AIV 13 +
  // DSA_SQE 2 compute tasks; 4 hcom_allReduce ops; 296 plane tasks + 72 SDMA;
  // 112 Notify Wait + 10 EVENT_WAIT; 14 PCIE_DMA + 10 SDMA_SQE copies.
  EXPECT_EQ(by_kind[static_cast<size_t>(EventKind::kComputeKernel)], 187u);
  EXPECT_EQ(by_kind[static_cast<size_t>(EventKind::kCollective)], 4u);
  EXPECT_EQ(by_kind[static_cast<size_t>(EventKind::kCollectiveTask)], 296u + 72u);  // + SDMA tasks
  EXPECT_EQ(by_kind[static_cast<size_t>(EventKind::kDeviceSync)], 112u + 10u);
  EXPECT_EQ(by_kind[static_cast<size_t>(EventKind::kMemcpyOther)], 24u);
  EXPECT_EQ(by_kind[static_cast<size_t>(EventKind::kRuntimeCall)],
            707u + 159u + 159u);  // CANN + enqueue + dequeue
  EXPECT_EQ(by_kind[static_cast<size_t>(EventKind::kStepMarker)], 1u);
  int comm_ops = 0;
  int comm_tasks = 0;
  int streams = 0;
  for (const model::Track& track : t->tracks) {
    comm_ops += track.kind == TrackKind::kCommOps;
    comm_tasks += track.kind == TrackKind::kCommTasks;
    streams += track.kind == TrackKind::kDeviceStream;
  }
  EXPECT_EQ(comm_ops, 1);    // "Group 0 Communication"
  EXPECT_EQ(comm_tasks, 8);  // "Plane 0".."Plane 7"
  EXPECT_EQ(streams, 4);     // Stream 0, 2, 3, 4
  // torch_to_npu flows link Python ops to device tasks.
  int op_to_device = 0;
  for (model::FlowKind k : t->flows.kind) op_to_device += k == model::FlowKind::kOpToDevice;
  EXPECT_EQ(op_to_device, 210);
}

// ---- The device type of a truncated trace (issue 10, item 7): what the
// trace still holds decides, not the metadata a cut may have taken with it.

// Counts the slices of each kind, to show what evidence the cut left.
uint64_t CountKind(const model::Trace& t, bool (*pred)(EventKind)) {
  uint64_t n = 0;
  for (EventKind k : t.slices.kind) n += pred(k);
  return n;
}
bool IsRuntime(EventKind k) {
  return k == EventKind::kRuntimeCall;
}

// The TensorBoard-plugin ResNet-50 trace (V100s). Kineto writes its host
// operators first (up to byte 21.3 M of 35.2 M, counted with grep on the
// decompressed file), then the runtime calls and GPU activities, then the
// "GPU N" process labels; deviceProperties lead the file.
const char* kTbpTrace =
    "traces/kineto/tbp/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz";

std::string DecompressedTbpTrace() {
  auto source = io::OpenByteSource(perfdx::testing::SharedPath(kTbpTrace));
  EXPECT_TRUE(source.ok()) << source.status().message();
  if (!source.ok()) return "";
  auto text = io::ReadAll(**source, uint64_t{1} << 30);
  EXPECT_TRUE(text.ok()) << text.status().message();
  return text.ok() ? *text : "";
}

TEST(TruncatedTraceDeviceTest, CompleteTraceIsCuda) {
  ASSERT_TRUE(perfdx::testing::HaveShared());
  auto t = perfdx::testing::ImportFile(perfdx::testing::SharedPath(kTbpTrace));
  ASSERT_TRUE(t.ok()) << t.status().message();
  EXPECT_EQ(t->info.device_type, model::DeviceType::kCuda);
  EXPECT_EQ(t->info.device_name, "Tesla V100-DGXS-32GB");
}

// The decompressed JSON cut at half its bytes: only host operators remain
// (no kernel, no runtime call), deviceProperties still list the V100s. It was
// reported "cpu on CPU" before.
TEST(TruncatedTraceDeviceTest, HalfTheJsonIsStillCuda) {
  ASSERT_TRUE(perfdx::testing::HaveShared());
  const std::string json = DecompressedTbpTrace();
  ASSERT_EQ(json.size(), 35154637u);
  auto t = ImportString(json.substr(0, json.size() / 2), true, "half.json");
  ASSERT_TRUE(t.ok()) << t.status().message();
  EXPECT_EQ(t->load_stats.Get(model::LoadStat::kTruncated), 1u);
  EXPECT_EQ(CountKind(*t, model::IsDeviceWork), 0u);
  EXPECT_EQ(CountKind(*t, IsRuntime), 0u);
  EXPECT_EQ(t->info.device_type, model::DeviceType::kCuda);
  EXPECT_EQ(t->info.device_name, "Tesla V100-DGXS-32GB");
}

// The .gz file's bytes cut at half, and the same with deviceProperties
// removed first: the kernels and cudaLaunchKernel calls before the cut say
// CUDA; without the device list the name is the generic one.
TEST(TruncatedTraceDeviceTest, HalfTheGzipIsStillCudaWithOrWithoutDeviceProperties) {
  ASSERT_TRUE(perfdx::testing::HaveShared());
  const std::string gz = perfdx::testing::ReadFileOrDie(perfdx::testing::SharedPath(kTbpTrace));
  auto cut = ImportString(gz.substr(0, gz.size() / 2), true, "half.json.gz");
  ASSERT_TRUE(cut.ok()) << cut.status().message();
  EXPECT_EQ(cut->load_stats.Get(model::LoadStat::kTruncated), 1u);
  EXPECT_GT(CountKind(*cut, model::IsDeviceWork), 0u);
  EXPECT_EQ(cut->info.device_type, model::DeviceType::kCuda);
  EXPECT_EQ(cut->info.device_name, "Tesla V100-DGXS-32GB");

  std::string json = DecompressedTbpTrace();
  const size_t props = json.find("\"deviceProperties\"");
  const size_t events = json.find("\"traceEvents\"");
  ASSERT_NE(props, std::string::npos);
  ASSERT_LT(props, events);
  json.erase(props, events - props);
  const std::string no_props = perfdx::testing::GzipCompress(json);
  auto t = ImportString(no_props.substr(0, no_props.size() * 3 / 4), true, "no_props.json.gz");
  ASSERT_TRUE(t.ok()) << t.status().message();
  EXPECT_EQ(t->load_stats.Get(model::LoadStat::kTruncated), 1u);
  EXPECT_TRUE(t->info.devices.empty());
  EXPECT_GT(CountKind(*t, model::IsDeviceWork), 0u);
  EXPECT_EQ(t->info.device_type, model::DeviceType::kCuda);
  EXPECT_EQ(t->info.device_name, "NVIDIA GPU");
}

// Cut after the launches, before any GPU activity, deviceProperties lost:
// the CUDA runtime calls alone say CUDA (HIP ones ROCm).
TEST(TruncatedTraceDeviceTest, RuntimeCallsAloneSayWhichGpu) {
  const std::string head = R"json({"schemaVersion": 1, "traceEvents": [
    {"ph": "X", "cat": "cpu_op", "name": "aten::conv2d", "pid": 10, "tid": 10, "ts": 10, "dur": 20},
    {"ph": "X", "cat": "cuda_runtime", "name": ")json";
  const std::string tail = R"json(", "pid": 10, "tid": 10, "ts": 11, "dur": 2},
    {"ph": "X", "cat": "kernel", "name": "implicit_convolve_sgemm", "pid": 0, "tid": 7, "ts": 15, "du)json";
  auto cuda = ImportString(head + "cudaLaunchKernel" + tail);
  ASSERT_TRUE(cuda.ok()) << cuda.status().message();
  EXPECT_EQ(cuda->load_stats.Get(model::LoadStat::kTruncated), 1u);
  EXPECT_EQ(CountKind(*cuda, model::IsDeviceWork), 0u);
  EXPECT_EQ(cuda->info.device_type, model::DeviceType::kCuda);
  EXPECT_EQ(cuda->info.device_name, "NVIDIA GPU");
  auto rocm = ImportString(head + "hipLaunchKernel" + tail);
  ASSERT_TRUE(rocm.ok()) << rocm.status().message();
  EXPECT_EQ(rocm->info.device_type, model::DeviceType::kRocm);
}

// What is not evidence of a GPU run: a complete trace that lists GPUs but
// holds no device work (a CPU run on a GPU machine), and a truncated CPU-only
// trace (hta's cpu_only: deviceProperties empty).
TEST(TruncatedTraceDeviceTest, CpuRunsStayCpu) {
  auto listed = ImportString(R"json({"schemaVersion": 1,
    "deviceProperties": [{"id": 0, "name": "NVIDIA H200", "computeMajor": 9, "computeMinor": 0}],
    "traceEvents": [
    {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 10, "tid": 10, "ts": 10, "dur": 20}]})json");
  ASSERT_TRUE(listed.ok()) << listed.status().message();
  EXPECT_EQ(listed->info.device_type, model::DeviceType::kCpu);

  ASSERT_TRUE(perfdx::testing::HaveShared());
  const std::string gz = perfdx::testing::ReadFileOrDie(perfdx::testing::SharedPath(
      "traces/kineto/hta/cpu_only/rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz"));
  auto cpu = ImportString(gz.substr(0, gz.size() * 3 / 4), true, "cpu_only.json.gz");
  ASSERT_TRUE(cpu.ok()) << cpu.status().message();
  EXPECT_EQ(cpu->load_stats.Get(model::LoadStat::kTruncated), 1u);
  EXPECT_GT(cpu->slices.size(), 0u);
  EXPECT_EQ(cpu->info.device_type, model::DeviceType::kCpu);
}

// The device that ran most device work names the rank, its work summed over
// all its streams: device 1's three kernels on two streams outnumber device
// 0's two on one, though no stream of device 1 has more than device 0's.
TEST(ChromeClassifierTest, TheDeviceWithMostWorkOverItsStreamsNamesTheRank) {
  auto t = ImportString(R"json({"schemaVersion": 1,
    "deviceProperties": [{"id": 0, "name": "GPU zero", "computeMajor": 8, "computeMinor": 0},
                         {"id": 1, "name": "GPU one", "computeMajor": 8, "computeMinor": 0}],
    "traceEvents": [
    {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 10, "dur": 2},
    {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 20, "dur": 2},
    {"ph": "X", "cat": "kernel", "name": "k", "pid": 1, "tid": 7, "ts": 10, "dur": 2},
    {"ph": "X", "cat": "kernel", "name": "k", "pid": 1, "tid": 7, "ts": 20, "dur": 2},
    {"ph": "X", "cat": "kernel", "name": "k", "pid": 1, "tid": 8, "ts": 30, "dur": 2}]})json");
  ASSERT_TRUE(t.ok()) << t.status().message();
  ASSERT_EQ(CountKind(*t, model::IsDeviceWork), 5u);
  EXPECT_EQ(t->info.device_type, model::DeviceType::kCuda);
  EXPECT_EQ(t->info.device_name, "GPU one");
}

}  // namespace
}  // namespace perfdx::formats
