// Hand-built traces with every expected number worked out in the comments.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "perfdx/analysis/activity.h"
#include "perfdx/analysis/gaps.h"
#include "perfdx/analysis/health.h"
#include "perfdx/analysis/memory_stats.h"
#include "perfdx/analysis/step_stats.h"
#include "test_support.h"

namespace perfdx::analysis {
namespace {

using perfdx::testing::ImportString;

// One 1000 us step on a GPU trace:
//   host:  DataLoader 0..200, aten::mm 200..300 (launch 210..220 -> kernel),
//          aten::item 600..700 (sync), nothing traced 700..900
//   device: kernel 250..500, H2D pageable copy 500..550, NCCL 520..800
model::Trace GpuStep() {
  auto t = ImportString(R"json({"schemaVersion": 1, "traceEvents": [
    {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 0, "dur": 1000},
    {"ph": "X", "cat": "user_annotation", "name": "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", "pid": 1, "tid": 1, "ts": 0, "dur": 200},
    {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 200, "dur": 100},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 210, "dur": 10, "args": {"correlation": 5}},
    {"ph": "X", "cat": "cpu_op", "name": "aten::item", "pid": 1, "tid": 1, "ts": 600, "dur": 100},
    {"ph": "X", "cat": "kernel", "name": "volta_sgemm_128x64_nn", "pid": 0, "tid": 7, "ts": 250, "dur": 250, "args": {"correlation": 5}},
    {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pageable -> Device)", "pid": 0, "tid": 7, "ts": 500, "dur": 50},
    {"ph": "X", "cat": "kernel", "name": "ncclKernel_AllReduce_RING_LL_Sum_float", "pid": 0, "tid": 20, "ts": 520, "dur": 280}
  ]})json");
  EXPECT_TRUE(t.ok()) << t.status().message();
  return std::move(*t);
}

StepTimeline OneStep(int64_t start_ns, int64_t end_ns) {
  StepTimeline timeline;
  timeline.source = StepSource::kProfilerStep;
  StepWindow w;
  w.id = 1;
  w.start_ns = w.host_start_ns = start_ns;
  w.end_ns = w.host_end_ns = end_ns;
  timeline.steps.push_back(w);
  return timeline;
}

TEST(HealthTest, SharesOfOneGpuStep) {
  const model::Trace t = GpuStep();
  const Activity a = BuildActivity(t);
  EXPECT_FALSE(a.cpu_only);
  const HealthMetrics h = ComputeHealth(a, IntervalSet::Single(0, 1'000'000), 0.7, 1.0);
  // busy = kernel 250..500 ∪ copy 500..550 ∪ nccl 520..800 = 250..800 = 550 us
  EXPECT_DOUBLE_EQ(h.device_utilization, 0.55);
  EXPECT_DOUBLE_EQ(h.idle_share, 0.45);
  EXPECT_DOUBLE_EQ(h.memcpy_share, 0.05);
  EXPECT_DOUBLE_EQ(h.h2d_pageable_share, 0.05);
  EXPECT_DOUBLE_EQ(h.h2d_pinned_share, 0.0);
  EXPECT_DOUBLE_EQ(h.comm_share, 0.28);
  // exposed comm = 520..800 minus compute 250..500 = 280 us
  EXPECT_DOUBLE_EQ(h.comm_not_overlapped_share, 0.28);
  // stall: data loader 0..200, device idle then -> 200 us
  EXPECT_DOUBLE_EQ(h.dataloader_stall_share, 0.20);
  // overhead: (ops 200..300, 600..700 ∪ runtime 210..220) - busy 250..800 - loader
  //   = 200..250 + 0 (600..700 is inside busy) = 50 us
  EXPECT_DOUBLE_EQ(h.framework_overhead_share, 0.05);
  EXPECT_DOUBLE_EQ(h.top1_op_share, 0.7);
}

