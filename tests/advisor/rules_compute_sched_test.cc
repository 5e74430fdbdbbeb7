// Compute-utilization, data-pipeline and scheduling rules on hand-built
// traces (numbers worked out in the comments) and on the real traces the
// issue names.
#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "advisor/rule_test_support.h"
#include "perfdx/advisor/advisor.h"
#include "perfdx/advisor/rules/rule_util.h"
#include "perfdx/analysis/rank_analysis.h"
#include "perfdx/formats/trace_loader.h"
#include "test_support.h"

namespace perfdx::advisor {
namespace {

using perfdx::advisor::testing::Analyse;
using perfdx::advisor::testing::Analysed;
using perfdx::advisor::testing::AnalyseJson;
using perfdx::advisor::testing::FindRule;
using perfdx::testing::ImportString;

// N steps of `step_us`; per step the device runs one kernel [kernel_from,
// kernel_to) and `extra` adds host events (relative µs, formatted per step).
std::string Steps(int n, int step_us, int kernel_from, int kernel_to, const std::string& extra) {
  std::string json = R"({"schemaVersion": 1, "traceEvents": [)";
  for (int k = 0; k < n; ++k) {
    const int base = k * step_us;
    json += fmt::format(
        R"({{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#{}", "pid": 1, "tid": 1, "ts": {}, "dur": {}}},
           {{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": {}, "dur": 1, "args": {{"correlation": {}}}}},
           {{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": {}, "dur": {}, "args": {{"correlation": {}}}}},)",
        k, base, step_us, base + kernel_from - 2, k + 1, base + kernel_from,
        kernel_to - kernel_from, k + 1);
    std::string e = extra;
    size_t pos;
    while ((pos = e.find("@")) != std::string::npos) {  // "@+N" -> base + N
      size_t end = pos + 2;
      while (end < e.size() && std::isdigit(static_cast<unsigned char>(e[end]))) ++end;
      const int offset = std::stoi(e.substr(pos + 2, end - pos - 2));
      e.replace(pos, end - pos, std::to_string(base + offset));
    }
    json += e;
  }
  json.pop_back();  // trailing comma
  json += "]}";
  return json;
}

TEST(ComputeRulesTest, DataLoaderStallWithAllThreeFrameworks) {
  // 3 steps of 1000 us; host in the DataLoader 0..400, kernel 400..1000:
  // stall 400/1000 = 40% > 20% abnormal, gain 400 us = 40% -> critical.
  auto a = AnalyseJson(Steps(
      3, 1000, 400, 1000,
      R"({"ph": "X", "cat": "user_annotation", "name": "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", "pid": 1, "tid": 1, "ts": @+0, "dur": 390},)"));
  const Finding* f = FindRule(a->findings, "data_loader_stall");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->category, Category::kDataPipeline);
  EXPECT_EQ(f->severity, Severity::kCritical);
  EXPECT_NEAR(f->evidence.value, 0.39, 1e-9);  // the loader covers 0..390 of each step
  EXPECT_NEAR(f->gain.share, 0.39, 1e-9);
  // Only the rank's framework's fixes: the stock DataLoader fix for PyTorch
  // (the trace names no device type, so no CUDA-only fix either).
  std::set<FixTarget> frameworks;
  for (const Recommendation& r : f->recommendations) frameworks.insert(r.framework);
  EXPECT_EQ(frameworks, std::set<FixTarget>{FixTarget::kPytorch});
}

// The loader the trace names picks the fix: a single-process iterator
// (num_workers=0) gets worker processes, a multiprocessing one more workers
// and a deeper prefetch (it has workers already), and a trace naming
// neither gets no loader fix but how to profile for the cause.
TEST(ComputeRulesTest, DataLoaderFixFollowsTheIteratorTheTraceNames) {
  const struct {
    const char* iterator;
    std::vector<std::string> fixes;
  } cases[] = {
      {"enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", {"dataloader_parallel"}},
      {"enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__",
       {"dataloader_more_workers"}},
      {"enumerate(DataPipe)#IterableWrapper.__next__", {"profile_with_stack"}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.iterator);
    auto a = AnalyseJson(Steps(
        3, 1000, 400, 1000,
        fmt::format(
            R"({{"ph": "X", "cat": "user_annotation", "name": "{}", "pid": 1, "tid": 1, "ts": @+0, "dur": 390}},)",
            c.iterator)));
    EXPECT_EQ(a->analysis.layout.dataloader_single_process,
              std::string_view(c.iterator).find("SingleProcess") != std::string_view::npos);
    EXPECT_EQ(a->analysis.layout.dataloader_workers,
              std::string_view(c.iterator).find("MultiProcessing") != std::string_view::npos);
    const Finding* f = FindRule(a->findings, "data_loader_stall");
    ASSERT_NE(f, nullptr);
    std::vector<std::string> fixes;
    for (const Recommendation& r : f->recommendations) fixes.push_back(r.fix_id);
    EXPECT_EQ(fixes, c.fixes) << f->title;
  }
}

TEST(ComputeRulesTest, RecurringGapNamesTheHostFunction) {
  // 4 steps of 20 ms: kernel 0..5 ms, then log_metrics 5..20 ms with no op:
  // a 15 ms gap at the end of every step, 75% of the step -> critical.
  auto a = AnalyseJson(Steps(
      4, 20000, 100, 5000,
      R"({"ph": "X", "cat": "user_annotation", "name": "log_metrics", "pid": 1, "tid": 1, "ts": @+5000, "dur": 14999},)"));
  const Finding* f = FindRule(a->findings, "recurring_gap");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kCritical);
  EXPECT_NE(f->title.find("log_metrics"), std::string::npos) << f->title;
  EXPECT_NE(f->title.find("15.0 ms"), std::string::npos) << f->title;
  EXPECT_EQ(f->steps.size(), 4u);
  EXPECT_NEAR(static_cast<double>(f->gain.ns_per_step), 15'000'000, 1);
  EXPECT_EQ(a->findings[0].rule, "recurring_gap") << "the largest gain ranks first";
}

// A group of many short gaps per step leads with its time per step, not
// with the mean gap (trace_filter read "idles 1.8 ms" for 117 ms per step).
TEST(ComputeRulesTest, RecurringGapTitleLeadsWithTimePerStep) {
  // 4 steps of 20 ms: kernels 0..5 ms and 10..12 ms; log_metrics on the host
  // in both idle spans: 5 + 8 = 13 ms per step in 2 gaps of 6.5 ms.
  auto a = AnalyseJson(Steps(
      4, 20000, 100, 5000,
      R"({"ph": "X", "cat": "kernel", "name": "k2", "pid": 0, "tid": 7, "ts": @+10000, "dur": 2000, "args": {"device": 0, "stream": 7}},
         {"ph": "X", "cat": "user_annotation", "name": "log_metrics", "pid": 1, "tid": 1, "ts": @+5000, "dur": 4999},
         {"ph": "X", "cat": "user_annotation", "name": "log_metrics", "pid": 1, "tid": 1, "ts": @+12000, "dur": 7999},)"));
  for (const Finding& f : a->findings) {
    if (f.rule != "recurring_gap") continue;
    const std::string per_step = fmt::format("idles {:.1f} ms per step", f.gain.ns_per_step / 1e6);
    EXPECT_NE(f.title.find(per_step), std::string::npos) << f.title << " / " << per_step;
  }
  EXPECT_NE(FindRule(a->findings, "recurring_gap"), nullptr);
}

TEST(ComputeRulesTest, SyncInStep) {
  // 3 steps of 1000 us: kernel 0..600 (launched at -2), then aten::item
  // 650..950: the 400 us gap is 75% covered by the sync -> synchronization;
  // 40% of the step > 5% abnormal -> critical.
  auto a = AnalyseJson(Steps(
      3, 1000, 2, 600,
      R"({"ph": "X", "cat": "cpu_op", "name": "aten::item", "pid": 1, "tid": 1, "ts": @+650, "dur": 300},)"));
  const Finding* f = FindRule(a->findings, "sync_in_step");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kCritical);
  EXPECT_NEAR(f->gain.share, 0.4, 0.01);
  ASSERT_FALSE(f->evidence.contributors.empty());
  EXPECT_EQ(f->evidence.contributors[0].name, "aten::item");
}

// A captured step keeps an operator's own host work (advisor::ScopedToRank).
// Each 10 ms step (t0 = 10 ms k, µs): aten::mm [t0+100, t0+300) launches a
// 1 ms kernel at t0+150 (it runs [t0+200, t0+1200)); aten::nonzero [t0+300,
// t0+3300) computes on the host for 3 ms, then launches a 100 µs kernel at
// t0+3200 (it runs [t0+3250, t0+3350)); aten::relu [t0+3300, t0+3500)
// launches a 1 ms kernel at t0+3400. The device idles [t0+1200, t0+3250)
// inside aten::nonzero: 2.05 ms, a gap inside one operator too long to be
// dispatch (IsDispatchGap), its host part up to the launch 50 µs before the
// gap's end: [t0+1200, t0+3200) is kept. The dispatch removed is the rest
// of [t0+150, t0+3420), the first launch to the end of the last: 1050 +
// 220 = 1270 µs a step, by hand (the marker's end moves with the host).
// Unscoped, the removal would take nonzero's host work as dispatch: 3270 µs.
TEST(ComputeRulesTest, ACapturedStepKeepsAnOperatorsOwnHostWork) {
  std::string events;
  auto op = [&](std::string_view name, int ts, int dur) {
    events +=
        fmt::format(R"({{"ph":"X","cat":"cpu_op","name":"{}","pid":1,"tid":1,"ts":{},"dur":{}}},)",
                    name, ts, dur);
  };
  auto launch = [&](std::string_view kernel, int at, int start, int dur, int corr) {
    events += fmt::format(
        R"({{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":{},"dur":20,"args":{{"correlation":{}}}}},)"
        R"({{"ph":"X","cat":"kernel","name":"{}","pid":0,"tid":7,"ts":{},"dur":{},"args":{{"correlation":{},"stream":7,"device":0}}}},)"
        R"({{"ph":"s","name":"ac2g","cat":"ac2g","id":{},"ts":{},"pid":1,"tid":1}},)"
        R"({{"ph":"f","bp":"e","name":"ac2g","cat":"ac2g","id":{},"ts":{},"pid":0,"tid":7}},)",
        at, corr, kernel, start, dur, corr, corr, at, corr, start);
  };
  for (int k = 0; k < 3; ++k) {
    const int t0 = k * 10'000;
    events += fmt::format(
        R"({{"ph":"X","cat":"user_annotation","name":"ProfilerStep#{}","pid":1,"tid":1,"ts":{},"dur":10000}},)",
        k, t0);
    op("aten::mm", t0 + 100, 200);
    launch("volta_sgemm_128x64_nn", t0 + 150, t0 + 200, 1000, 3 * k + 1);
    op("aten::nonzero", t0 + 300, 3000);
    launch("void at::native::index_elementwise_kernel<128, 4>", t0 + 3200, t0 + 3250, 100,
           3 * k + 2);
    op("aten::relu", t0 + 3300, 200);
    launch("void at::native::vectorized_elementwise_kernel<4>", t0 + 3400, t0 + 3450, 1000,
           3 * k + 3);
  }
  events.pop_back();
  auto a = AnalyseJson(R"({"traceEvents":[)" + events +
                       R"(],"deviceProperties":[{"id":0,"name":"Tesla V100"}]})");
  const analysis::RankAnalysis& r = a->analysis;
  ASSERT_TRUE(r.replay.available) << r.replay.why_not;
  EXPECT_EQ(r.replay.params.launch_latency_ns, 50'000);
  const std::vector<std::pair<int64_t, int64_t>> kept =
      NonDispatchHostNs(RuleContext{r, Thresholds{}});
  for (int64_t k = 0; k < 3; ++k) {
    const std::pair<int64_t, int64_t> nonzero{k * 10'000'000 + 1'200'000,
                                              k * 10'000'000 + 3'200'000};
    EXPECT_NE(std::find(kept.begin(), kept.end(), nonzero), kept.end()) << "step " << k;
  }
  analysis::WhatIf captured;
  captured.remove_launch_overhead = true;
  const analysis::WhatIf scoped = ScopedToRank(captured, r, Thresholds{});
  EXPECT_EQ(analysis::Predict(r.replay_graph, r.timeline.steps, r.replay, scoped).gain_ns_per_step,
            1'270'000);
  EXPECT_EQ(
      analysis::Predict(r.replay_graph, r.timeline.steps, r.replay, captured).gain_ns_per_step,
      3'270'000);
  // ScopedToRank leaves a fix without a dispatch removal as it is.
  analysis::WhatIf loader;
  loader.remove_data_loading = true;
  EXPECT_TRUE(ScopedToRank(loader, r, Thresholds{}).kept_host_ns.empty());
}

