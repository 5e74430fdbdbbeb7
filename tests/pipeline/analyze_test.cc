// The analyze pipeline as a library call: it frees each trace once analysed, groups the
// ranks into jobs, and runs the cross-rank rules per job only.
#include "perfdx/pipeline/analyze.h"

#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "perfdx/analysis/replay.h"
#include "perfdx/report/analyze_report.h"
#include "perfdx/report/html_report.h"
#include "perfdx/report/markdown_report.h"
#include "perfdx/report/text_report.h"
#include "test_support.h"

namespace perfdx::pipeline {
namespace {

using perfdx::testing::SharedPath;

Result<report::AnalyzeReport> Analyze(std::vector<std::string> paths,
                                      std::vector<int64_t> ranks = {}) {
  AnalyzeRequest request;
  request.paths = std::move(paths);
  request.ranks = std::move(ranks);
  return BuildAnalyzeReport(request);
}

size_t CountWarningsWith(const report::AnalyzeReport& r, std::string_view text) {
  size_t n = 0;
  for (const std::string& w : r.warnings) n += w.find(text) != std::string::npos;
  return n;
}

// Regression (kineto_analyze fuzzer): hostile times put the replay's error
// at 3.3e28 ns, and the overlap check cast it to int64 (undefined; UBSan
// stops the sanitizer build here without the fix). The request is the
// fuzzer's (its window from the input's size, its small limits).
TEST(AnalyzePipeline, AReplayErrorBeyondInt64IsSaturatedNotCast) {
  AnalyzeRequest request;
  request.paths = {"tests/data/fuzz/replay_error_overflow_1.pt.trace.json"};
  request.load.threads = 1;
  request.load.limits.max_decompressed_bytes = 4 << 20;
  request.load.limits.ratio_floor_bytes = 1 << 20;
  request.analysis.window = analysis::AnalysisWindow::kHta;
  auto report = BuildAnalyzeReport(request);
  ASSERT_TRUE(report.ok()) << report.status().message();
  EXPECT_FALSE(report::RenderAnalyzeJson(*report).empty());
}

// `perfdx whatif --remove launch-overhead` replays the fix that
// host_bound_dispatch replays, scoped to each rank the same way
// (advisor::ScopedToRank keeps the host work of other causes): the same
// gain on both ranks of HTA's trace_filter job, whose host runs long
// stretches of untraced code between launches. Before the scoping, the
// finding and the command disagreed as soon as one of them kept that time.
TEST(AnalyzePipeline, WhatIfLaunchOverheadIsTheDispatchFindingsFix) {
  PERFDX_REQUIRE_SHARED();
  AnalyzeRequest request;
  request.paths = {SharedPath("traces/kineto/hta/trace_filter")};
  analysis::WhatIf fix;
  fix.remove_launch_overhead = true;
  request.what_if = fix;
  auto r = BuildAnalyzeReport(request);
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->ranks.size(), 2u);
  for (const report::AnalyzeRank& rank : r->ranks) {
    const auto f =
        std::find_if(rank.findings.begin(), rank.findings.end(),
                     [](const advisor::Finding& x) { return x.rule == "host_bound_dispatch"; });
    ASSERT_NE(f, rank.findings.end()) << rank.analysis.info().path;
    ASSERT_TRUE(f->prediction.available && rank.what_if.available);
    EXPECT_EQ(rank.what_if.what_if, "remove launch-overhead");
    EXPECT_EQ(rank.what_if.gain_ns_per_step, f->prediction.gain_ns_per_step)
        << rank.analysis.info().path;
    // The host's part of the gaps of other causes is kept: the scoped fix
    // saves less than the dispatch removal without them.
    analysis::WhatIf whole;
    whole.remove_launch_overhead = true;
    const analysis::RankAnalysis& a = rank.analysis;
    EXPECT_LT(
        f->prediction.gain_ns_per_step,
        analysis::Predict(a.replay_graph, a.timeline.steps, a.replay, whole).gain_ns_per_step);
  }
}

// Two ranks of one NCCL job (same world size, overlapping spans, the same
// kernels) are one job.
TEST(AnalyzePipeline, TwoRanksOfOneKinetoJobAreOneJob) {
  PERFDX_REQUIRE_SHARED();
  auto r = Analyze({SharedPath("traces/kineto/hta/trace_filter")});
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->ranks.size(), 2u);
  ASSERT_EQ(r->jobs.size(), 1u);
  EXPECT_EQ(r->jobs[0].members, (std::vector<size_t>{0, 1}));
  EXPECT_EQ(CountWarningsWith(*r, "job of its own"), 0u);
}