TEST(GapsTest, GapsAreFoundAndAttributed) {
  const model::Trace t = GpuStep();
  const Activity a = BuildActivity(t);
  const GapAnalysis g = FindGaps(t, a, OneStep(0, 1'000'000), 100'000);
  // Idle: 0..250 (250 us) and 800..1000 (200 us).
  ASSERT_EQ(g.gaps.size(), 2u);
  EXPECT_EQ(g.gaps[0].start_ns, 0);
  EXPECT_EQ(g.gaps[0].dur_ns, 250'000);
  EXPECT_EQ(g.gaps[0].position, "start");
  // 0..250: data loader covers 200/250 = 0.8 >= 0.5.
  EXPECT_EQ(g.gaps[0].cause.kind, "data_loader");
  EXPECT_DOUBLE_EQ(g.gaps[0].cause.coverage, 0.8);
  // 800..1000: no traced host slice at all -> untraced.
  EXPECT_EQ(g.gaps[1].cause.kind, "untraced");
  EXPECT_EQ(g.gaps[1].position, "end");
  EXPECT_EQ(g.total_ns, 450'000);
  EXPECT_TRUE(g.recurring.empty()) << "one step cannot make a recurring group";
}

// Gaps too short to list are measured as time by what the host was doing.
// One 1000 us step; kernels 0..100, 150..300, 340..500, 530..600, 650..1000
// leave four idle gaps under 100 us:
//   100..150 (50): host in aten::add 90..140 -> 40 us dispatch
//   300..340 (40): host in aten::item 290..345 (a sync) -> none
//   500..530 (30): host in Optimizer.step 480..560, aten::mul 505..515 inside
//                  it -> 30 us optimizer (its ops are the optimizer's too)
//   600..650 (50): nothing traced -> none
// dispatch 40, optimizer 30; mostly dispatch or optimizer: 100..150, 500..530.
TEST(GapsTest, ShortGapsAreMeasuredByWhatTheHostDid) {
  auto t = ImportString(R"json({"schemaVersion": 1, "traceEvents": [
    {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 0, "dur": 1000},
    {"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 1, "tid": 1, "ts": 90, "dur": 50},
    {"ph": "X", "cat": "cpu_op", "name": "aten::item", "pid": 1, "tid": 1, "ts": 290, "dur": 55},
    {"ph": "X", "cat": "user_annotation", "name": "Optimizer.step#AdamW.step", "pid": 1, "tid": 1, "ts": 480, "dur": 80},
    {"ph": "X", "cat": "cpu_op", "name": "aten::mul", "pid": 1, "tid": 1, "ts": 505, "dur": 10},
    {"ph": "X", "cat": "kernel", "name": "k0", "pid": 0, "tid": 7, "ts": 0, "dur": 100},
    {"ph": "X", "cat": "kernel", "name": "k1", "pid": 0, "tid": 7, "ts": 150, "dur": 150},
    {"ph": "X", "cat": "kernel", "name": "k2", "pid": 0, "tid": 7, "ts": 340, "dur": 160},
    {"ph": "X", "cat": "kernel", "name": "k3", "pid": 0, "tid": 7, "ts": 530, "dur": 70},
    {"ph": "X", "cat": "kernel", "name": "k4", "pid": 0, "tid": 7, "ts": 650, "dur": 350}
  ]})json");
  ASSERT_TRUE(t.ok()) << t.status().message();
  const Activity a = BuildActivity(*t);
  const GapAnalysis g = FindGaps(*t, a, OneStep(0, 1'000'000), 100'000);
  EXPECT_TRUE(g.gaps.empty());
  EXPECT_EQ(g.short_gaps.count, 4u);
  EXPECT_EQ(g.short_gaps.total_ns, 170'000);
  EXPECT_EQ(g.short_gaps.dispatch_ns, 40'000);
  EXPECT_EQ(g.short_gaps.optimizer_ns, 30'000);
  EXPECT_EQ(g.short_gaps.dispatch_count, 2u);
  // With a 40 us floor the three gaps of 40 us or more are listed instead.
  const GapAnalysis listed = FindGaps(*t, a, OneStep(0, 1'000'000), 40'000);
  EXPECT_EQ(listed.gaps.size(), 3u);
  EXPECT_EQ(listed.short_gaps.count, 1u);
  EXPECT_EQ(listed.short_gaps.optimizer_ns, 30'000);
}

TEST(GapsTest, SynchronizationAndRecurringGroups) {
  // Three 1000 us steps; in each the device runs 0..600 then the host sits
  // in aten::item for 650..950 (a blocking .item() after every step).
  std::string json = R"({"schemaVersion": 1, "traceEvents": [)";
  for (int k = 0; k < 3; ++k) {
    const int base = k * 1000;
    json += fmt::format(
        R"({{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#{}", "pid": 1, "tid": 1, "ts": {}, "dur": 1000}},
      {{"ph": "X", "cat": "cpu_op", "name": "aten::item", "pid": 1, "tid": 1, "ts": {}, "dur": 300}},
      {{"ph": "X", "cat": "cpu_op", "name": "aten::_local_scalar_dense", "pid": 1, "tid": 1, "ts": {}, "dur": 290}},
      {{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": {}, "dur": 600}},)",
        k, base, base + 650, base + 655, base);
  }
  json.pop_back();
  json += "]}";
  auto t = ImportString(json);
  ASSERT_TRUE(t.ok());
  const Activity a = BuildActivity(*t);
  StepTimeline timeline;
  for (int k = 0; k < 3; ++k) {
    StepWindow w;
    w.id = k;
    w.start_ns = k * 1'000'000;
    w.end_ns = w.start_ns + 1'000'000;
    timeline.steps.push_back(w);
  }
  const GapAnalysis g = FindGaps(*t, a, timeline, 100'000);
  ASSERT_EQ(g.gaps.size(), 3u);  // 600..1000 in each step
  for (const Gap& gap : g.gaps) {
    EXPECT_EQ(gap.dur_ns, 400'000);
    // sync covers 650..950 = 300/400 = 0.75.
    EXPECT_EQ(gap.cause.kind, "synchronization");
    EXPECT_EQ(gap.cause.name, "aten::_local_scalar_dense");  // the innermost sync call
    EXPECT_DOUBLE_EQ(gap.cause.coverage, 0.75);
    EXPECT_EQ(gap.position, "end");
  }
  ASSERT_EQ(g.recurring.size(), 1u);
  EXPECT_EQ(g.recurring[0].steps, 3u);
  EXPECT_EQ(g.recurring[0].ns_per_step, 400'000);
  EXPECT_DOUBLE_EQ(g.recurring[0].share_of_step_time, 0.4);
}

// One 2000 us step, kernels at 0..100, 600..700, 1200..1300, 1800..2000, so
// three 500 us gaps, each with runtime calls on the host:
//   A 100..600:   aten::add holding a 400 us cudaLaunchKernel; the trace's
//                 other 4 launches take 4 us (median 4 us: 400 >= 20 x 4):
//                 stalled, 400/500 = 0.8 of the gap, before the op's 1.0.
//   B 700..1200:  10 cudaEventRecord of 30 us (none stalls: their median is
//                 30 us): 300/500 = 0.6 of the gap in 10 short calls, launch
//                 overhead.
//   C 1300..1800: a 300 us cudaMalloc (the other 4 take 5 us), then 4 short
//                 cudaMalloc and 5 cudaEventRecord: 10 calls over the whole
//                 gap, but 300/500 = 0.6 of it in the stalled one, so a stall
//                 and not many short calls.
TEST(GapsTest, StalledRuntimeCallsAreTheirOwnCause) {
  std::string json = R"({"schemaVersion": 1, "traceEvents": [)";
  auto call = [&](const char* name, int ts, int dur) {
    json += fmt::format(
        R"({{"ph": "X", "cat": "cuda_runtime", "name": "{}", "pid": 1, "tid": 1, "ts": {}, "dur": {}}},)",
        name, ts, dur);
  };
  json +=
      R"({"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 0, "dur": 2000},
    {"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 1, "tid": 1, "ts": 100, "dur": 500},
    {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 0, "dur": 100},
    {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 600, "dur": 100},
    {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 1200, "dur": 100},
    {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 1800, "dur": 200},)";
  call("cudaLaunchKernel", 110, 400);
  for (int ts : {20, 40, 620, 640}) call("cudaLaunchKernel", ts, 4);
  for (int j = 0; j < 10; ++j) call("cudaEventRecord", 700 + 50 * j, 30);
  call("cudaMalloc", 1310, 300);
  for (int j = 0; j < 4; ++j) call("cudaMalloc", 1615 + 10 * j, 5);
  for (int j = 0; j < 5; ++j) call("cudaEventRecord", 1650 + 30 * j, 30);
  json.pop_back();
  json += "]}";
  auto t = ImportString(json);
  ASSERT_TRUE(t.ok()) << t.status().message();
  const Activity a = BuildActivity(*t);
  const GapAnalysis g = FindGaps(*t, a, OneStep(0, 2'000'000), 100'000);
  ASSERT_EQ(g.gaps.size(), 3u);

  const Gap& launch = g.gaps[0];
  EXPECT_EQ(launch.start_ns, 100'000);
  EXPECT_EQ(launch.cause.kind, "stalled_call");
  EXPECT_EQ(launch.cause.name, "cudaLaunchKernel");
  EXPECT_DOUBLE_EQ(launch.cause.coverage, 0.8);
  EXPECT_EQ(launch.stalled_call, "cudaLaunchKernel");
  EXPECT_EQ(launch.stalled_call_ns, 400'000);
  EXPECT_EQ(launch.stalled_call_median_ns, 4'000);
  EXPECT_EQ(launch.stalled_ns, 400'000);

  const Gap& dispatch = g.gaps[1];
  EXPECT_EQ(dispatch.cause.kind, "launch_overhead");
  EXPECT_DOUBLE_EQ(dispatch.cause.coverage, 0.6);
  EXPECT_EQ(dispatch.stalled_call, "");
  EXPECT_EQ(dispatch.stalled_ns, 0);

  const Gap& malloc = g.gaps[2];
  EXPECT_EQ(malloc.cause.kind, "stalled_call");
  EXPECT_EQ(malloc.cause.name, "cudaMalloc");
  EXPECT_DOUBLE_EQ(malloc.cause.coverage, 0.6);
  EXPECT_EQ(malloc.stalled_call_median_ns, 5'000);

  // Only a stalled launch is evidence of the host held up.
  EXPECT_EQ(g.stalled_launch_steps, std::vector<int64_t>{1});
}

// One 500 us gap (kernels end at 100 and start at 600) through which three
// threads each sit in a stalled cudaMalloc (the trace's four others take
// 1 us): the stalled time is the gap's once, not three times.
TEST(GapsTest, StalledCallsOnSeveralThreadsCountTheGapOnce) {
  std::string json = R"({"schemaVersion": 1, "traceEvents": [
    {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 0, "dur": 100},
    {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 600, "dur": 100},)";
  for (int tid = 1; tid <= 3; ++tid) {
    json += fmt::format(
        R"({{"ph": "X", "cat": "cuda_runtime", "name": "cudaMalloc", "pid": 1, "tid": {}, "ts": 100, "dur": 500}},)",
        tid);
  }
  for (int ts : {10, 20, 610, 620}) {
    json += fmt::format(
        R"({{"ph": "X", "cat": "cuda_runtime", "name": "cudaMalloc", "pid": 1, "tid": 9, "ts": {}, "dur": 1}},)",
        ts);
  }
  json.pop_back();
  json += "]}";
  auto t = ImportString(json);
  ASSERT_TRUE(t.ok()) << t.status().message();
  const Activity a = BuildActivity(*t);
  const GapAnalysis g = FindGaps(*t, a, OneStep(0, 700'000), 100'000);
  ASSERT_EQ(g.gaps.size(), 1u);
  const Gap& gap = g.gaps[0];
  EXPECT_EQ(gap.dur_ns, 500'000);
  EXPECT_EQ(gap.cause.kind, "stalled_call");
  EXPECT_EQ(gap.stalled_ns, 500'000);
  EXPECT_DOUBLE_EQ(gap.cause.coverage, 1.0);
  EXPECT_EQ(gap.stalled_call_median_ns, 1'000);
}

TEST(ActivityTest, CpuOnlyTraceUsesOpsOutsideDataLoadingAsCompute) {
  // Legacy-format CPU trace: a 100 us step with a data loader 0..30 whose
  // own ops (aten::stack 5..25) must not count as compute, then aten::mm
  // 30..60, then 40 us inside "log_metrics" with no op.
  auto t = ImportString(R"([
    {"name": "ProfilerStep#1", "ph": "X", "ts": 0, "dur": 100, "tid": 1, "pid": "CPU functions"},
    {"name": "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", "ph": "X", "ts": 0, "dur": 30, "tid": 1, "pid": "CPU functions"},
    {"name": "aten::stack", "ph": "X", "ts": 5, "dur": 20, "tid": 1, "pid": "CPU functions"},
    {"name": "aten::mm", "ph": "X", "ts": 30, "dur": 30, "tid": 1, "pid": "CPU functions"},
    {"name": "log_metrics", "ph": "X", "ts": 60, "dur": 40, "tid": 1, "pid": "CPU functions"}])");
  ASSERT_TRUE(t.ok());
  const Activity a = BuildActivity(*t);
  EXPECT_TRUE(a.cpu_only);
  EXPECT_EQ(a.compute_timeline.intervals(), (std::vector<Interval>{{30'000, 60'000}}));
  const HealthMetrics h = ComputeHealth(a, IntervalSet::Single(0, 100'000), 0, 0);
  EXPECT_DOUBLE_EQ(h.device_utilization, 0.3);
  EXPECT_DOUBLE_EQ(h.dataloader_stall_share, 0.3);
  EXPECT_DOUBLE_EQ(h.framework_overhead_share, 0.0);
  const GapAnalysis g = FindGaps(*t, a, OneStep(0, 100'000), 10'000);
  ASSERT_EQ(g.gaps.size(), 2u);
  EXPECT_EQ(g.gaps[0].cause.kind, "data_loader");
  EXPECT_EQ(g.gaps[1].cause.kind, "user_annotation");
  EXPECT_EQ(g.gaps[1].cause.name, "log_metrics");
}

TEST(MemoryTest, PeaksFragmentationAndPerStepCounts) {
  auto t = ImportString(
      R"({"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "GPU", "totalGlobalMem": 1000000}],
    "traceEvents": [
    {"ph": "i", "name": "[memory]", "pid": 1, "tid": 1, "ts": 10, "s": "t", "args": {"Bytes": 400, "Total Allocated": 400, "Total Reserved": 1000, "Device Id": 0, "Device Type": 1}},
    {"ph": "i", "name": "[memory]", "pid": 1, "tid": 1, "ts": 20, "s": "t", "args": {"Bytes": 300, "Total Allocated": 700, "Total Reserved": 1000, "Device Id": 0, "Device Type": 1}},
    {"ph": "i", "name": "[memory]", "pid": 1, "tid": 1, "ts": 30, "s": "t", "args": {"Bytes": 600, "Total Allocated": 1300, "Total Reserved": 2000, "Device Id": 0, "Device Type": 1}},
    {"ph": "i", "name": "[memory]", "pid": 1, "tid": 1, "ts": 40, "s": "t", "args": {"Bytes": -600, "Total Allocated": 700, "Total Reserved": 2000, "Device Id": 0, "Device Type": 1}},
    {"ph": "i", "name": "[memory]", "pid": 1, "tid": 1, "ts": 50, "s": "t", "args": {"Bytes": 64, "Device Id": -1, "Device Type": 0}},
    {"ph": "i", "name": "[memory]", "pid": 1, "tid": 1, "ts": 60, "s": "t", "args": {"Bytes": -16, "Device Id": -1, "Device Type": 0}}
  ]})");
  ASSERT_TRUE(t.ok());
  const MemorySummary m = SummarizeMemory(*t, OneStep(0, 100'000));
  ASSERT_EQ(m.devices.size(), 2u);
  const DeviceMemory& gpu = m.devices[0];
  EXPECT_EQ(gpu.device_id, 0);
  EXPECT_EQ(gpu.peak_allocated_bytes, 1300);
  EXPECT_EQ(gpu.peak_reserved_bytes, 2000);
  EXPECT_DOUBLE_EQ(*gpu.fragmentation_at_peak, 1.0 - 1300.0 / 2000.0);  // at the allocated peak
  EXPECT_EQ(gpu.allocations, 3u);
  EXPECT_EQ(gpu.frees, 1u);
  EXPECT_EQ(*gpu.capacity_bytes, 1000000);
  EXPECT_FALSE(gpu.relative);
  const DeviceMemory& host = m.devices[1];
  EXPECT_EQ(host.device_id, -1);
  EXPECT_TRUE(host.relative);  // no totals recorded: rebuilt from sizes
  EXPECT_EQ(host.peak_allocated_bytes, 64);
}

TEST(MemoryTest, FragmentationIsReadAtTheAllocatedPeakNotTheCachedReserve) {
  // Regression (torch 2.11 ResNet-50 trace): the allocator's reserve of
  // 2000 B is cached from before profiling, so reserved "peaks" at the first
  // record, where only 400 B are allocated (80%). At the allocated peak,
  // 1800 of 2000 B are in use: 1 - 1800/2000 = 10%.
  auto t = ImportString(R"({"schemaVersion": 1, "traceEvents": [
    {"ph": "i", "name": "[memory]", "pid": 1, "tid": 1, "ts": 10, "s": "t", "args": {"Bytes": 100, "Total Allocated": 400, "Total Reserved": 2000, "Device Id": 0, "Device Type": 1}},
    {"ph": "i", "name": "[memory]", "pid": 1, "tid": 1, "ts": 20, "s": "t", "args": {"Bytes": 1400, "Total Allocated": 1800, "Total Reserved": 2000, "Device Id": 0, "Device Type": 1}},
    {"ph": "i", "name": "[memory]", "pid": 1, "tid": 1, "ts": 30, "s": "t", "args": {"Bytes": -1400, "Total Allocated": 400, "Total Reserved": 2000, "Device Id": 0, "Device Type": 1}}
  ]})");
  ASSERT_TRUE(t.ok());
  const MemorySummary m = SummarizeMemory(*t, OneStep(0, 100'000));
  ASSERT_EQ(m.devices.size(), 1u);
  EXPECT_EQ(m.devices[0].peak_allocated_bytes, 1800);
  EXPECT_EQ(m.devices[0].peak_reserved_bytes, 2000);
  EXPECT_DOUBLE_EQ(*m.devices[0].fragmentation_at_peak, 1.0 - 1800.0 / 2000.0);
}

TEST(StepStatsTest, MeanMedianP90CvAndOutliers) {
  StepTimeline timeline;
  const int64_t durations[] = {100, 102, 98, 101, 99, 100, 180};
  int64_t t = 0;
  for (size_t k = 0; k < std::size(durations); ++k) {
    StepWindow w;
    w.id = static_cast<int64_t>(k);
    w.start_ns = t;
    w.end_ns = t + durations[k];
    t = w.end_ns;
    timeline.steps.push_back(w);
  }
  const StepTimeStats s = ComputeStepTimeStats(timeline);
  EXPECT_EQ(s.count, 7u);
  EXPECT_EQ(s.mean_ns, 111);  // 780 / 7 = 111.43
  EXPECT_EQ(s.median_ns, 100);
  EXPECT_EQ(s.p90_ns, 180);  // nearest rank: ceil(0.9 * 7) = 7th of sorted
  EXPECT_EQ(s.min_ns, 98);
  EXPECT_EQ(s.max_ns, 180);
  // Python: statistics.pstdev(d) / mean(d) = 28.0197 / 111.4286 = 0.251459
  EXPECT_NEAR(s.cv, 0.251459, 1e-6);
  // MAD = 1 -> limit = max(100 + 4.45, 110) = 110: only 180 is an outlier.
  EXPECT_EQ(s.outlier_steps, (std::vector<int64_t>{6}));
}

}  // namespace
}  // namespace perfdx::analysis
