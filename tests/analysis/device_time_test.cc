// Device time per step against Ascend's step_trace_time.csv (torch_npu's own
// per-step Computing / Communication / Communication(Not Overlapped) / Free,
// µs) for both ranks of the level-1 text sample, within 0.5% of the step's
// device time (the CSV's Stage column); plus a hand-built GPU trace.
#include "perfdx/analysis/device_time.h"

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "perfdx/analysis/steps.h"
#include "test_support.h"

namespace perfdx::analysis {
namespace {

// Rows of step_trace_time.csv as column name -> value; cells may carry the
// trailing tab torch_npu writes for spreadsheets.
std::vector<std::map<std::string, std::string>> ReadStepTraceCsv(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << "cannot read " << path;
  auto trim = [](std::string s) {
    while (!s.empty() && (s.back() == '\t' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
    return s;
  };
  std::vector<std::map<std::string, std::string>> rows;
  std::vector<std::string> header;
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::stringstream ss(line);
    std::string cell;
    while (std::getline(ss, cell, ',')) cells.push_back(trim(cell));
    if (header.empty()) {
      header = cells;
      continue;
    }
    std::map<std::string, std::string> row;
    for (size_t c = 0; c < header.size() && c < cells.size(); ++c) row[header[c]] = cells[c];
    rows.push_back(std::move(row));
  }
  return rows;
}

int64_t UsToNs(const std::string& us) {
  return std::llround(std::stod(us) * 1000.0);
}

void CheckAscendRank(int rank) {
  PERFDX_REQUIRE_SHARED();
  const std::string dir = "traces/ascend/torch_npu_2rank_text_level1/rank" + std::to_string(rank) +
                          "_ascend_pt/ASCEND_PROFILER_OUTPUT/";
  auto trace = perfdx::testing::ImportFile(perfdx::testing::SharedPath(dir + "trace_view.json"));
  ASSERT_TRUE(trace.ok()) << trace.status().message();
  const auto golden = ReadStepTraceCsv(perfdx::testing::SharedPath(dir + "step_trace_time.csv"));
  ASSERT_EQ(golden.size(), 1u);

  // The step window is the ProfilerStep#50 marker as recorded on the host:
  // torch_npu files device data into the step whose range contains it, and in
  // this one-step profile every device task (first at +17.9 ms, the CSV's
  // Preparing) ends before the marker does.
  ASSERT_EQ(trace->steps.size(), 1u);
  const model::Step& marker = trace->steps[0];
  ASSERT_EQ(std::to_string(marker.id), golden[0].at("Step"));
  StepTimeline timeline;
  timeline.source = StepSource::kProfilerStep;
  timeline.steps.push_back({.id = marker.id,
                            .start_ns = marker.start_ns,
                            .end_ns = marker.end_ns,
                            .host_start_ns = marker.start_ns,
                            .host_end_ns = marker.end_ns});

  const std::vector<DeviceTime> times = ComputeDeviceTime(*trace, timeline);
  ASSERT_EQ(times.size(), 1u);
  const DeviceTime& t = times[0];
  const auto& row = golden[0];
  const double tolerance_ns = 0.005 * static_cast<double>(UsToNs(row.at("Stage")));
  EXPECT_NEAR(t.computing_ns, UsToNs(row.at("Computing")), tolerance_ns);
  EXPECT_NEAR(t.communication_ns, UsToNs(row.at("Communication")), tolerance_ns);
  EXPECT_NEAR(t.communication_not_overlapped_ns, UsToNs(row.at("Communication(Not Overlapped)")),
              tolerance_ns);
  EXPECT_NEAR(t.overlapped_ns(), UsToNs(row.at("Overlapped")), tolerance_ns);
  EXPECT_NEAR(t.free_ns, UsToNs(row.at("Free")), tolerance_ns);
  // Stage (no PP receives here, Bubble = 0) is the step's device span.
  EXPECT_EQ(row.at("Bubble"), "0");
  EXPECT_NEAR(t.computing_ns + t.communication_not_overlapped_ns + t.free_ns,
              UsToNs(row.at("Stage")), tolerance_ns);
  // Preparing: first device task minus the ProfilerStep's host start; the
  // CSV computes it in double µs (0.25 µs apart at these epoch times).
  EXPECT_NEAR(t.preparing_ns, UsToNs(row.at("Preparing")), 250.0);
  EXPECT_EQ(t.preparing_ns + t.computing_ns + t.communication_not_overlapped_ns + t.free_ns +
                t.trailing_ns,
            marker.end_ns - marker.start_ns);
}

TEST(DeviceTimeTest, AscendRank0MatchesStepTraceTime) {
  CheckAscendRank(0);
}
TEST(DeviceTimeTest, AscendRank1MatchesStepTraceTime) {
  CheckAscendRank(1);
}

// A GPU trace (µs): compute kernels on stream 7, NCCL kernels on stream 20, a
// copy on stream 7 (neither computing nor communication), a device-side
// annotation (ignored). Steps chosen by hand: [0,200), [200,300), [300,400).
//   stream 7:  gemm [20,50) [60,90) [150,160) [240,260), memcpy [130,140)
//   stream 20: nccl [40,120) [190,230)
// Step 1: computing 30 + 30 + 10 = 70; communication 80 + 10 (nccl clipped
//   to [190,200)) = 90; overlapped [40,50) + [60,90) = 40, not overlapped 50;
//   device span [20,200) = 180, busy [20,120) + [150,160) + [190,200) = 120,
//   free 60 (the copy's [130,140) is free time).
// Step 2: computing 20; communication [200,230) = 30, none overlapped; span
//   [200,260) = 60, busy 50, free 10.
// Step 3: no device work: all zero.
// Preparing / trailing (step start to the first busy instant, the last busy
// instant to the step's end): step 1 20 / 0 (the nccl clipped at 200), step
// 2 0 / 40 (busy [200,260)), step 3 0 / 100 (the whole step). Each step's
// parts sum to it: 20 + 70 + 50 + 60 + 0 = 200, 0 + 20 + 30 + 10 + 40 = 100.
TEST(DeviceTimeTest, GpuComputeAndNcclOverlap) {
  auto trace = perfdx::testing::ImportString(R"json({"schemaVersion": 1, "traceEvents": [
    {"ph": "X", "cat": "kernel", "name": "sm90_gemm", "pid": 0, "tid": 7, "ts": 20, "dur": 30, "args": {"stream": 7}},
    {"ph": "X", "cat": "kernel", "name": "sm90_gemm", "pid": 0, "tid": 7, "ts": 60, "dur": 30, "args": {"stream": 7}},
    {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy DtoH (Device -> Pinned)", "pid": 0, "tid": 7, "ts": 130, "dur": 10, "args": {"stream": 7}},
    {"ph": "X", "cat": "kernel", "name": "sm90_gemm", "pid": 0, "tid": 7, "ts": 150, "dur": 10, "args": {"stream": 7}},
    {"ph": "X", "cat": "kernel", "name": "sm90_gemm", "pid": 0, "tid": 7, "ts": 240, "dur": 20, "args": {"stream": 7}},
    {"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllReduce_Sum_bf16_RING_LL", "pid": 0, "tid": 20, "ts": 40, "dur": 80, "args": {"stream": 20}},
    {"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllGather_RING_LL", "pid": 0, "tid": 20, "ts": 190, "dur": 40, "args": {"stream": 20}},
    {"ph": "X", "cat": "gpu_user_annotation", "name": "ProfilerStep#1", "pid": 0, "tid": 7, "ts": 0, "dur": 200}
  ]})json");
  ASSERT_TRUE(trace.ok()) << trace.status().message();
  StepTimeline timeline;
  timeline.steps.push_back({.id = 1, .start_ns = 0, .end_ns = 200'000});
  timeline.steps.push_back({.id = 2, .start_ns = 200'000, .end_ns = 300'000});
  timeline.steps.push_back({.id = 3, .start_ns = 300'000, .end_ns = 400'000});
  const std::vector<DeviceTime> t = ComputeDeviceTime(*trace, timeline);
  ASSERT_EQ(t.size(), 3u);

  EXPECT_EQ(t[0].computing_ns, 70'000);
  EXPECT_EQ(t[0].communication_ns, 90'000);
  EXPECT_EQ(t[0].communication_not_overlapped_ns, 50'000);
  EXPECT_EQ(t[0].overlapped_ns(), 40'000);
  EXPECT_EQ(t[0].free_ns, 60'000);

  EXPECT_EQ(t[1].computing_ns, 20'000);
  EXPECT_EQ(t[1].communication_ns, 30'000);
  EXPECT_EQ(t[1].communication_not_overlapped_ns, 30'000);
  EXPECT_EQ(t[1].free_ns, 10'000);

  EXPECT_EQ(t[2].computing_ns, 0);
  EXPECT_EQ(t[2].communication_ns, 0);
  EXPECT_EQ(t[2].communication_not_overlapped_ns, 0);
  EXPECT_EQ(t[2].free_ns, 0);

  EXPECT_EQ(t[0].preparing_ns, 20'000);
  EXPECT_EQ(t[0].trailing_ns, 0);
  EXPECT_EQ(t[1].preparing_ns, 0);
  EXPECT_EQ(t[1].trailing_ns, 40'000);
  EXPECT_EQ(t[2].preparing_ns, 0);
  EXPECT_EQ(t[2].trailing_ns, 100'000);
  for (size_t k = 0; k < t.size(); ++k) {
    EXPECT_EQ(t[k].preparing_ns + t[k].computing_ns + t[k].communication_not_overlapped_ns +
                  t[k].free_ns + t[k].trailing_ns,
              timeline.steps[k].end_ns - timeline.steps[k].start_ns)
        << "step " << k + 1;
  }
}

TEST(DeviceTimeTest, NoStepsNoRows) {
  auto trace = perfdx::testing::ImportString(R"json({"schemaVersion": 1, "traceEvents": [
    {"ph": "X", "cat": "kernel", "name": "sm90_gemm", "pid": 0, "tid": 7, "ts": 20, "dur": 30, "args": {"stream": 7}}
  ]})json");
  ASSERT_TRUE(trace.ok()) << trace.status().message();
  EXPECT_TRUE(ComputeDeviceTime(*trace, StepTimeline{}).empty());
}

}  // namespace
}  // namespace perfdx::analysis
