// The what-if replay (analysis/replay.h): hand-made traces whose replay is
// worked out by hand, and the shared traces, whose step windows the graph
// must rebuild exactly as steps.h does before any replay is trusted.
#include "perfdx/analysis/replay.h"

#include <cmath>
#include <string>
#include <string_view>
#include <utility>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "perfdx/analysis/rank_analysis.h"
#include "perfdx/analysis/replay_graph.h"
#include "test_support.h"

namespace perfdx::analysis {
namespace {

using perfdx::testing::ImportFile;
using perfdx::testing::ImportString;

// With `fix`, each of the rank's 3 steps replays to `ns`.
void ExpectEachStepReplaysTo(const RankAnalysis& a, const WhatIf& fix, int64_t ns) {
  const ReplayRun fixed = Replay(a.replay_graph, a.timeline.steps, fix);
  ASSERT_EQ(fixed.steps.size(), 3u);
  for (const ReplayedStep& s : fixed.steps) EXPECT_EQ(s.replayed_ns, ns) << s.id;
}

// tests/data/golden/small_cuda_trace.json, in µs (its test has the layout):
// step k is [t0, t0+D) with D = 10, 10, 22 ms and w = t0 + D - 6000; the
// DataLoader runs [t0, w-100), a pageable copy is launched at w-50 and runs
// [w, w+500), then three kernels launched at w+420, w+520, w+620 run back to
// back until t0 + D. By hand:
//   launch latency: the copy starts 50 µs after its launch on an idle stream
//     (3 samples, all 50); the kernels queue behind it with no gap (9
//     samples, all 0); there is no sync. So the replay reproduces every step
//     exactly.
//   Without the DataLoader, each step is its copy-and-compute alone: the
//     copy is launched 50 µs into the step and starts 50 µs later (100 µs),
//     then 500 + 3000 + 1500 + 1000 µs of device work: 6.1 ms per step. The
//     mean step goes from (10 + 10 + 22) / 3 = 14 ms to 6.1 ms: 7.9 ms saved,
//     the data_loader_stall upper bound (nothing else fills the time).
TEST(ReplayTest, SmallCudaTraceByHand) {
  auto trace = ImportFile("tests/data/golden/small_cuda_trace.json");
  ASSERT_TRUE(trace.ok()) << trace.status().message();
  const RankAnalysis a = AnalyzeRank(*trace, {});
  const ReplayGraph& g = a.replay_graph;
  ASSERT_TRUE(g.built);
  EXPECT_EQ(g.device.size(), 12u);
  EXPECT_EQ(g.params.launch_latency_ns, 50'000);
  EXPECT_EQ(g.params.launch_samples, 3u);
  EXPECT_EQ(g.params.queue_gap_ns, 0);
  EXPECT_EQ(g.params.queue_samples, 9u);
  EXPECT_EQ(g.params.sync_samples, 0u);
  EXPECT_EQ(g.inferred_waits, 0u);

  ASSERT_TRUE(a.replay.available) << a.replay.why_not;
  ASSERT_EQ(a.replay.run.steps.size(), 3u);
  const int64_t measured[] = {10'000'000, 10'000'000, 22'000'000};
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(a.replay.run.steps[i].measured_ns, measured[i]);
    EXPECT_EQ(a.replay.run.steps[i].replayed_ns, measured[i]);
  }
  EXPECT_EQ(a.replay.median_abs_error, 0);

  WhatIf fix;
  fix.remove_data_loading = true;
  ExpectEachStepReplaysTo(a, fix, 6'100'000);
  const Prediction p = Predict(g, a.timeline.steps, a.replay, fix);
  ASSERT_TRUE(p.available);
  EXPECT_EQ(p.gain_ns_per_step, 7'900'000);
  EXPECT_EQ(p.predicted_step_ns, 6'100'000);
  EXPECT_FALSE(p.within_model_error);
  EXPECT_EQ(p.what_if, "remove data-loading");

  // Twice as fast FP32 matrix work: the sgemm (3000 µs, volta_sgemm: FP32
  // on the CUDA cores) takes 1500 µs, and the device finishes 1.5 ms
  // earlier, but nothing on the host waits for it (no sync): the host's own
  // marker still ends at t0 + D, so the steps do not shorten. An upper bound
  // on the device timeline would claim 1.5 ms here.
  WhatIf sgemm;
  sgemm.fp32_matrix_speedup = 2;
  const Prediction q = Predict(g, a.timeline.steps, a.replay, sgemm);
  ASSERT_TRUE(q.available);
  EXPECT_EQ(q.gain_ns_per_step, 0);
  // With the DataLoader gone as well it is the same: the host's marker runs
  // 6.1 ms past the DataLoader (untraced host time is host time), and the
  // device, now done 4.6 ms in, still ends inside it.
  fix.fp32_matrix_speedup = 2;
  EXPECT_EQ(Predict(g, a.timeline.steps, a.replay, fix).predicted_step_ns, 6'100'000);
}

// The step captured as one graph, on the same trace by hand: each step's
// dispatch runs from its first launch (cudaMemcpyAsync at t0 + 3950 µs) to
// the end of its last (cudaLaunchKernel at t0 + 4620, 20 µs): 690 µs that
// take none. The copy still starts 50 µs after the (collapsed) launch, so
// step 0's device work ends when it did (t0 + D): step 0 stays 10 ms. Its
// host, though, reaches the next marker 690 µs earlier, and step 1's
// DataLoader and dispatch start that much sooner: its copy starts at
// 13900 - 690 + 50 and every later step is 690 µs shorter: 9.31 and 21.31
// ms. The mean goes from 14 ms to 13.54 ms: 460 µs saved per step, the host
// running ahead of the device, which a captured graph allows.
TEST(ReplayTest, LaunchOverheadRemovedByHand) {
  auto trace = ImportFile("tests/data/golden/small_cuda_trace.json");
  ASSERT_TRUE(trace.ok()) << trace.status().message();
  const RankAnalysis a = AnalyzeRank(*trace, {});
  WhatIf fix;
  fix.remove_launch_overhead = true;
  EXPECT_FALSE(fix.identity());
  const ReplayRun fixed = Replay(a.replay_graph, a.timeline.steps, fix);
  ASSERT_EQ(fixed.steps.size(), 3u);
  EXPECT_EQ(fixed.steps[0].replayed_ns, 10'000'000);
  EXPECT_EQ(fixed.steps[1].replayed_ns, 9'310'000);
  EXPECT_EQ(fixed.steps[2].replayed_ns, 21'310'000);
  const Prediction p = Predict(a.replay_graph, a.timeline.steps, a.replay, fix);
  ASSERT_TRUE(p.available);
  EXPECT_EQ(p.gain_ns_per_step, 460'000);
  EXPECT_EQ(p.what_if, "remove launch-overhead");
  // With the DataLoader gone too, only the 50 µs of host before each
  // copy's launch is left: step 0 is 50 µs of host, the collapsed launch's
  // 50 µs latency, then 500 + 5500 µs of device work (6.1 ms); later steps
  // queue behind the previous step's device work, their host ahead of it:
  // 6.0 ms, the device's own time.
  fix.remove_data_loading = true;
  const ReplayRun both = Replay(a.replay_graph, a.timeline.steps, fix);
  ASSERT_EQ(both.steps.size(), 3u);
  EXPECT_EQ(both.steps[0].replayed_ns, 6'100'000);
  EXPECT_EQ(both.steps[1].replayed_ns, 6'000'000);
  EXPECT_EQ(both.steps[2].replayed_ns, 6'000'000);
}

// Kineto events of the hand-made traces below, in µs: a step marker, a host
// call (with the correlation of what it launches, 0: none), a device op on
// stream 7 and the flow that links a launch to it.
std::string Marker(int step, int ts, int dur) {
  return fmt::format(
      R"({{"ph":"X","name":"ProfilerStep#{}","cat":"user_annotation","ts":{},"dur":{},"pid":1,"tid":1}},)",
      step, ts, dur);
}

std::string HostCall(std::string_view name, int ts, int dur, int corr) {
  const std::string args = corr ? fmt::format(R"(,"args":{{"correlation":{}}})", corr) : "";
  return fmt::format(
      R"({{"ph":"X","name":"{}","cat":"cuda_runtime","ts":{},"dur":{},"pid":1,"tid":1{}}},)", name,
      ts, dur, args);
}

std::string DeviceOp(std::string_view name, std::string_view cat, int ts, int dur, int corr,
                     int launch_ts, int stream = 7) {
  return fmt::format(
             R"({{"ph":"X","name":"{}","cat":"{}","ts":{},"dur":{},"pid":0,"tid":{},"args":{{"correlation":{},"stream":{},"device":0}}}},)",
             name, cat, ts, dur, stream, corr, stream) +
         fmt::format(
             R"({{"ph":"s","name":"ac2g","cat":"ac2g","id":{},"ts":{},"pid":1,"tid":1}},{{"ph":"f","bp":"e","name":"ac2g","cat":"ac2g","id":{},"ts":{},"pid":0,"tid":{}}},)",
             corr, launch_ts, corr, ts, stream);
}

std::string V100Trace(std::string events) {
  events.pop_back();
  return R"({"traceEvents":[)" + events + R"(],"deviceProperties":[{"id":0,"name":"Tesla V100"}]})";
}

// A sync the host waits in: the host launches a 5 ms kernel, then blocks in
// cudaStreamSynchronize until it ends (+20 µs), then runs 1 ms of its own
// work; 3 steps. Halving the kernel shortens each step by 2.5 ms, because
// the host waits for it; the host's 1 ms stays.
std::string SyncTrace() {
  std::string events;
  for (int k = 0; k < 3; ++k) {
    const int t0 = k * 10'000;
    const int launch = t0 + 100, kstart = t0 + 110, kend = kstart + 5000;
    const int sync_end = kend + 20;
    const int step_end = sync_end + 1000;
    events += Marker(k, t0, step_end - t0);
    events += HostCall("cudaLaunchKernel", launch, 5, k + 1);
    events += DeviceOp("volta_sgemm_128x64_nn", "kernel", kstart, 5000, k + 1, launch);
    events += HostCall("cudaStreamSynchronize", launch + 10, sync_end - launch - 10, 0);
  }
  return V100Trace(std::move(events));
}

TEST(ReplayTest, TheHostWaitsForTheDeviceThroughASync) {
  auto trace = ImportString(SyncTrace());
  ASSERT_TRUE(trace.ok()) << trace.status().message();
  const RankAnalysis a = AnalyzeRank(*trace, {});
  const ReplayGraph& g = a.replay_graph;
  ASSERT_TRUE(g.built);
  EXPECT_EQ(g.params.sync_samples, 3u);
  EXPECT_EQ(g.params.sync_return_ns, 20'000);
  EXPECT_EQ(g.params.launch_latency_ns, 10'000);
  ASSERT_TRUE(a.replay.available) << a.replay.why_not;
  // Steps 0 and 1 (step 2 is the trace's last, cut by nothing: kept).
  for (const ReplayedStep& s : a.replay.run.steps) EXPECT_EQ(s.replayed_ns, s.measured_ns);

  WhatIf half;
  half.fp32_matrix_speedup = 2;
  const Prediction p = Predict(g, a.timeline.steps, a.replay, half);
  ASSERT_TRUE(p.available);
  EXPECT_EQ(p.gain_ns_per_step, 2'500'000);

  // Removing data loading changes nothing here: there is none.
  WhatIf none;
  none.remove_data_loading = true;
  EXPECT_EQ(Predict(g, a.timeline.steps, a.replay, none).gain_ns_per_step, 0);

  // Captured, each step's dispatch is its one 5 µs launch call (the sync
  // that follows stays: no graph holds a sync). The kernel still starts 10
  // µs after the launch began, and the host, 5 µs earlier into its sync,
  // waits those 5 µs longer: a step the device holds gains nothing.
  WhatIf captured;
  captured.remove_launch_overhead = true;
  EXPECT_EQ(Predict(g, a.timeline.steps, a.replay, captured).gain_ns_per_step, 0);
}

std::string CpuOp(std::string_view name, int ts, int dur) {
  return fmt::format(R"({{"ph":"X","name":"{}","cat":"cpu_op","ts":{},"dur":{},"pid":1,"tid":1}},)",
                     name, ts, dur);
}

// Untraced host time between two launches is not dispatch. Each 10 ms step
// (t0 = 10 ms k): aten::linear [t0+100, t0+400) launches a 1 ms kernel at
// t0+200 (it runs [t0+250, t0+1250)); then 4 ms of host time no slice
// covers (the trace cannot say what it was); then aten::relu [t0+4400,
// t0+4700) launches a 1 ms kernel at t0+4500. The marker holds the step.
// The step's dispatch region is [t0+200, t0+4520), the end of its last
// launch call; inside it the host is inside an operator or a launch for
// [t0+200, t0+400) and [t0+4400, t0+4520): 320 µs, all a captured graph is
// shown to remove. Each step then ends 320 µs sooner (its marker's end
// moves with the host): 320 µs a step. The region whole (the model before
// 2026-12-07) took the untraced 4 ms too: 4,320 µs, a gain for work the
// trace does not show to be dispatch.
std::string UntracedHostTrace() {
  std::string events;
  for (int k = 0; k < 3; ++k) {
    const int t0 = k * 10'000;
    events += Marker(k, t0, 10'000);
    events += CpuOp("aten::linear", t0 + 100, 300);
    events += HostCall("cudaLaunchKernel", t0 + 200, 20, 2 * k + 1);
    events += DeviceOp("volta_sgemm_128x64_nn", "kernel", t0 + 250, 1000, 2 * k + 1, t0 + 200);
    events += CpuOp("aten::relu", t0 + 4400, 300);
    events += HostCall("cudaLaunchKernel", t0 + 4500, 20, 2 * k + 2);
    events += DeviceOp("void at::native::vectorized_elementwise_kernel<4>", "kernel", t0 + 4550,
                       1000, 2 * k + 2, t0 + 4500);
  }
  return V100Trace(std::move(events));
}

TEST(ReplayTest, ACapturedStepKeepsTheUntracedHostTime) {
  auto trace = ImportString(UntracedHostTrace());
  ASSERT_TRUE(trace.ok()) << trace.status().message();
  const RankAnalysis a = AnalyzeRank(*trace, {});
  ASSERT_TRUE(a.replay.available) << a.replay.why_not;
  for (const ReplayedStep& s : a.replay.run.steps) EXPECT_EQ(s.replayed_ns, s.measured_ns);
  WhatIf captured;
  captured.remove_launch_overhead = true;
  ExpectEachStepReplaysTo(a, captured, 10'000'000 - 320'000);
  EXPECT_EQ(Predict(a.replay_graph, a.timeline.steps, a.replay, captured).gain_ns_per_step,
            320'000);
  // Host time kept by the caller (WhatIf::kept_host_ns, the advisor's
  // NonDispatchHostNs) is kept as well: aten::relu's first 100 µs.
  for (int k = 0; k < 3; ++k) {
    const int64_t t0 = k * 10'000'000LL;
    captured.kept_host_ns.emplace_back(t0 + 4'400'000, t0 + 4'500'000);
  }
  ExpectEachStepReplaysTo(a, captured, 10'000'000 - 220'000);
}

// A copy from pageable memory syncs its stream first (CUDA's API sync
// behavior): the host launches a 5 ms sgemm at t0 + 100, then at t0 + 200
// a pageable cudaMemcpyAsync that waits until the sgemm ends (t0 + 5110),
// copies for 500 µs and returns 10 µs after the copy (t0 + 5620); 1 ms of
// host work ends the step. No sync call is in the trace, yet the host waits
// for the device: halving the sgemm shortens each step by 2.5 ms. A copy
// that found its stream idle (called 100 µs after the sgemm ended) is host
// cost, kept: the same halving saves nothing.
std::string PageableCopyTrace(bool stream_busy) {
  std::string events;
  for (int k = 0; k < 3; ++k) {
    const int t0 = k * 10'000;
    const int kstart = t0 + 110, kend = kstart + 5000;
    const int call = stream_busy ? t0 + 200 : kend + 100;
    const int copy_start = stream_busy ? kend : call + 50;
    const int call_end = copy_start + 510;
    const int step_end = call_end + 1000;
    events += Marker(k, t0, step_end - t0);
    events += HostCall("cudaLaunchKernel", t0 + 100, 5, 2 * k + 1);
    events += DeviceOp("volta_sgemm_128x64_nn", "kernel", kstart, 5000, 2 * k + 1, t0 + 100);
    events += HostCall("cudaMemcpyAsync", call, call_end - call, 2 * k + 2);
    events += DeviceOp("Memcpy HtoD (Pageable -> Device)", "gpu_memcpy", copy_start, 500, 2 * k + 2,
                       call);
  }
  return V100Trace(std::move(events));
}

TEST(ReplayTest, APageableCopyWaitsForItsStream) {
  auto trace = ImportString(PageableCopyTrace(true));
  ASSERT_TRUE(trace.ok()) << trace.status().message();
  const RankAnalysis a = AnalyzeRank(*trace, {});
  ASSERT_TRUE(a.replay.available) << a.replay.why_not;
  EXPECT_EQ(a.replay.median_abs_error, 0);
  WhatIf half;
  half.fp32_matrix_speedup = 2;
  EXPECT_EQ(Predict(a.replay_graph, a.timeline.steps, a.replay, half).gain_ns_per_step, 2'500'000);

  auto idle = ImportString(PageableCopyTrace(false));
  ASSERT_TRUE(idle.ok()) << idle.status().message();
  const RankAnalysis b = AnalyzeRank(*idle, {});
  ASSERT_TRUE(b.replay.available) << b.replay.why_not;
  EXPECT_EQ(b.replay.median_abs_error, 0);
  EXPECT_EQ(Predict(b.replay_graph, b.timeline.steps, b.replay, half).gain_ns_per_step, 0);
}

// A step that waits for its all-reduce, by hand (µs from each step's t0,
// steps 10 ms apart): the host launches an sgemm A [110, 2110) and an
// elementwise D queued behind it [2110, 2310) on stream 7, the all-reduce
// on the NCCL stream (21), which waits for D: [2310, 5310), and a kernel B
// on stream 7 that waits for the all-reduce (the event wait PyTorch
// records, inferred): [5310, 6310); the host syncs until B ends + 20 µs,
// then launches C [6460, 6660) and E queued behind it [6660, 6860), and
// its marker ends at 7500. Latencies: launch 10 µs (A, C; the all-reduce's
// 2190 µs is the outlier), queue gap 0 (D, E; B's 3000 µs the outlier),
// sync return 20 µs: the unchanged replay is exact.
//   Nothing waiting for the all-reduce, B runs right after D [2310, 3310),
// the sync returns at 3330, 3000 µs early, and so does the rest of the
// host: its marker ends at 4500. The all-reduce still runs [2310, 5310)
// and the step ends after it: 5.31 ms, 2.19 ms saved of the 3 ms exposed
// (the upper bound). The same with the all-reduce on stream 7 between D
// and B: B then follows D, the op before the collective on its stream.
std::string AllReduceTrace(int comm_stream) {
  std::string events;
  for (int k = 0; k < 3; ++k) {
    const int t0 = k * 10'000;
    const int c = 6 * k;  // correlation ids
    events += Marker(k, t0, 7500);
    events += HostCall("cudaLaunchKernel", t0 + 100, 5, c + 1);
    events += DeviceOp("volta_sgemm_128x64_nn", "kernel", t0 + 110, 2000, c + 1, t0 + 100);
    events += HostCall("cudaLaunchKernel", t0 + 110, 5, c + 2);
    events += DeviceOp("void at::native::vectorized_elementwise_kernel<4>()", "kernel", t0 + 2110,
                       200, c + 2, t0 + 110);
    events += HostCall("cudaLaunchKernel", t0 + 120, 5, c + 3);
    events += DeviceOp("ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)", "kernel", t0 + 2310,
                       3000, c + 3, t0 + 120, comm_stream);
    events += HostCall("cudaLaunchKernel", t0 + 130, 5, c + 4);
    events += DeviceOp("volta_sgemm_128x64_nt", "kernel", t0 + 5310, 1000, c + 4, t0 + 130);
    events += HostCall("cudaStreamSynchronize", t0 + 140, 6330 - 140, 0);
    events += HostCall("cudaLaunchKernel", t0 + 6450, 5, c + 5);
    events += DeviceOp("void at::native::vectorized_elementwise_kernel<4>()", "kernel", t0 + 6460,
                       200, c + 5, t0 + 6450);
    events += HostCall("cudaLaunchKernel", t0 + 6460, 5, c + 6);
    events += DeviceOp("void at::native::vectorized_elementwise_kernel<4>()", "kernel", t0 + 6660,
                       200, c + 6, t0 + 6460);
  }
  return V100Trace(std::move(events));
}

TEST(ReplayTest, NothingWaitsForTheCollectiveByHand) {
  for (const int comm_stream : {21, 7}) {
    SCOPED_TRACE(comm_stream);
    auto trace = ImportString(AllReduceTrace(comm_stream));
    ASSERT_TRUE(trace.ok()) << trace.status().message();
    const RankAnalysis a = AnalyzeRank(*trace, {});
    const ReplayGraph& g = a.replay_graph;
    ASSERT_TRUE(g.built);
    EXPECT_EQ(g.params.launch_latency_ns, 10'000);
    EXPECT_EQ(g.params.queue_gap_ns, 0);
    EXPECT_EQ(g.params.sync_return_ns, 20'000);
    EXPECT_EQ(g.inferred_waits, comm_stream == 7 ? 0u : 6u);  // the all-reduce on D, B on it
    ASSERT_TRUE(a.replay.available) << a.replay.why_not;
    ASSERT_EQ(a.replay.run.steps.size(), 3u);
    for (const ReplayedStep& s : a.replay.run.steps) {
      EXPECT_EQ(s.measured_ns, 7'500'000);
      EXPECT_EQ(s.replayed_ns, 7'500'000);
    }
    WhatIf fix;
    EXPECT_TRUE(AddRemoval("communication-wait", &fix).ok());
    EXPECT_FALSE(fix.identity());
    ExpectEachStepReplaysTo(a, fix, 5'310'000);
    const Prediction p = Predict(g, a.timeline.steps, a.replay, fix);
    ASSERT_TRUE(p.available);
    EXPECT_EQ(p.gain_ns_per_step, 2'190'000);
    EXPECT_EQ(p.what_if, "remove communication-wait");
  }
}

// The replay's step windows are steps.h's rule over the graph's times; on
// the measured times they must be steps.h's own windows, on every trace
// with steps (else the replay error would measure the rule, not the model).
TEST(ReplayTest, TheGraphRebuildsTheMeasuredStepWindows) {
  const std::string kTraces[] = {
      "examples/gpu_training/traces/resnet50_workers0_fp32.json.gz",
      "examples/gpu_training/traces/transformer_eager.json.gz",
      "examples/cpu_corpus/data_stall.json.gz",
      perfdx::testing::SharedPath(
          "traces/kineto/tbp/resnet50_num_workers_4/worker0.1623212756351.pt.trace.json.gz"),
      perfdx::testing::SharedPath("traces/kineto/hta/trace_diff/control/control.json.gz"),
      perfdx::testing::SharedPath(
          "traces/ascend/torch_npu_2rank_text_level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/"
          "trace_view.json"),
  };
  for (const std::string& path : kTraces) {
    SCOPED_TRACE(path);
    auto trace = ImportFile(path);
    ASSERT_TRUE(trace.ok()) << trace.status().message();
    const RankAnalysis a = AnalyzeRank(*trace, {});
    ASSERT_FALSE(a.timeline.steps.empty());
    const std::vector<ReplayedStep> rebuilt = RebuiltWindows(a.replay_graph, a.timeline.steps);
    ASSERT_EQ(rebuilt.size(), a.timeline.steps.size());
    for (size_t i = 0; i < rebuilt.size(); ++i) {
      EXPECT_EQ(rebuilt[i].id, a.timeline.steps[i].id);
      EXPECT_EQ(rebuilt[i].replayed_ns, a.timeline.steps[i].dur_ns()) << "step " << rebuilt[i].id;
    }
  }
}

TEST(ReplayTest, NoMarkersNoReplay) {
  auto trace = ImportString(
      R"({"traceEvents":[{"ph":"X","name":"aten::mm","cat":"cpu_op","ts":0,"dur":10,"pid":1,"tid":1}]})");
  ASSERT_TRUE(trace.ok());
  const RankAnalysis a = AnalyzeRank(*trace, {});
  EXPECT_FALSE(a.replay_graph.built);
  EXPECT_FALSE(a.replay.available);
  EXPECT_FALSE(a.replay.why_not.empty());
  WhatIf fix;
  fix.remove_data_loading = true;
  EXPECT_FALSE(Predict(a.replay_graph, a.timeline.steps, a.replay, fix).available);
}

TEST(ReplayTest, WhatIfSpellings) {
  WhatIf w;
  EXPECT_TRUE(AddRemoval("data-loading", &w).ok());
  EXPECT_TRUE(AddRemoval("layout-conversion", &w).ok());
  EXPECT_TRUE(AddRemoval("launch-overhead", &w).ok());
  EXPECT_TRUE(AddRemoval("communication-wait", &w).ok());
  EXPECT_FALSE(AddRemoval("dataloading", &w).ok());
  EXPECT_FALSE(AddRemoval("communication", &w).ok());
  EXPECT_TRUE(AddSpeedup("fp32-matrix=2.5", &w).ok());
  EXPECT_EQ(w.fp32_matrix_speedup, 2.5);
  EXPECT_TRUE(AddSpeedup("matrix=0.001", &w).ok());  // the largest slowdown
  EXPECT_TRUE(AddSpeedup("communication=0.5", &w).ok());
  for (const char* bad :
       {"fp32-matrix", "fp32-matrix=", "fp32-matrix=x", "fp32-matrix=0", "fp32-matrix=-1",
        "fp32-matrix=nan", "fp32-matrix=1e9", "gemm=2", "matrix=0.0009", "matrix=1e-300"}) {
    EXPECT_FALSE(AddSpeedup(bad, &w).ok()) << bad;
  }
  EXPECT_EQ(w.Describe(),
            "remove data-loading, remove layout-conversion, remove launch-overhead, remove "
            "communication-wait, speedup fp32-matrix=2.5, speedup matrix=0.001, speedup "
            "communication=0.5");
  EXPECT_EQ(WhatIf{}.Describe(), "none");
}

}  // namespace
}  // namespace perfdx::analysis
