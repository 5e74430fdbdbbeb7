// Issue 10's acceptance test: every trace under ../shared/traces and
// examples/ (all that perfdx's own discovery finds there, plus the kernel
// CSVs, which it reads only when named) through the analyze pipeline — load,
// AnalyzeRank, RunAdvisor, RunClusterAdvisor over each folder's ranks, as
// `perfdx analyze` does. Checks, per trace: the detected framework,
// platform and features against a table written by hand from what each
// trace is (SOURCES.md, examples/gpu_training/README.md); no recommendation
// for a target the rank does not have; no per-step gain above the step
// time; and no per-step gain at all without complete steps. A missing
// ../shared is a failure.
#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "advisor/rule_test_support.h"
#include "perfdx/advisor/advisor.h"
#include "perfdx/advisor/cluster_advisor.h"
#include "perfdx/advisor/fix_targets.h"
#include "perfdx/analysis/job_grouping.h"
#include "perfdx/analysis/rank_analysis.h"
#include "perfdx/formats/trace_loader.h"
#include "perfdx/io/discovery.h"

namespace perfdx::advisor {
namespace {

using testing::JobFindings;

namespace fs = std::filesystem;
using model::Framework;
using model::Platform;

struct Expected {
  std::string_view path_part;  // a part of the input's path that identifies it
  Framework framework;
  Platform platform;
  std::optional<bool> compiled;  // nullopt: not checked
  std::optional<bool> triton;
  std::optional<bool> ddp;
};

// By hand, from what each recording is.
constexpr Expected kExpected[] = {
    {"tbp/resnet50_num_workers_0/", Framework::kPytorch, Platform::kCuda, false, false, false},
    {"tbp/resnet50_num_workers_4/", Framework::kPytorch, Platform::kCuda, false, false, false},
    {"hta/amd_trace/", Framework::kPytorch, Platform::kRocm, std::nullopt, std::nullopt,
     std::nullopt},
    {"hta/cpu_only/", Framework::kPytorch, Platform::kCpu, false, false, std::nullopt},
    {"hta/triton_example/", Framework::kPytorch, Platform::kCuda, true, true, std::nullopt},
    {"hta/trace_diff/", Framework::kPytorch, Platform::kCuda, std::nullopt, std::nullopt, true},
    {"hta/trace_filter/", Framework::kPytorch, Platform::kCuda, std::nullopt, std::nullopt,
     std::nullopt},
    {"hta/nccl_parser_config/", Framework::kPytorch, Platform::kCuda, std::nullopt, std::nullopt,
     std::nullopt},
    {"hta/ns_resolution_trace/", Framework::kPytorch, Platform::kCuda, std::nullopt, std::nullopt,
     std::nullopt},
    {"hta/critical_path/", Framework::kPytorch, Platform::kCuda, std::nullopt, std::nullopt,
     std::nullopt},
    {"ascend/torch_npu_2rank_", Framework::kTorchNpu, Platform::kAscend, std::nullopt, std::nullopt,
     std::nullopt},
    {"mstt_samples/single_step_trace_view.json", Framework::kTorchNpu, Platform::kAscend,
     std::nullopt, std::nullopt, std::nullopt},
    // A kernel table on its own, outside a profile folder: either Ascend
    // framework could have written it (both frameworks' fixes are shown).
    {"mstt_samples/kernel_details_", Framework::kUnknown, Platform::kAscend, std::nullopt,
     std::nullopt, std::nullopt},
    {"examples/cpu_training/", Framework::kPytorch, Platform::kCpu, false, false, false},
    {"examples/cpu_corpus/", Framework::kPytorch, Platform::kCpu, false, false, false},
    {"gpu_training/traces/resnet50_", Framework::kPytorch, Platform::kCuda, false, false, false},
    {"gpu_training/traces/transformer_eager", Framework::kPytorch, Platform::kCuda, false, false,
     false},
    {"gpu_training/traces/transformer_compiled", Framework::kPytorch, Platform::kCuda, true, true,
     false},
};

const Expected* ExpectedFor(const std::string& path) {
  for (const Expected& e : kExpected) {
    if (path.find(e.path_part) != std::string::npos) return &e;
  }
  return nullptr;
}

// Every input under the two roots: what discovery finds walking them, and
// the kernel CSVs (discovery reads a .csv only when it is named).
std::vector<io::TraceInput> AllInputs() {
  std::vector<io::TraceInput> inputs;
  for (const char* root : {"../shared/traces", "examples"}) {
    EXPECT_TRUE(fs::is_directory(root))
        << root << " is missing: the test reads the shared traces in place";
    if (!fs::is_directory(root)) continue;
    auto found = io::DiscoverInputs({root});
    EXPECT_TRUE(found.ok()) << found.status().message();
    if (!found.ok()) continue;
    for (io::TraceInput& in : found->inputs) inputs.push_back(std::move(in));
    std::vector<std::string> csvs;
    for (const auto& entry : fs::recursive_directory_iterator(root)) {
      const std::string name = entry.path().filename().string();
      if (entry.is_regular_file() && name.rfind("kernel_details", 0) == 0 &&
          entry.path().extension() == ".csv" &&
          entry.path().string().find("ASCEND_PROFILER_OUTPUT") == std::string::npos) {
        csvs.push_back(entry.path().string());
      }
    }
    for (const std::string& csv : csvs) {
      bool known = false;
      for (const io::TraceInput& in : inputs) known |= in.trace_path == csv;
      if (known) continue;
      auto named = io::DiscoverInputs({csv});
      EXPECT_TRUE(named.ok()) << csv;
      if (named.ok()) {
        for (io::TraceInput& in : named->inputs) inputs.push_back(std::move(in));
      }
    }
  }
  return inputs;
}

struct Loaded {
  std::string path;
  model::Trace trace;
  analysis::RankAnalysis analysis;
  std::vector<Finding> findings;
};

void CheckFindings(const std::string& path, const Loaded& l, const std::vector<Finding>& findings) {
  const std::vector<FixTarget> targets = TargetsFor(l.trace.info.runtime);
  const bool complete = l.analysis.complete_steps;
  const int64_t step_ns = l.analysis.step_time.mean_ns;
  for (const Finding& f : findings) {
    SCOPED_TRACE(path + ": " + f.rule + ": " + f.title);
    for (const Recommendation& r : f.recommendations) {
      EXPECT_NE(std::find(targets.begin(), targets.end(), r.framework), targets.end())
          << "a fix for " << FixTargetName(r.framework);
    }
    EXPECT_GE(f.gain.ns_per_step, 0);
    EXPECT_LE(f.gain.share, 1.0);
    if (complete) {
      EXPECT_LE(f.gain.ns_per_step, step_ns);
    } else {
      EXPECT_EQ(f.gain.ns_per_step, 0);
      EXPECT_EQ(f.gain.share, 0);
      EXPECT_EQ(f.gain.basis, kNoCompleteStep);
      EXPECT_EQ(f.title.find("per step"), std::string::npos);
    }
  }
}

TEST(AcceptanceTest, EveryTraceGetsOnlyItsFrameworksFixesAndHonestGains) {
  const std::vector<io::TraceInput> inputs = AllInputs();
  ASSERT_GE(inputs.size(), 20u) << "the shared traces and examples";
  const Thresholds thresholds;
  std::map<std::string, std::vector<const Loaded*>> by_folder;
  std::vector<std::unique_ptr<Loaded>> all;
  size_t checked = 0;
  for (const io::TraceInput& input : inputs) {
    const std::string path = input.profile_dir.empty() ? input.trace_path : input.profile_dir;
    SCOPED_TRACE(path);
    const Expected* want = ExpectedFor(input.trace_path);
    EXPECT_NE(want, nullptr) << "no expectation written for " << input.trace_path;
    auto trace = formats::ImportInput(input, {});
    ASSERT_TRUE(trace.ok()) << trace.status().message();
    auto l = std::make_unique<Loaded>();
    l->path = path;
    l->trace = std::move(*trace);
    const model::FrameworkInfo& rt = l->trace.info.runtime;
    if (want != nullptr) {
      EXPECT_EQ(rt.framework, want->framework) << model::FrameworkName(rt.framework);
      EXPECT_EQ(rt.platform, want->platform) << model::PlatformName(rt.platform);
      if (want->compiled) {
        EXPECT_EQ(rt.features.compiled, *want->compiled);
      }
      if (want->triton) {
        EXPECT_EQ(rt.features.triton, *want->triton);
      }
      if (want->ddp) {
        EXPECT_EQ(rt.features.ddp, *want->ddp);
      }
    }
    l->analysis = analysis::AnalyzeRank(l->trace, {});
    l->findings = RunAdvisor(l->analysis, thresholds);
    CheckFindings(path, *l, l->findings);
    ++checked;
    by_folder[fs::path(path).parent_path().string()].push_back(l.get());
    all.push_back(std::move(l));
  }
  // The ranks of one folder together, as `perfdx analyze FOLDER` runs them:
  // grouped into jobs, the cross-rank rules per job (pipeline/analyze.cc).
  for (const auto& [folder, ranks] : by_folder) {
    if (ranks.size() < 2) continue;
    std::vector<const analysis::RankAnalysis*> analyses;
    for (const Loaded* l : ranks) analyses.push_back(&l->analysis);
    std::vector<Finding> cluster;
    for (const analysis::Job& job : analysis::GroupIntoJobs(analyses).jobs) {
      if (job.members.size() < 2) continue;
      std::vector<const analysis::RankAnalysis*> members;
      for (size_t m : job.members) members.push_back(analyses[m]);
      for (Finding& f : JobFindings(members, thresholds)) cluster.push_back(std::move(f));
    }
    for (const Finding& f : cluster) {
      for (const Loaded* l : ranks) {
        if (l->trace.info.rank == f.rank) CheckFindings(folder, *l, {f});
      }
    }
  }
  EXPECT_EQ(checked, inputs.size());
}

// The two traces the issue quotes: per-step gains without a complete step.
TEST(AcceptanceTest, NoPerStepGainWithoutCompleteSteps) {
  for (const char* path : {"../shared/traces/kineto/hta/triton_example/triton_example.json.gz",
                           "../shared/traces/ascend/mstt_samples/kernel_details_pipe_util.csv"}) {
    SCOPED_TRACE(path);
    auto found = io::DiscoverInputs({path});
    ASSERT_TRUE(found.ok()) << found.status().message();
    ASSERT_EQ(found->inputs.size(), 1u);
    auto trace = formats::ImportInput(found->inputs[0], {});
    ASSERT_TRUE(trace.ok()) << trace.status().message();
    const analysis::RankAnalysis a = analysis::AnalyzeRank(*trace, {});
    EXPECT_FALSE(a.complete_steps);
    const std::vector<Finding> findings = RunAdvisor(a, {});
    ASSERT_FALSE(findings.empty());
    for (const Finding& f : findings) {
      EXPECT_EQ(f.gain.ns_per_step, 0) << f.title;
      EXPECT_EQ(f.gain.basis, kNoCompleteStep) << f.title;
    }
  }
}

}  // namespace
}  // namespace perfdx::advisor
