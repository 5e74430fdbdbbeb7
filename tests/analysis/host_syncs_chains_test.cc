// Host syncs / small copies and elementwise chains on hand-built CPU traces,
// every expected number worked out in the comments; the name tables, one
// test per name.
#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "perfdx/analysis/elementwise_chains.h"
#include "perfdx/analysis/host_syncs.h"
#include "perfdx/analysis/op_attribution.h"
#include "perfdx/analysis/steps.h"
#include "test_support.h"

namespace perfdx::analysis {
namespace {

using perfdx::testing::ImportString;

std::string Op(const std::string& name, int64_t ts, int64_t dur, const std::string& args = "") {
  return fmt::format(
      R"({{"ph": "X", "cat": "cpu_op", "name": "{}", "pid": 1, "tid": 1, "ts": {}, "dur": {}{}}},)",
      name, ts, dur, args.empty() ? "" : ", \"args\": " + args);
}

std::string Step(int id, int64_t ts, int64_t dur) {
  return fmt::format(
      R"({{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#{}", "pid": 1, "tid": 1, "ts": {}, "dur": {}}},)",
      id, ts, dur);
}

model::Trace Import(std::string events) {
  events.pop_back();  // trailing comma
  auto t = ImportString(R"({"schemaVersion": 1, "traceEvents": [)" + events + "]}");
  EXPECT_TRUE(t.ok()) << t.status().message();
  return std::move(*t);
}

TEST(HostSyncTableTest, SyncNames) {
  for (const char* name :
       {"aten::item", "aten::_local_scalar_dense", "cudaStreamSynchronize", "cudaDeviceSynchronize",
        "cudaEventSynchronize", "cudaMemcpy", "hipStreamSynchronize", "hipDeviceSynchronize",
        "hipMemcpy", "aclrtSynchronizeStream", "aclrtSynchronizeDevice", "aclrtSynchronizeEvent",
        "AscendCL@aclrtSynchronizeStream", "AscendCL@aclrtSynchronizeDevice",
        "AscendCL@aclrtSynchronizeEvent"}) {
    EXPECT_EQ(ClassifyHostSync(name), HostSyncClass::kSync) << name;
  }
}

TEST(HostSyncTableTest, CopyNames) {
  EXPECT_EQ(ClassifyHostSync("aten::to"), HostSyncClass::kCopy);
  EXPECT_EQ(ClassifyHostSync("aten::_to_copy"), HostSyncClass::kCopy);
  EXPECT_EQ(ClassifyHostSync("aten::copy_"), HostSyncClass::kCopy);
}

TEST(HostSyncTableTest, LookAlikesAreNotSyncsOrCopies) {
  // Exact names only: none of these contains a sync or a copy.
  for (const char* name :
       {"aten::itemsize", "aten::to_dense", "aten::_to_copy_backward", "aten::copy",
        "aten::copysign", "cudaMemcpyAsync", "cudaStreamSynchronize2", "aten::items",
        "aten::tolist", "Memcpy DtoH (Device -> Pageable)", "aten::mul"}) {
    EXPECT_EQ(ClassifyHostSync(name), HostSyncClass::kNone) << name;
  }
}

TEST(HostSyncTableTest, FirstInputElements) {
  EXPECT_EQ(FirstInputElements("[[32, 10], []]"), 320);
  EXPECT_EQ(FirstInputElements("[[], [3]]"), 1);  // a 0-dim tensor
  EXPECT_EQ(FirstInputElements("[[64,64],[64,64]]"), 4096);
  EXPECT_EQ(FirstInputElements(" [ [2, 3, 4] ]"), 24);
  EXPECT_EQ(FirstInputElements("[]"), -1);
  EXPECT_EQ(FirstInputElements("32,10;1"), -1);  // not Kineto's list
  EXPECT_EQ(FirstInputElements("[[32, x]]"), -1);
}

