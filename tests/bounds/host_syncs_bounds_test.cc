// Work bounded by nesting depth in the host-sync table (issue #17): each sync
// call walked up all its ancestors looking for an enclosing sync, operator
// or optimizer step: calls x depth (60 000 of each: minutes). CTest's
// TIMEOUT is the hang guard (tests/CMakeLists.txt).
#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "perfdx/analysis/host_syncs.h"
#include "test_support.h"

namespace perfdx::analysis {
namespace {

TEST(HostSyncsBounds, SixtyThousandSyncsUnderSixtyThousandNestedFrames) {
  constexpr int64_t kDepth = 60'000;
  constexpr int64_t kSyncs = 60'000;
  // optimizer.step() around 60 000 nested Python frames; in the innermost,
  // aten::item every 10 us from 1 ms on.
  constexpr int64_t kSpanUs = 1'000 + 10 * kSyncs + kDepth;
  std::string json = R"({"schemaVersion": 1, "traceEvents": [)";
  json += fmt::format(
      R"({{"ph": "X", "cat": "user_annotation", "name": "Optimizer.step#SGD.step", "pid": 1, )"
      R"("tid": 1, "ts": 0, "dur": {}}},)",
      2 * kSpanUs + 2);
  for (int64_t i = 0; i < kDepth; ++i) {
    json += fmt::format(
        R"({{"ph": "X", "cat": "python_function", "name": "model.py(1): f{}", "pid": 1, "tid": 1, )"
        R"("ts": {}, "dur": {}}},)",
        i, i + 1, 2 * kSpanUs - 2 * i);
  }
  for (int64_t k = 0; k < kSyncs; ++k) {
    json += fmt::format(
        R"({}{{"ph": "X", "cat": "cpu_op", "name": "aten::item", "pid": 1, "tid": 1, "ts": {}, )"
        R"("dur": 1}})",
        k == 0 ? "" : ",", kDepth + 1'000 + 10 * k);
  }
  json += "]}";
  auto trace = perfdx::testing::ImportString(json);
  ASSERT_TRUE(trace.ok()) << trace.status().message();
  const HostSyncSummary h = CountHostSyncs(*trace, {});
  // By hand: every call is a sync of its own (none nests another), all
  // inside optimizer.step().
  EXPECT_EQ(h.syncs, static_cast<uint64_t>(kSyncs));
  EXPECT_EQ(h.sync_call_ns, kSyncs * 1'000);
  ASSERT_EQ(h.phases.size(), 1u);
  EXPECT_EQ(h.phases[0].phase, "optimizer");
  EXPECT_EQ(h.phases[0].count, static_cast<uint64_t>(kSyncs));
}

}  // namespace
}  // namespace perfdx::analysis
