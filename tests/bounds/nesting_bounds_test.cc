// Work bounded by nesting depth (issue #17): 80 000 framework ops nested in
// each other, the innermost (aten::add) launching 80 001 kernels. The
// operator table walked up the nesting from every kernel with a list of the
// names seen, and the elementwise-chain search walked up from every op:
// n x depth, about a minute here. CTest's TIMEOUT is the hang guard
// (tests/CMakeLists.txt); the figures are in the bench.
#include <limits>
#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "perfdx/analysis/elementwise_chains.h"
#include "perfdx/analysis/interval_set.h"
#include "perfdx/analysis/op_attribution.h"
#include "perfdx/analysis/op_stats.h"
#include "test_support.h"

namespace perfdx::analysis {
namespace {

TEST(NestingBounds, EightyThousandNestedOpsAndAKernelEach) {
  constexpr size_t kDepth = 80'000;
  // Op i spans [i, 2n - i) us: each nests the next. The innermost calls
  // cudaLaunchKernel at n us; its kernels run 1 us each, 1 us apart.
  std::string json = R"({"schemaVersion": 1, "traceEvents": [)";
  for (size_t i = 0; i < kDepth; ++i) {
    const std::string name =
        i + 1 == kDepth ? std::string("aten::add") : fmt::format("aten::op_{}", i % 5);
    json += fmt::format(
        R"({{"ph": "X", "cat": "cpu_op", "name": "{}", "pid": 1, "tid": 1, "ts": {}, "dur": {}}},)",
        name, i, 2 * kDepth - 2 * i);
  }
  json += fmt::format(
      R"({{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, )"
      R"("ts": {}, "dur": 1, "args": {{"correlation": 1}}}})",
      kDepth);
  for (size_t i = 0; i <= kDepth; ++i) {
    json += fmt::format(
        R"(,{{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": {}, "dur": 1, )"
        R"("args": {{"correlation": 1}}}})",
        kDepth + 2 + 2 * i);
  }
  json += "]}";
  auto trace = perfdx::testing::ImportString(json);
  ASSERT_TRUE(trace.ok()) << trace.status().message();
  const OpAttribution attribution = AttributeDeviceWork(*trace);
  const IntervalSet window = IntervalSet::Single(std::numeric_limits<int64_t>::min() / 4,
                                                 std::numeric_limits<int64_t>::max() / 4);

  const OpSummary ops = SummarizeOps(*trace, attribution, window);
  // By hand: every kernel's device time is in the total of each of the six
  // names (once per name however often it nests), and in aten::add's self.
  constexpr int64_t kDeviceNs = (kDepth + 1) * 1'000;
  ASSERT_EQ(ops.ops.size(), 6u);
  for (const OpStat& op : ops.ops) {
    EXPECT_EQ(op.device_total_ns, kDeviceNs) << op.name;
    if (op.name == "aten::add") {
      EXPECT_EQ(op.calls, 1u);
      EXPECT_EQ(op.device_self_ns, kDeviceNs);
    } else {
      uint64_t calls = 0;  // ops 0 .. n-2 are named aten::op_{i % 5}
      for (size_t k = 0; k + 1 < kDepth; ++k) calls += fmt::format("aten::op_{}", k % 5) == op.name;
      EXPECT_EQ(op.calls, calls) << op.name;
      EXPECT_EQ(op.device_self_ns, 0);
    }
  }

  // All the kernels come from aten::add, back to back: one chain of them.
  const ElementwiseChainSummary chains =
      FindElementwiseChains(*trace, attribution, {}, /*cpu_only=*/false);
  EXPECT_EQ(chains.chains, 1u);
  EXPECT_EQ(chains.ops, kDepth + 1);
}

}  // namespace
}  // namespace perfdx::analysis