TEST(HostSyncsTest, CountsOutermostSmallUserCallsPerStep) {
  // Two 3000 us steps; per step (offsets in us):
  //   aten::item 100/120/140 (dur 5, each with _local_scalar_dense inside): 3 syncs,
  //     one cluster 100..145 (15 us apart < 500 us) = 45 us
  //   aten::to 300 dur 200, no shapes: longer than 50 us, not small
  //   aten::copy_ 1000 dur 2, 64x64 = 4096 elements: small; 855 us after the
  //     items: a cluster of its own, 2 us
  //   aten::copy_ 1050 dur 2, 128x64 = 8192 elements: not small
  //   aten::to 1600 dur 4 (_to_copy, copy_ inside): small, 598 us after the
  //     copy_: a cluster of 4 us
  //   aten::mul 2500 dur 10 with aten::to inside: the mul's, not counted
  // => 3 syncs + 2 copies per step, span 45 + 2 + 4 = 51 us per step.
  std::string e;
  for (int k = 0; k < 2; ++k) {
    const int64_t b = k * 3000;
    e += Step(k, b, 3000);
    for (int j = 0; j < 3; ++j) {
      e += Op("aten::item", b + 100 + 20 * j, 5) +
           Op("aten::_local_scalar_dense", b + 101 + 20 * j, 3);
    }
    e += Op("aten::to", b + 300, 200);
    e += Op("aten::copy_", b + 1000, 2, R"({"Input Dims": [[64, 64], [64, 64]]})");
    e += Op("aten::copy_", b + 1050, 2, R"({"Input Dims": [[128, 64], [128, 64]]})");
    e += Op("aten::to", b + 1600, 4) + Op("aten::_to_copy", b + 1601, 2) +
         Op("aten::copy_", b + 1602, 1);
    e += Op("aten::mul", b + 2500, 10) + Op("aten::to", b + 2501, 2);
  }
  const model::Trace t = Import(e);
  const StepTimeline timeline = BuildSteps(t);
  ASSERT_EQ(timeline.steps.size(), 2u);
  const HostSyncSummary h = CountHostSyncs(t, timeline.steps);
  EXPECT_EQ(h.syncs, 6u);
  EXPECT_EQ(h.copies, 4u);
  EXPECT_EQ(h.span_ns, 2 * 51'000);
  EXPECT_EQ(h.sync_call_ns, 6 * 5'000);
  EXPECT_EQ(h.copy_call_ns, 2 * (2'000 + 4'000));
  EXPECT_TRUE(h.shapes_recorded);
  EXPECT_EQ(h.per_step, (std::vector<uint64_t>{5, 5}));
  ASSERT_EQ(h.ops.size(), 3u);
  EXPECT_EQ(h.ops[0].name, "aten::item");  // 45 us per step
  EXPECT_EQ(h.ops[0].count, 6u);
  EXPECT_EQ(h.ops[0].total_ns, 90'000);
  EXPECT_EQ(h.ops[1].name, "aten::to");
  EXPECT_EQ(h.ops[1].total_ns, 8'000);
  EXPECT_EQ(h.ops[2].name, "aten::copy_");
  EXPECT_EQ(h.ops[2].total_ns, 4'000);
  ASSERT_EQ(h.phases.size(), 1u);
  EXPECT_EQ(h.phases[0].phase, "forward");
  // Offsets 100, 120, 140, 1000, 1600 of 3000 us: mean 2960 / 5 / 3000.
  EXPECT_NEAR(h.mean_offset_share, 2960.0 / 5 / 3000, 1e-12);
}

TEST(HostSyncsTest, LegacyRoundingDoesNotSplitOneCall) {
  // torch 1.13's export (whole us): aten::item 865 dur 3 and its
  // _local_scalar_dense at 868 dur 1 end past each other and nest in
  // nothing; aten::to 900 dur 0 and _to_copy 900 dur 0. One sync, one copy.
  // A zero-length aten::mul at 950 with an aten::to at 950 inside: the mul's.
  const model::Trace t =
      Import(Step(1, 0, 1000) + Op("aten::item", 865, 3) + Op("aten::_local_scalar_dense", 868, 1) +
             Op("aten::to", 900, 0) + Op("aten::_to_copy", 900, 0) + Op("aten::copy_", 901, 0) +
             Op("aten::mul", 950, 0) + Op("aten::to", 950, 0));
  const HostSyncSummary h = CountHostSyncs(t, BuildSteps(t).steps);
  EXPECT_EQ(h.syncs, 1u);
  EXPECT_EQ(h.copies, 1u);
}

// Regression: `(pred == c).sum().item()` 256 times in a row (the CPU
// corpus, whole microseconds). aten::sum of a bool tensor calls aten::to
// inside (the sum's copy, not the user's); the read that starts within a
// microsecond of its end is the user's own all the same (39 of 256 reads
// were lost). Then the user's .to(float64), whose _to_copy's copy_ escapes
// its parent by rounding: one copy.
TEST(HostSyncsTest, AUsersReadIsNeverAnotherCallsRoundedInner) {
  const model::Trace t =
      Import(Step(1, 0, 1000) + Op("aten::item", 541, 2) + Op("aten::_local_scalar_dense", 542, 0) +
             Op("aten::eq", 544, 1) + Op("aten::sum", 546, 10) + Op("aten::to", 553, 2) +
             Op("aten::_to_copy", 554, 2) + Op("aten::copy_", 555, 0) + Op("aten::fill_", 556, 0) +
             Op("aten::item", 557, 0) + Op("aten::_local_scalar_dense", 557, 0) +
             Op("aten::select", 560, 0) + Op("aten::to", 561, 2) + Op("aten::_to_copy", 561, 1) +
             Op("aten::empty_strided", 562, 0) + Op("aten::copy_", 563, 0));
  const HostSyncSummary h = CountHostSyncs(t, BuildSteps(t).steps);
  EXPECT_EQ(h.syncs, 2u);
  EXPECT_EQ(h.copies, 1u);
}

TEST(HostSyncsTest, PhasesFromTheCallersAncestors) {
  // One sync inside optimizer.step(), one inside an autograd function, one
  // in the step body.
  const model::Trace t = Import(
      Step(1, 0, 1000) + Op("aten::item", 100, 5) +
      Op("autograd::engine::evaluate_function: MulBackward0", 300, 50) + Op("aten::item", 310, 5) +
      R"({"ph": "X", "cat": "user_annotation", "name": "Optimizer.step#SGD.step", "pid": 1, "tid": 1, "ts": 600, "dur": 100},)" +
      Op("aten::item", 610, 5));
  const HostSyncSummary h = CountHostSyncs(t, BuildSteps(t).steps);
  ASSERT_EQ(h.phases.size(), 3u);
  for (const HostSyncPhase& p : h.phases) EXPECT_EQ(p.count, 1u) << p.phase;
  std::vector<std::string> names;
  for (const HostSyncPhase& p : h.phases) names.push_back(p.phase);
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"backward", "forward", "optimizer"}));
}

TEST(ElementwiseTableTest, ElementwiseNames) {
  for (const char* name :
       {"aten::add",        "aten::add_",      "aten::sub",     "aten::sub_",      "aten::rsub",
        "aten::mul",        "aten::mul_",      "aten::div",     "aten::div_",      "aten::neg",
        "aten::exp",        "aten::log",       "aten::tanh",    "aten::tanh_",     "aten::sigmoid",
        "aten::sigmoid_",   "aten::relu",      "aten::relu_",   "aten::gelu",      "aten::silu",
        "aten::abs",        "aten::sqrt",      "aten::rsqrt",   "aten::pow",       "aten::square",
        "aten::reciprocal", "aten::sin",       "aten::cos",     "aten::erf",       "aten::clamp",
        "aten::clamp_min",  "aten::clamp_max", "aten::maximum", "aten::minimum",   "aten::where",
        "aten::addcmul",    "aten::addcdiv_",  "aten::lerp_",   "aten::threshold", "aten::eq",
        "aten::masked_fill"}) {
    EXPECT_TRUE(IsElementwiseOpName(name)) << name;
  }
}

TEST(ElementwiseTableTest, NotElementwise) {
  for (const char* name :
       {"aten::addmm", "aten::mm", "aten::linear", "aten::sum", "aten::mean", "aten::softmax",
        "aten::log_softmax", "aten::copy_", "aten::to", "aten::fill_", "aten::zero_", "aten::empty",
        "aten::conv2d", "aten::add_relu", "aten::multiply_by", "aten::mul.Tensor", "MulBackward0",
        "aten::addbmm", "aten::exponential_"}) {
    EXPECT_FALSE(IsElementwiseOpName(name)) << name;
  }
}

TEST(ElementwiseChainsTest, ChainsOfUserCallsInsideSteps) {
  // Two 1000 us steps; per step (offsets in us):
  //   aten::linear 0..100 (not elementwise)
  //   mul, add, tanh, sigmoid, sub, exp at 200, 210, ..., 250, dur 5 each:
  //     one chain of 6, span 200..255 = 55 us; fusable 55 x 5/6
  //   aten::linear 300..400
  //   add 400, relu 410: only 2, below kMinChainOps
  //   Optimizer.step 500..600 with 4 aten::add_: the optimizer's, no chain
  std::string e;
  const char* chain[] = {"aten::mul",     "aten::add", "aten::tanh",
                         "aten::sigmoid", "aten::sub", "aten::exp"};
  for (int k = 0; k < 2; ++k) {
    const int64_t b = k * 1000;
    e += Step(k, b, 1000) + Op("aten::linear", b, 100);
    for (int j = 0; j < 6; ++j) e += Op(chain[j], b + 200 + 10 * j, 5);
    e += Op("aten::linear", b + 300, 100) + Op("aten::add", b + 400, 5) +
         Op("aten::relu", b + 410, 5);
    e += fmt::format(
        R"({{"ph": "X", "cat": "user_annotation", "name": "Optimizer.step#SGD.step", "pid": 1, "tid": 1, "ts": {}, "dur": 100}},)",
        b + 500);
    for (int j = 0; j < 4; ++j) e += Op("aten::add_", b + 510 + 10 * j, 5);
  }
  const model::Trace t = Import(e);
  const StepTimeline timeline = BuildSteps(t);
  const ElementwiseChainSummary c =
      FindElementwiseChains(t, AttributeDeviceWork(t), timeline.steps, true);
  EXPECT_FALSE(c.on_device);
  EXPECT_EQ(c.chains, 2u);
  EXPECT_EQ(c.ops, 12u);
  EXPECT_EQ(c.longest, 6u);
  EXPECT_EQ(c.span_ns, 2 * 55'000);
  EXPECT_EQ(c.op_ns, 12 * 5'000);
  EXPECT_EQ(c.fusable_ns, 2 * (55'000 * 5 / 6));
  EXPECT_EQ(c.ops_per_step, (std::vector<uint64_t>{6, 6}));
  ASSERT_EQ(c.patterns.size(), 1u);
  EXPECT_EQ(c.patterns[0].sequence,
            "aten::mul > aten::add > aten::tanh > aten::sigmoid > aten::sub > aten::exp");
  EXPECT_EQ(c.patterns[0].count, 2u);
  ASSERT_EQ(c.op_names.size(), 6u);
  for (const ElementwiseOpCount& op : c.op_names) EXPECT_EQ(op.count, 2u) << op.name;
}

TEST(ElementwiseChainsTest, LongPauseAndStepBoundaryBreakAChain) {
  // mul, add, tanh at 100, 110, 120; then sub, exp, neg 1.2 ms later (a
  // pause > 1 ms): two chains of 3. A chain never runs across steps.
  const model::Trace t =
      Import(Step(1, 0, 3000) + Op("aten::mul", 100, 5) + Op("aten::add", 110, 5) +
             Op("aten::tanh", 120, 5) + Op("aten::sub", 1325, 5) + Op("aten::exp", 1335, 5) +
             Op("aten::neg", 1345, 5) + Op("aten::mul", 2990, 5) + Step(2, 3000, 1000) +
             Op("aten::add", 3005, 5) + Op("aten::mul", 3015, 5));
  const ElementwiseChainSummary c =
      FindElementwiseChains(t, AttributeDeviceWork(t), BuildSteps(t).steps, true);
  EXPECT_EQ(c.chains, 2u);
  EXPECT_EQ(c.ops, 6u);
  EXPECT_EQ(c.span_ns, 2 * 25'000);
}

// Regression (the CPU corpus's 960-op chain was cut into 64): in the legacy
// export's whole microseconds, the copy_ of `s * 0.5`'s wrapped scalar and an
// empty_strided show up between two ops as zero-length top-level calls. They
// hold no work, so the chain runs through them; a non-elementwise call that
// takes time still ends it.
TEST(ElementwiseChainsTest, ZeroLengthCallsDoNotBreakAChain) {
  const model::Trace t = Import(
      Step(1, 0, 1000) + Op("aten::mul", 100, 5) + Op("aten::copy_", 105, 0) +
      Op("aten::add", 106, 5) + Op("aten::empty_strided", 111, 0) + Op("aten::copy_", 111, 0) +
      Op("aten::tanh", 112, 5) + Op("aten::sub", 120, 5) + Op("aten::linear", 130, 2) +
      Op("aten::mul", 140, 5) + Op("aten::add", 150, 5) + Op("aten::exp", 160, 5));
  const ElementwiseChainSummary c =
      FindElementwiseChains(t, AttributeDeviceWork(t), BuildSteps(t).steps, true);
  EXPECT_EQ(c.chains, 2u);
  EXPECT_EQ(c.ops, 7u);
  EXPECT_EQ(c.longest, 4u);
  EXPECT_EQ(c.span_ns, 25'000 + 25'000);  // 100..125 and 140..165
}

}  // namespace
}  // namespace perfdx::analysis
