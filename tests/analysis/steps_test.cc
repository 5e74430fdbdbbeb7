// Step windows and the step-time breakdown on small hand-built Kineto traces.
// Every expected number is worked out by hand from the events (times in µs in
// the JSON, ns in perfdx) following tbp-definitions.md §1-2.
#include "perfdx/analysis/steps.h"

#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "perfdx/analysis/step_breakdown.h"
#include "test_support.h"

namespace perfdx::analysis {
namespace {

constexpr int64_t kUs = 1000;

// A Kineto trace: host thread pid 10 / tid 10, device stream pid 0 / tid 7.
class TraceText {
 public:
  TraceText& Step(int id, int64_t ts, int64_t dur) {
    return Host("user_annotation", fmt::format("ProfilerStep#{}", id), ts, dur);
  }
  TraceText& Host(const std::string& cat, const std::string& name, int64_t ts, int64_t dur) {
    events_.push_back(fmt::format(
        R"({{"ph": "X", "cat": "{}", "name": "{}", "pid": 10, "tid": 10, "ts": {}, "dur": {}}})",
        cat, name, ts, dur));
    return *this;
  }
  // A runtime call with its correlation id.
  TraceText& Launch(int64_t correlation, int64_t ts, int64_t dur,
                    const std::string& name = "cudaLaunchKernel") {
    events_.push_back(fmt::format(
        R"({{"ph": "X", "cat": "cuda_runtime", "name": "{}", "pid": 10, "tid": 10, "ts": {}, )"
        R"("dur": {}, "args": {{"correlation": {}}}}})",
        name, ts, dur, correlation));
    return *this;
  }
  // Device work; correlation 0 = launched by nothing in the trace.
  TraceText& Device(const std::string& name, int64_t correlation, int64_t ts, int64_t dur,
                    const std::string& cat = "kernel", int stream = 7) {
    events_.push_back(fmt::format(
        R"({{"ph": "X", "cat": "{}", "name": "{}", "pid": 0, "tid": {}, "ts": {}, "dur": {}, )"
        R"("args": {{"correlation": {}}}}})",
        cat, name, stream, ts, dur, correlation));
    return *this;
  }
  TraceText& Raw(const std::string& event) {
    events_.push_back(event);
    return *this;
  }

  model::Trace Import() const {
    std::string json = R"({"schemaVersion": 1, "traceEvents": [)";
    for (size_t i = 0; i < events_.size(); ++i) json += (i ? ",\n" : "\n") + events_[i];
    json += "\n]}";
    auto trace = perfdx::testing::ImportString(json);
    EXPECT_TRUE(trace.ok()) << trace.status().message();
    return trace.ok() ? std::move(*trace) : model::Trace{};
  }