TEST(ComputeRulesTest, HostBoundDispatch) {
  // 3 steps of 2000 us; after the first kernel, ten short kernels each
  // preceded by a 100 us gap while the host sits in aten::add launching it:
  // 10 x 100 us = 1000 us idle per step = 50% -> dispatch gaps abnormal.
  // (Correlation ids "@+N": base + N, unique per step.)
  std::string extra;
  for (int i = 0; i < 10; ++i) {
    const int at = 200 + i * 150;
    extra += fmt::format(
        R"({{"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 1, "tid": 1, "ts": @+{}, "dur": 140}},
           {{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": @+{}, "dur": 5, "args": {{"correlation": @+{}}}}},
           {{"ph": "X", "cat": "kernel", "name": "add_kernel", "pid": 0, "tid": 7, "ts": @+{}, "dur": 50, "args": {{"correlation": @+{}}}}},)",
        at, at + 90, 1000 + i, at + 100, 1000 + i);
  }
  auto a = AnalyseJson(Steps(3, 2000, 2, 200, extra));
  const Finding* f = FindRule(a->findings, "host_bound_dispatch");
  ASSERT_NE(f, nullptr);
  EXPECT_GE(f->severity, Severity::kWarning);
  // The ten listed gaps, and the 2 us before the step's first kernel, half
  // of it inside that kernel's launch call (too short to list, counted as
  // time): 10 x 100 us + 1 us per step.
  EXPECT_NEAR(f->evidence.details[0].second, 11.0, 0.01) << "gaps per step";
  EXPECT_EQ(f->gain.ns_per_step, 1'001'000);
  double unlisted = -1;
  for (const auto& [name, value] : f->evidence.details)
    if (name == "unlisted_dispatch_share") unlisted = value;
  EXPECT_NEAR(unlisted, 1.0 / 1001, 1e-9);
  EXPECT_NE(f->title.find("inside aten::add"), std::string::npos) << f->title;
  // Captured as one graph, the launches no longer wait for the host.
  ASSERT_TRUE(f->prediction.available);
  EXPECT_GT(f->prediction.gain_share, 0.05);
}