std::vector<std::string> ExposedCommunicationFixes(const report::AnalyzeRank& rank) {
  std::vector<std::string> ids;
  for (const advisor::Finding& f : rank.findings) {
    if (f.rule != "exposed_communication") continue;
    for (const advisor::Recommendation& r : f.recommendations) ids.push_back(r.fix_id);
  }
  return ids;
}

// HTA's trace_filter ranks wait 168 ms a step on SendRecv kernels, and no
// fix applies (no all-reduce to bucket or overlap). One rank alone is told
// to profile every rank and analyse them together; the two analysed as one
// job are not: the job's cluster section is that analysis.
TEST(AnalyzePipeline, ProfileEveryRankOnlyWhereThePeersAreMissing) {
  PERFDX_REQUIRE_SHARED();
  auto alone = Analyze({SharedPath("traces/kineto/hta/trace_filter/sampled_rank-0.json.gz")});
  ASSERT_TRUE(alone.ok()) << alone.status().message();
  ASSERT_EQ(alone->ranks.size(), 1u);
  EXPECT_EQ(ExposedCommunicationFixes(alone->ranks[0]),
            (std::vector<std::string>{"profile_all_ranks"}));
  auto job = Analyze({SharedPath("traces/kineto/hta/trace_filter")});
  ASSERT_TRUE(job.ok()) << job.status().message();
  ASSERT_EQ(job->ranks.size(), 2u);
  ASSERT_EQ(job->jobs.size(), 1u);
  for (const report::AnalyzeRank& rank : job->ranks) {
    EXPECT_TRUE(ExposedCommunicationFixes(rank).empty());
    EXPECT_TRUE(
        std::any_of(rank.findings.begin(), rank.findings.end(),
                    [](const advisor::Finding& f) { return f.rule == "exposed_communication"; }));
  }
}

TEST(AnalyzePipeline, TwoAscendRanksOfOneRunAreOneJob) {
  PERFDX_REQUIRE_SHARED();
  auto r = Analyze({SharedPath("traces/ascend/torch_npu_2rank_text_level1")});
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->jobs.size(), 1u);
  EXPECT_EQ(r->jobs[0].members.size(), 2u);
}

// Issue 10: a ResNet-50 and a transformer given together are not ranks of one
// job; each is analysed on its own, with a warning, and no slow-rank finding.
TEST(AnalyzePipeline, DifferentWorkloadsAreSeparateJobs) {
  auto r = Analyze({"examples/gpu_training/traces"});
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->ranks.size(), 5u);
  EXPECT_EQ(r->jobs.size(), 5u);
  for (const report::AnalyzeJob& job : r->jobs) {
    EXPECT_EQ(job.members.size(), 1u);
    EXPECT_TRUE(job.findings.empty());
  }
  EXPECT_EQ(CountWarningsWith(*r, "job of its own"), 4u);
}

// Two runs of the same Ascend job at different profiler levels: the same
// rank numbers, so two jobs of two ranks each.
TEST(AnalyzePipeline, TwoRunsOfTheSameRanksAreTwoJobs) {
  PERFDX_REQUIRE_SHARED();
  auto r = Analyze({SharedPath("traces/ascend/torch_npu_2rank_text_level0"),
                    SharedPath("traces/ascend/torch_npu_2rank_text_level1")});
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->ranks.size(), 4u);
  ASSERT_EQ(r->jobs.size(), 2u);
  for (const report::AnalyzeJob& job : r->jobs) {
    ASSERT_EQ(job.members.size(), 2u);
    const std::string& a = r->ranks[job.members[0]].analysis.info().path;
    const std::string& b = r->ranks[job.members[1]].analysis.info().path;
    EXPECT_EQ(a.find("level0") != std::string::npos, b.find("level0") != std::string::npos)
        << a << " " << b;
  }
  // The first trace of the second job says why it is not a rank of the first.
  EXPECT_EQ(CountWarningsWith(*r, "job of its own"), 1u);
  EXPECT_EQ(CountWarningsWith(*r, "both are rank 0"), 1u);
}

// Every finding names the rank and the trace it comes from.
TEST(AnalyzePipeline, FindingsNameTheirRankAndPath) {
  PERFDX_REQUIRE_SHARED();
  auto r = Analyze({SharedPath("traces/kineto/hta/trace_filter")});
  ASSERT_TRUE(r.ok()) << r.status().message();
  size_t findings = 0;
  for (const report::AnalyzeRank& rank : r->ranks) {
    for (const advisor::Finding& f : rank.findings) {
      ++findings;
      EXPECT_EQ(f.rank, rank.analysis.info().rank) << f.rule;
      EXPECT_EQ(f.path, rank.analysis.info().path) << f.rule;
      EXPECT_FALSE(f.path.empty()) << f.rule;
    }
  }
  EXPECT_GT(findings, 0u);
}