 private:
  std::vector<std::string> events_;
};

std::vector<int64_t> Ids(const std::vector<StepWindow>& windows) {
  std::vector<int64_t> ids;
  for (const StepWindow& w : windows) ids.push_back(w.id);
  return ids;
}

bool AnyNoteContains(const StepTimeline& t, const std::string& part) {
  for (const std::string& note : t.notes) {
    if (note.find(part) != std::string::npos) return true;
  }
  return false;
}

// One step near the top of the times a trace may hold (2^61 ns, in 2043):
// whether activity covers a tenth of it is decided without overflowing
// (found by ascend_db_fuzzer: 10 * (0 - start) overflowed). Activity that
// ended before the step is none; activity over the step's first half is.
TEST(StepsTest, CompletenessOfALateSingleStepDoesNotOverflow) {
  constexpr int64_t kStartUs = int64_t{1} << 51;  // 2^51 us: about 2^61 ns
  const model::Trace before = TraceText().Step(1, kStartUs, 1000).Device("k", 0, 10, 5).Import();
  EXPECT_FALSE(HasCompleteSteps(before, BuildSteps(before)));
  const model::Trace inside =
      TraceText().Step(1, kStartUs, 1000).Device("k", 0, kStartUs + 10, 500).Import();
  EXPECT_TRUE(HasCompleteSteps(inside, BuildSteps(inside)));
  // Exactly a tenth (100 of 1000 us) is enough; one microsecond less is not.
  const model::Trace tenth =
      TraceText().Step(1, kStartUs, 1000).Device("k", 0, kStartUs, 100).Import();
  EXPECT_TRUE(HasCompleteSteps(tenth, BuildSteps(tenth)));
  const model::Trace less =
      TraceText().Step(1, kStartUs, 1000).Device("k", 0, kStartUs, 99).Import();
  EXPECT_FALSE(HasCompleteSteps(less, BuildSteps(less)));
}

// Step 1's kernel runs past its host end, so step 1 ends at the kernel's end
// and step 2 starts there, not at its own marker. A launch straddling step 1's
// end counts for neither step.
TEST(StepsTest, DeviceTailExtendsTheStepAndDelaysTheNext) {
  const model::Trace trace = TraceText()
                                 .Step(1, 0, 100)
                                 .Step(2, 100, 100)
                                 .Launch(1, 10, 2)
                                 .Device("k1", 1, 50, 100)  // [50, 150)
                                 .Launch(2, 95, 10)         // straddles 100
                                 .Device("k2", 2, 400, 10)  // would stretch either step
                                 .Launch(3, 110, 2)
                                 .Device("k3", 3, 160, 90)  // [160, 250)
                                 .Import();
  const StepTimeline t = BuildSteps(trace);
  EXPECT_EQ(t.source, StepSource::kProfilerStep);
  ASSERT_EQ(Ids(t.steps), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(t.steps[0].start_ns, 0);
  EXPECT_EQ(t.steps[0].end_ns, 150 * kUs);
  EXPECT_EQ(t.steps[0].host_end_ns, 100 * kUs);
  EXPECT_EQ(t.steps[1].start_ns, 150 * kUs);
  EXPECT_EQ(t.steps[1].host_start_ns, 100 * kUs);
  EXPECT_EQ(t.steps[1].end_ns, 250 * kUs);
  EXPECT_EQ(t.steps[0].device_ops, 1u);
  EXPECT_EQ(t.steps[1].device_ops, 1u);
  EXPECT_TRUE(t.excluded.empty());
}

// Launches in host order across two streams (each stream's kernels come
// together in the file), and a kernel two host calls claim (its runtime
// call's correlation and an explicit ac2g flow from a later annotation): the
// later host call is its launcher.
TEST(StepsTest, LaunchesAreInHostOrderAndTheLaterOfTwoLaunchersWins) {
  const model::Trace trace =
      TraceText()
          .Launch(1, 10, 2)
          .Launch(2, 20, 2)
          .Launch(3, 30, 2)
          .Host("user_annotation", "later", 40, 5)
          .Device("a1", 1, 100, 5, "kernel", 7)
          .Device("a3", 3, 120, 5, "kernel", 7)
          .Device("b2", 2, 110, 5, "kernel", 8)
          .Raw(R"({"ph": "s", "cat": "ac2g", "name": "launch", "id": 77, "pid": 10, "tid": 10, )"
               R"("ts": 41})")
          .Raw(R"({"ph": "f", "cat": "ac2g", "name": "launch", "id": 77, "pid": 0, "tid": 7, )"
               R"("ts": 100, "bp": "e"})")
          .Import();
  const std::vector<Launch> launches = CollectLaunches(trace);
  ASSERT_EQ(launches.size(), 3u);
  std::vector<std::string> devices;
  std::vector<int64_t> host_starts;
  for (const Launch& l : launches) {
    devices.emplace_back(trace.slice_name(l.device));
    host_starts.push_back(l.host_start_ns);
  }
  EXPECT_EQ(devices, (std::vector<std::string>{"b2", "a3", "a1"}));
  EXPECT_EQ(host_starts, (std::vector<int64_t>{20 * kUs, 30 * kUs, 40 * kUs}));
  EXPECT_EQ(launches[2].host_end_ns, 45 * kUs);
}

// A step that launched nothing, swallowed by the previous step's device tail:
// start = previous end (300) > host end (220), end = max(host end, start).
TEST(StepsTest, StepWithoutDeviceWorkStartsAtThePreviousEnd) {
  const model::Trace trace = TraceText()
                                 .Step(1, 0, 100)
                                 .Step(2, 200, 20)
                                 .Step(3, 400, 100)
                                 .Launch(1, 10, 2)
                                 .Device("k1", 1, 20, 280)  // [20, 300)
                                 .Launch(2, 410, 2)
                                 .Device("k2", 2, 420, 10)
                                 .Import();
  const StepTimeline t = BuildSteps(trace);
  ASSERT_EQ(Ids(t.steps), (std::vector<int64_t>{1, 2, 3}));
  EXPECT_EQ(t.steps[0].end_ns, 300 * kUs);
  EXPECT_EQ(t.steps[1].start_ns, 300 * kUs);
  EXPECT_EQ(t.steps[1].end_ns, 300 * kUs);
  EXPECT_EQ(t.steps[2].start_ns, 400 * kUs);
  EXPECT_EQ(t.steps[2].end_ns, 500 * kUs);
}

// Device work from before the first step (launched outside every step, or not
// linked to any launch) that ends before step 1's first kernel (at 140) pushes
// step 1's start to its end (135). Work ending after 140 does not.
TEST(StepsTest, PreStepDrainPushesTheFirstStart) {
  const model::Trace trace = TraceText()
                                 .Launch(9, 10, 2)
                                 .Device("drain", 9, 50, 85)               // [50, 135)
                                 .Device("unlinked", 0, 100, 20)           // [100, 120)
                                 .Device("late", 0, 145, 30, "kernel", 8)  // ends at 175 > 140
                                 .Step(1, 100, 100)
                                 .Launch(1, 110, 2)
                                 .Device("k1", 1, 140, 20)  // [140, 160)
                                 .Import();
  const StepTimeline t = BuildSteps(trace);
  ASSERT_EQ(t.steps.size(), 1u);
  EXPECT_EQ(t.steps[0].start_ns, 135 * kUs);
  EXPECT_EQ(t.steps[0].host_start_ns, 100 * kUs);
  EXPECT_EQ(t.steps[0].end_ns, 200 * kUs);
  EXPECT_TRUE(AnyNoteContains(t, "step 1 starts 0.035 ms after its marker"));
}

// Ascend: the op -> task link is a flow ("async_npu"), not a runtime
// correlation; the task launched by aten::add at 10 µs extends step 1 to 120.
TEST(StepsTest, AscendOpToTaskFlowExtendsTheStep) {
  const model::Trace trace =
      TraceText()
          .Raw(R"({"ph": "M", "name": "process_name", "pid": 2, )"
               R"("args": {"name": "Ascend Hardware"}})")
          .Raw(R"({"ph": "X", "cat": "cpu_op", "name": "ProfilerStep#1", "pid": 1, "tid": 1, )"
               R"("ts": 0, "dur": 100})")
          .Raw(R"({"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 1, "tid": 1, "ts": 10, )"
               R"("dur": 10})")
          .Raw(R"({"ph": "s", "cat": "async_npu", "name": "torch_to_npu", "id": 1, "pid": 1, )"
               R"("tid": 1, "ts": 10})")
          .Raw(R"({"ph": "X", "name": "Add", "pid": 2, "tid": 5, "ts": 90, "dur": 30, )"
               R"("args": {"Task Type": "AI_CORE"}})")
          .Raw(R"({"ph": "f", "bp": "e", "cat": "async_npu", "name": "torch_to_npu", "id": 1, )"
               R"("pid": 2, "tid": 5, "ts": 90})")
          .Import();
  const StepTimeline t = BuildSteps(trace);
  ASSERT_EQ(Ids(t.steps), (std::vector<int64_t>{1}));
  EXPECT_EQ(t.steps[0].start_ns, 0);
  EXPECT_EQ(t.steps[0].end_ns, 120 * kUs);
  EXPECT_EQ(t.steps[0].device_ops, 1u);
}

// Steps 1 and 2 launch 5 kernels each; step 3 launches 3 (60% < 80%) and step
// 4 none: both are dropped unless include_incomplete.
TEST(StepsTest, TruncatedTailIsExcluded) {
  TraceText text;
  const int kernels[] = {5, 5, 3, 0};
  int64_t correlation = 1;
  for (int s = 0; s < 4; ++s) {
    const int64_t base = s * 100;
    text.Step(s + 1, base, 100);
    for (int k = 0; k < kernels[s]; ++k, ++correlation) {
      text.Launch(correlation, base + 10 + k * 5, 2)
          .Device("k", correlation, base + 20 + k * 10, 5);
    }
  }
  const model::Trace trace = text.Import();

  const StepTimeline t = BuildSteps(trace);
  EXPECT_EQ(Ids(t.steps), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(Ids(t.excluded), (std::vector<int64_t>{3, 4}));
  EXPECT_EQ(t.excluded[0].device_ops, 3u);
  EXPECT_TRUE(AnyNoteContains(t, "step 3 excluded: it launched 60% of the device ops of step 2"));
  EXPECT_TRUE(AnyNoteContains(t, "step 4 excluded: it launched no device work"));
  EXPECT_TRUE(AnyNoteContains(t, "--include-incomplete"));

  StepOptions keep;
  keep.include_incomplete = true;
  const StepTimeline all = BuildSteps(trace, keep);
  EXPECT_EQ(Ids(all.steps), (std::vector<int64_t>{1, 2, 3, 4}));
  EXPECT_TRUE(all.excluded.empty());
}

// Exactly 80% of the previous step's ops is not "fewer than 80%": kept.
TEST(StepsTest, EightyPercentIsKept) {
  TraceText text;
  const int kernels[] = {5, 4};
  int64_t correlation = 1;
  for (int s = 0; s < 2; ++s) {
    const int64_t base = s * 100;
    text.Step(s + 1, base, 100);
    for (int k = 0; k < kernels[s]; ++k, ++correlation) {
      text.Launch(correlation, base + 10 + k * 5, 2)
          .Device("k", correlation, base + 20 + k * 10, 5);
    }
  }
  const StepTimeline t = BuildSteps(text.Import());
  EXPECT_EQ(Ids(t.steps), (std::vector<int64_t>{1, 2}));
  EXPECT_TRUE(t.excluded.empty());
}

// No markers, too little device work to repeat: one window over every host
// and device slice, but not over the profiler's own span.
TEST(StepsTest, NoMarkersIsTheWholeTrace) {
  const model::Trace trace =
      TraceText()
          .Host("cpu_op", "aten::mm", 0, 50)
          .Launch(1, 10, 2)
          .Device("k", 1, 30, 50)  // [30, 80)
          .Raw(R"j({"ph": "X", "cat": "Trace", "name": "PyTorch Profiler (0)", "pid": "Spans", )j"
               R"j("tid": "PyTorch Profiler", "ts": -100, "dur": 600})j")
          .Import();
  const StepTimeline t = BuildSteps(trace);
  EXPECT_EQ(t.source, StepSource::kWholeTrace);
  ASSERT_EQ(t.steps.size(), 1u);
  EXPECT_EQ(t.steps[0].id, 0);
  EXPECT_EQ(t.steps[0].start_ns, 0);
  EXPECT_EQ(t.steps[0].end_ns, 80 * kUs);
  EXPECT_EQ(t.steps[0].device_ops, 1u);
  EXPECT_FALSE(t.notes.empty());
}

// Without markers, the stream runs C D | A B C D | A B C D | A B C D | A B:
// period 4 with a 30 µs idle gap before every A. The three full repetitions
// become steps 0..2, each from its A to the next A.
TEST(StepsTest, RepeatingDeviceWorkBecomesSteps) {
  TraceText text;
  text.Device("C", 0, 0, 10).Device("D", 0, 11, 10);
  for (int64_t a : {51, 124, 197}) {
    text.Device("A", 0, a, 10)
        .Device("B", 0, a + 11, 10)
        .Device("C", 0, a + 22, 10)
        .Device("D", 0, a + 33, 10);
  }
  text.Device("A", 0, 270, 10).Device("B", 0, 281, 10);
  text.Host("cpu_op", "aten::add", 0, 5);
  const StepTimeline t = BuildSteps(text.Import());
  EXPECT_EQ(t.source, StepSource::kRepeatingPattern);
  ASSERT_EQ(Ids(t.steps), (std::vector<int64_t>{0, 1, 2}));
  const int64_t bounds[] = {51, 124, 197, 270};
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(t.steps[i].start_ns, bounds[i] * kUs);
    EXPECT_EQ(t.steps[i].end_ns, bounds[i + 1] * kUs);
    EXPECT_EQ(t.steps[i].device_ops, 4u);
  }
  EXPECT_TRUE(AnyNoteContains(t, "repeats"));
}

// The last repetition, with nothing after it, ends at its last op's end.
TEST(StepsTest, LastRepetitionEndsAtItsLastOp) {
  TraceText text;
  for (int64_t a : {0, 100}) {
    text.Device("A", 0, a, 10).Device("B", 0, a + 20, 10).Device("C", 0, a + 40, 10);
  }
  const StepTimeline t = BuildSteps(text.Import());
  EXPECT_EQ(t.source, StepSource::kRepeatingPattern);
  ASSERT_EQ(t.steps.size(), 2u);
  EXPECT_EQ(t.steps[0].start_ns, 0);
  EXPECT_EQ(t.steps[0].end_ns, 100 * kUs);
  EXPECT_EQ(t.steps[1].start_ns, 100 * kUs);
  EXPECT_EQ(t.steps[1].end_ns, 150 * kUs);
}

// One and a half repetitions, or one kernel repeated, are not convincing.
TEST(StepsTest, UnconvincingRepetitionIsTheWholeTrace) {
  TraceText partial;
  int64_t ts = 0;
  for (const char* name : {"A", "B", "C", "D", "A", "B"}) partial.Device(name, 0, ts += 20, 10);
  EXPECT_EQ(BuildSteps(partial.Import()).source, StepSource::kWholeTrace);

  TraceText same;
  for (int k = 0; k < 8; ++k) same.Device("A", 0, k * 20, 10);
  EXPECT_EQ(BuildSteps(same.Import()).source, StepSource::kWholeTrace);
}

// CPU-only: nothing to extend, no tail trimming, host windows as recorded.
TEST(StepsTest, CpuOnlyMarkersAreTheSteps) {
  const model::Trace trace = TraceText()
                                 .Step(1, 0, 100)
                                 .Host("cpu_op", "aten::mm", 10, 50)
                                 .Step(2, 120, 80)
                                 .Step(3, 200, 10)
                                 .Import();
  const StepTimeline t = BuildSteps(trace);
  EXPECT_EQ(t.source, StepSource::kProfilerStep);
  ASSERT_EQ(Ids(t.steps), (std::vector<int64_t>{1, 2, 3}));
  EXPECT_TRUE(t.excluded.empty());
  EXPECT_TRUE(t.notes.empty());
  EXPECT_EQ(t.steps[1].start_ns, 120 * kUs);
  EXPECT_EQ(t.steps[1].end_ns, 200 * kUs);
  EXPECT_EQ(t.steps[2].dur_ns(), 10 * kUs);
}

// One step, host [0, 100), extended to 110 by an NCCL kernel. By hand:
//   kernel         [30, 70)                                   40
//   memcpy         [72, 80)                                    8
//   memset         [65, 75) - kernel - memcpy = [70, 72)        2
//   communication  nccl:all_reduce [85, 95) + NCCL [88, 110)  25
//   runtime        [25,35) [40,45) [46,48) [60,84) [86,87)
//                  minus the above = [25, 30) + [80, 84)       9
//   dataloader     [0, 20), under nothing                     20
//   cpu_exec       aten::conv2d [20, 60) minus the above       5
//                  (the python_function [0, 100) is not CPU exec)
//   other          [84, 85)                                    1
TEST(StepBreakdownTest, PriorityPartitionByHand) {
  const model::Trace trace =
      TraceText()
          .Step(1, 0, 100)
          .Host("python_function", "train.py(12): step", 0, 100)
          .Host("user_annotation", "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", 0,
                20)
          .Host("cpu_op", "aten::conv2d", 20, 40)
          .Launch(1, 25, 10)
          .Device("volta_scudnn_128x64_relu", 1, 30, 40)
          .Launch(2, 40, 5, "cudaMemcpyAsync")
          .Device("Memcpy HtoD (Pageable -> Device)", 2, 72, 8, "gpu_memcpy")
          .Launch(3, 46, 2, "cudaMemsetAsync")
          .Device("Memset (Device)", 3, 65, 10, "gpu_memset")
          .Launch(0, 60, 24, "cudaStreamSynchronize")
          .Host("cpu_op", "nccl:all_reduce", 85, 10)
          .Launch(4, 86, 1)
          .Device("ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)", 4, 88, 22, "kernel", 20)
          .Import();
  const StepTimeline t = BuildSteps(trace);
  ASSERT_EQ(t.steps.size(), 1u);
  EXPECT_EQ(t.steps[0].start_ns, 0);
  EXPECT_EQ(t.steps[0].end_ns, 110 * kUs);
  EXPECT_EQ(t.steps[0].device_ops, 4u);

  const std::vector<StepBreakdown> b = ComputeStepBreakdowns(trace, t);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(b[0].kernel_ns, 40 * kUs);
  EXPECT_EQ(b[0].memcpy_ns, 8 * kUs);
  EXPECT_EQ(b[0].memset_ns, 2 * kUs);
  EXPECT_EQ(b[0].communication_ns, 25 * kUs);
  EXPECT_EQ(b[0].runtime_ns, 9 * kUs);
  EXPECT_EQ(b[0].dataloader_ns, 20 * kUs);
  EXPECT_EQ(b[0].cpu_exec_ns, 5 * kUs);
  EXPECT_EQ(b[0].other_ns, 1 * kUs);
  EXPECT_EQ(b[0].total_ns(), 110 * kUs);
}

// Two steps share nothing: work outside a window is not counted in it, and a
// window nothing covers is all "other".
TEST(StepBreakdownTest, CategoriesAreClippedToEachWindow) {
  const model::Trace trace = TraceText()
                                 .Step(1, 0, 50)
                                 .Step(2, 50, 50)
                                 .Launch(1, 5, 5)
                                 .Device("k", 1, 40, 20)  // [40, 60): step 1 ends at 60
                                 .Launch(2, 70, 5)
                                 .Device("k", 2, 90, 5)
                                 .Import();
  const StepTimeline t = BuildSteps(trace);
  ASSERT_EQ(t.steps.size(), 2u);
  const std::vector<StepBreakdown> b = ComputeStepBreakdowns(trace, t);
  ASSERT_EQ(b.size(), 2u);
  // Step 1 [0, 60): runtime [5, 10), kernel [40, 60), other the rest.
  EXPECT_EQ(b[0].kernel_ns, 20 * kUs);
  EXPECT_EQ(b[0].runtime_ns, 5 * kUs);
  EXPECT_EQ(b[0].other_ns, 35 * kUs);
  // Step 2 [60, 100): runtime [70, 75), kernel [90, 95).
  EXPECT_EQ(b[1].kernel_ns, 5 * kUs);
  EXPECT_EQ(b[1].runtime_ns, 5 * kUs);
  EXPECT_EQ(b[1].other_ns, 30 * kUs);
  EXPECT_EQ(b[1].total_ns(), 40 * kUs);
}

}  // namespace
}  // namespace perfdx::analysis