TEST(SchedulingRulesTest, StepJitterListsOutliers) {
  // Step times 1, 1, 1, 1, 2 ms (the kernel fills each step): median 1 ms,
  // step 4 is an outlier; gain = mean - median = 1.2 - 1.0 = 0.2 ms.
  std::string json = R"({"schemaVersion": 1, "traceEvents": [)";
  int64_t t = 0;
  const int durations[] = {1000, 1000, 1000, 1000, 2000};
  for (int k = 0; k < 5; ++k) {
    json += fmt::format(
        R"({{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#{}", "pid": 1, "tid": 1, "ts": {}, "dur": {}}},
           {{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": {}, "dur": 1, "args": {{"correlation": {}}}}},
           {{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": {}, "dur": {}, "args": {{"correlation": {}}}}},)",
        k, t, durations[k], t, k + 1, t + 1, durations[k] - 2, k + 1);
    t += durations[k];
  }
  json.pop_back();
  json += "]}";
  auto a = AnalyseJson(json);
  const Finding* f = FindRule(a->findings, "step_jitter");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->steps, (std::vector<int64_t>{4}));
  EXPECT_EQ(f->gain.ns_per_step, 200'000);
  EXPECT_EQ(FindRule(a->findings, "sawtooth_utilization"), nullptr)
      << "one slow step is not a saw-tooth";
}

TEST(ComputeRulesTest, LowUtilizationReportsOnlyUnexplainedIdle) {
  // 4 steps of 1000 us; the device works 2..300 and nothing is traced on
  // the host afterwards: 700 us idle per step in sub-ms "untraced" gaps that
  // no specific rule claims. Utilization 29.8% < 60% abnormal; gain = the
  // idle 70.2% of the step less the 1 us before the kernel that the host
  // spends in its launch call (dispatch, host_bound_dispatch's) = 70.1% ->
  // critical.
  auto a = AnalyseJson(Steps(4, 1000, 2, 300, ""));
  const Finding* f = FindRule(a->findings, "low_device_utilization");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kCritical);
  EXPECT_NEAR(f->evidence.value, 0.298, 1e-9);
  EXPECT_NEAR(f->gain.share, 0.701, 1e-9);
  // What was measured: the listed gap 300..1000 us, untraced, every step.
  ASSERT_EQ(f->evidence.contributors.size(), 1u);
  EXPECT_EQ(f->evidence.contributors[0].name, "untraced");
  EXPECT_EQ(f->evidence.contributors[0].ns, 700'000);
}

TEST(SchedulingRulesTest, SawtoothUtilization) {
  // 6 steps of 1000 us whose kernel fills 90%, 50%, 90%, 50%, ...: every
  // consecutive change is 40 points and alternates. The low steps lose
  // 0.4 x 1000 us each: gain = 3 x 400 us / 6 steps = 200 us per step.
  std::string json = R"({"schemaVersion": 1, "traceEvents": [)";
  for (int k = 0; k < 6; ++k) {
    const int base = k * 1000;
    const int busy = k % 2 == 0 ? 900 : 500;
    json += fmt::format(
        R"({{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#{}", "pid": 1, "tid": 1, "ts": {}, "dur": 1000}},
           {{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": {}, "dur": 1, "args": {{"correlation": {}}}}},
           {{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": {}, "dur": {}, "args": {{"correlation": {}}}}},)",
        k, base, base, k + 1, base + 50, busy, k + 1);
  }
  json.pop_back();
  json += "]}";
  auto a = AnalyseJson(json);
  const Finding* f = FindRule(a->findings, "sawtooth_utilization");
  ASSERT_NE(f, nullptr);
  EXPECT_NEAR(f->evidence.value, 0.4, 1e-9);
  EXPECT_EQ(f->gain.ns_per_step, 200'000);
}

TEST(DistributedSetupRulesTest, DataParallelAndGlooBackend) {
  // nn.DataParallel with kernels on devices 0 and 1, in a gloo process group.
  auto a = AnalyseJson(
      R"({"schemaVersion": 1, "distributedInfo": {"backend": "gloo", "rank": 0, "world_size": 2},
    "traceEvents": [
    {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 0, "dur": 100},
    {"ph": "X", "cat": "user_annotation", "name": "DataParallel.forward", "pid": 1, "tid": 1, "ts": 1, "dur": 90},
    {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 5, "dur": 90},
    {"ph": "X", "cat": "kernel", "name": "k", "pid": 1, "tid": 7, "ts": 5, "dur": 90}]})");
  const Finding* dp = FindRule(a->findings, "data_parallel_single_process");
  ASSERT_NE(dp, nullptr);
  EXPECT_EQ(dp->evidence.value, 2);
  EXPECT_FALSE(dp->recommendations.empty());
  EXPECT_NE(FindRule(a->findings, "collective_backend"), nullptr);

  // DistributedDataParallel on NCCL, one device: neither fires.
  auto b = AnalyseJson(
      R"({"schemaVersion": 1, "distributedInfo": {"backend": "nccl", "rank": 0, "world_size": 2},
    "traceEvents": [
    {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 0, "dur": 100},
    {"ph": "X", "cat": "user_annotation", "name": "DistributedDataParallel.forward", "pid": 1, "tid": 1, "ts": 1, "dur": 90},
    {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 5, "dur": 90}]})");
  EXPECT_EQ(FindRule(b->findings, "data_parallel_single_process"), nullptr);
  EXPECT_EQ(FindRule(b->findings, "collective_backend"), nullptr);
}

TEST(SchedulingRulesTest, HealthyTraceHasNothingAboveInfo) {
  // 4 steps, the kernel covers 95% of each: every metric healthy.
  auto a = AnalyseJson(Steps(4, 1000, 2, 952, ""));
  for (const Finding& f : a->findings) {
    EXPECT_EQ(f.severity, Severity::kInfo) << f.rule << ": " << f.title;
  }
}

// Issue #3: on num_workers_0 the data loader is the top gap cause, with its
// share of step time (the plugin reports DataLoader 33.37% of the average
// step); on num_workers_4 it is not.
std::map<std::string, int64_t> GapTimeByCause(const analysis::RankAnalysis& a) {
  std::map<std::string, int64_t> by;
  for (const analysis::Gap& g : a.gaps.gaps) by[g.cause.kind] += g.dur_ns;
  return by;
}

std::string TopCause(const std::map<std::string, int64_t>& by) {
  return std::max_element(by.begin(), by.end(),
                          [](auto& x, auto& y) { return x.second < y.second; })
      ->first;
}

TEST(RealTraceRulesTest, ResNet50DataLoaderAcceptance) {
  PERFDX_REQUIRE_SHARED();
  auto nw0 = perfdx::testing::ImportFile(perfdx::testing::SharedPath(
      "traces/kineto/tbp/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz"));
  auto nw4 = perfdx::testing::ImportFile(perfdx::testing::SharedPath(
      "traces/kineto/tbp/resnet50_num_workers_4/worker0.1623212756351.pt.trace.json.gz"));
  ASSERT_TRUE(nw0.ok() && nw4.ok());
  auto a0 = Analyse(std::move(*nw0));
  auto a4 = Analyse(std::move(*nw4));

  const auto causes0 = GapTimeByCause(a0->analysis);
  EXPECT_EQ(TopCause(causes0), "data_loader");
  int64_t step_time = 0;
  for (const auto& s : a0->analysis.steps) step_time += s.window.dur_ns();
  const double loader_share =
      static_cast<double>(causes0.at("data_loader")) / static_cast<double>(step_time);
  EXPECT_NEAR(loader_share, 0.3337, 0.02) << "the plugin: DataLoader 33.37% of the step";
  EXPECT_NE(TopCause(GapTimeByCause(a4->analysis)), "data_loader");

  // Issue #4: a data-pipeline finding (warning or critical) on nw0 with the
  // DataLoader fix; nothing above info about data loading on nw4.
  const Finding* f0 = FindRule(a0->findings, "data_loader_stall");
  ASSERT_NE(f0, nullptr);
  EXPECT_GE(f0->severity, Severity::kWarning);
  bool has_workers = false;
  for (const Recommendation& r : f0->recommendations) {
    has_workers |=
        r.framework == FixTarget::kPytorch && r.snippet.find("num_workers") != std::string::npos;
  }
  EXPECT_TRUE(has_workers);
  for (const Finding& f : a4->findings) {
    if (f.category == Category::kDataPipeline) {
      EXPECT_EQ(f.severity, Severity::kInfo) << f.title;
    }
  }
}

TEST(RealTraceRulesTest, BundledCpuExampleFindsLoggingAndLoading) {
  auto t = perfdx::testing::ImportFile("examples/cpu_training/trace.json.gz");
  ASSERT_TRUE(t.ok()) << t.status().message();
  auto a = Analyse(std::move(*t));
  EXPECT_TRUE(a->analysis.cpu_only);
  ASSERT_EQ(a->analysis.steps.size(), 8u);
  // train_cpu.py sleeps 15 ms inside log_metrics after every step.
  const Finding* gap = FindRule(a->findings, "recurring_gap");
  ASSERT_NE(gap, nullptr);
  EXPECT_NE(gap->title.find("log_metrics"), std::string::npos) << gap->title;
  // A CPU-only trace has no device to idle (regression: the title said so).
  EXPECT_EQ(gap->title.rfind("Compute pauses", 0), 0u) << gap->title;
  EXPECT_GE(gap->gain.ns_per_step, 15'000'000);
  EXPECT_LT(gap->gain.ns_per_step, 20'000'000);
  EXPECT_NE(FindRule(a->findings, "data_loader_stall"), nullptr);
  // Its first two steps are its slowest (a shared 2-core machine warming
  // up, examples/cpu_corpus/README.md): the two smallest ProfilerStep
  // numbers in the trace. Regression: step_jitter was critical and asked
  // for stacks; warm-up is info, with the profile past it.
  std::vector<int64_t> marked;
  for (model::SliceId i = 0; i < a->trace.slices.size(); ++i) {
    const std::string_view name = a->trace.slice_name(i);
    if (name.starts_with("ProfilerStep#"))
      marked.push_back(std::stoll(std::string(name.substr(13))));
  }
  std::sort(marked.begin(), marked.end());
  ASSERT_GE(marked.size(), 2u);
  const Finding* jitter = FindRule(a->findings, "step_jitter");
  ASSERT_NE(jitter, nullptr);
  std::vector<int64_t> outliers = jitter->steps;
  std::sort(outliers.begin(), outliers.end());
  EXPECT_EQ(outliers, (std::vector<int64_t>{marked[0], marked[1]}));
  EXPECT_EQ(jitter->severity, Severity::kInfo);
  ASSERT_FALSE(jitter->recommendations.empty());
  EXPECT_EQ(jitter->recommendations.front().fix_id, "profile_past_warmup");
}

}  // namespace
}  // namespace perfdx::advisor