TEST(AnalyzePipeline, RankFilter) {
  PERFDX_REQUIRE_SHARED();
  auto one = Analyze({SharedPath("traces/kineto/hta/trace_filter")}, {1});
  ASSERT_TRUE(one.ok()) << one.status().message();
  ASSERT_EQ(one->ranks.size(), 1u);
  EXPECT_EQ(one->ranks[0].analysis.info().rank, 1);
  auto none = Analyze({SharedPath("traces/kineto/hta/trace_filter")}, {7});
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.status().message().find("--rank"), std::string::npos);
}

// Issue #13: each trace is freed once its rank is analysed (memory bounded by
// the ranks in flight); what the report says does not change, nor does it
// with the number of loader threads.
TEST(AnalyzePipeline, TracesAreFreedOnceAnalysedUnlessKept) {
  PERFDX_REQUIRE_SHARED();
  AnalyzeRequest request;
  request.paths = {SharedPath("traces/kineto/hta/trace_filter")};
  request.keep_traces = true;
  auto kept = BuildAnalyzeReport(request);
  ASSERT_TRUE(kept.ok()) << kept.status().message();
  ASSERT_EQ(kept->traces.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(kept->ranks[i].analysis.trace, kept->traces[i].get());
    EXPECT_EQ(kept->ranks[i].analysis.info().path, kept->traces[i]->info.path);
    EXPECT_EQ(kept->ranks[i].analysis.info().rank, static_cast<int64_t>(i));
  }
  request.keep_traces = false;
  auto freed = BuildAnalyzeReport(request);
  ASSERT_TRUE(freed.ok()) << freed.status().message();
  EXPECT_TRUE(freed->traces.empty());
  ASSERT_EQ(freed->ranks.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(freed->ranks[i].analysis.trace, nullptr);
    // The activity sets go with the trace; annotate, which reads them, keeps both.
    EXPECT_TRUE(freed->ranks[i].analysis.activity.device_busy.empty());
    EXPECT_FALSE(kept->ranks[i].analysis.activity.device_busy.empty());
  }
  // No output reads what was freed.
  EXPECT_EQ(report::RenderAnalyzeJson(*freed), report::RenderAnalyzeJson(*kept));
  EXPECT_EQ(report::RenderAnalyzeText(*freed), report::RenderAnalyzeText(*kept));
  EXPECT_EQ(report::RenderAnalyzeMarkdown(*freed), report::RenderAnalyzeMarkdown(*kept));
  EXPECT_EQ(report::RenderAnalyzeHtml(*freed), report::RenderAnalyzeHtml(*kept));
}

// Folders: a rank per thread. Single traces: the second thread decodes
// (past 64 MiB), finalizes and analyses beside the first (AnalysisOptions::
// threads).
TEST(AnalyzePipeline, OneLoaderThreadOrTwoGiveTheSameReport) {
  PERFDX_REQUIRE_SHARED();
  for (const std::string& path :
       {std::string("examples/gpu_training/traces"), SharedPath("traces/kineto/hta/trace_filter"),
        SharedPath("traces/ascend/torch_npu_2rank_text_level1"),
        SharedPath("traces/kineto/hta/trace_diff/control/control.json.gz"),
        SharedPath(
            "traces/kineto/tbp/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz")}) {
    AnalyzeRequest request;
    request.paths = {path};
    request.load.threads = 1;
    auto one = BuildAnalyzeReport(request);
    request.load.threads = 2;
    auto two = BuildAnalyzeReport(request);
    ASSERT_TRUE(one.ok() && two.ok()) << path;
    EXPECT_EQ(report::RenderAnalyzeJson(*one), report::RenderAnalyzeJson(*two)) << path;
    EXPECT_EQ(one->warnings, two->warnings) << path;
  }
}

TEST(AnalyzePipeline, FailOnLevels) {
  report::AnalyzeReport r;
  r.ranks.emplace_back();
  advisor::Finding f;
  f.severity = advisor::Severity::kWarning;
  r.ranks[0].findings.push_back(f);
  EXPECT_TRUE(HasFindingAtOrAbove(r, advisor::Severity::kInfo));
  EXPECT_TRUE(HasFindingAtOrAbove(r, advisor::Severity::kWarning));
  EXPECT_FALSE(HasFindingAtOrAbove(r, advisor::Severity::kCritical));
  r.jobs.emplace_back();
  f.severity = advisor::Severity::kCritical;
  r.jobs[0].findings.push_back(f);
  EXPECT_TRUE(HasFindingAtOrAbove(r, advisor::Severity::kCritical));
}

// A bad input is an error naming the file, not a partial report.
TEST(AnalyzePipeline, MissingInputIsAnError) {
  auto r = Analyze({"no/such/trace.json"});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("no/such/trace.json"), std::string::npos);
}

}  // namespace
}  // namespace perfdx::pipeline
