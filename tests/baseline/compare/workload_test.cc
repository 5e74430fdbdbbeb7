// check and diff warn when two runs are not the same workload (issue 10).
#include "perfdx/baseline/compare/workload.h"

#include <gtest/gtest.h>

#include "perfdx/baseline/record/run_input.h"

namespace perfdx::baseline {
namespace {

RunRecord WithItems(std::vector<RunItem> items) {
  RunRecord r;
  r.items = std::move(items);
  return r;
}

// Shares by hand: a = {mm 0.5, conv 0.5}, b = {mm 0.2, bmm 0.8}: 0.2 of the
// operator time is in shared names, below the 0.3 limit.
TEST(SameWorkload, SharedTimeIsTheSmallerShareOfCommonNames) {
  const RunRecord a =
      WithItems({{"aten::mm", "operator", 1, 50}, {"aten::conv2d", "operator", 1, 50}});
  const RunRecord b =
      WithItems({{"aten::mm", "operator", 1, 20}, {"aten::bmm", "operator", 1, 80}});
  auto why = WhyNotSameWorkload(a, b);
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("only 20% of their operator time"), std::string::npos) << *why;
  // {mm 0.6, conv 0.4} vs {mm 0.35, conv 0.65}: 0.35 + 0.4 = 0.75 shared.
  const RunRecord c =
      WithItems({{"aten::mm", "operator", 1, 60}, {"aten::conv2d", "operator", 1, 40}});
  const RunRecord d =
      WithItems({{"aten::mm", "operator", 1, 35}, {"aten::conv2d", "operator", 1, 65}});
  EXPECT_FALSE(WhyNotSameWorkload(c, d).has_value());
}

// Either kind suffices: a new precision changes every GEMM kernel but keeps
// the operators.
TEST(SameWorkload, OperatorsOrKernelsSuffice) {
  const RunRecord a = WithItems({{"aten::mm", "operator", 1, 10}, {"sgemm_a", "kernel", 1, 10}});
  const RunRecord b = WithItems({{"aten::mm", "operator", 1, 10}, {"hgemm_b", "kernel", 1, 10}});
  EXPECT_FALSE(WhyNotSameWorkload(a, b).has_value());
}

TEST(SameWorkload, StepLogsHaveNothingToCompare) {
  EXPECT_FALSE(WhyNotSameWorkload(RunRecord{}, RunRecord{}).has_value());
}

// The project's own GPU examples: the ResNet-50 runs are one workload in
// FP32 and bf16, eager and compiled transformers are one, a ResNet and a
// transformer are not.
TEST(SameWorkload, ProjectGpuExamples) {
  auto load = [](const std::string& name) {
    auto r = LoadRunInput("examples/gpu_training/traces/" + name + ".json.gz", {});
    EXPECT_TRUE(r.ok()) << r.status().message();
    return r.ok() ? *r : RunRecord{};
  };
  const RunRecord fp32 = load("resnet50_workers8_fp32");
  const RunRecord bf16 = load("resnet50_workers8_bf16");
  const RunRecord eager = load("transformer_eager");
  const RunRecord compiled = load("transformer_compiled");
  EXPECT_FALSE(WhyNotSameWorkload(fp32, bf16).has_value());
  EXPECT_FALSE(WhyNotSameWorkload(eager, compiled).has_value());
  EXPECT_TRUE(WhyNotSameWorkload(fp32, eager).has_value());
  EXPECT_TRUE(WhyNotSameWorkload(bf16, compiled).has_value());
}

}  // namespace
}  // namespace perfdx::baseline
