// The run pipelines of `baseline save`, `check` and `diff` as library calls:
// which side is the baseline, what a saved checked run carries, and a run of
// the library named where a path could be.
#include "perfdx/pipeline/runs.h"

#include <string>

#include <gtest/gtest.h>

#include "perfdx/baseline/store.h"
#include "test_support.h"

namespace perfdx::pipeline {
namespace {

using perfdx::testing::SharedPath;

// ResNet-50 with DataLoader workers 0 and 4: 4 workers is the faster run
// (the TensorBoard plugin's per-step totals in ../shared/golden/tbp;
// tests/baseline/compare/check_test.cc checks the numbers against them).
const char kWorkers0[] = "traces/kineto/tbp/resnet50_num_workers_0";
const char kWorkers4[] = "traces/kineto/tbp/resnet50_num_workers_4";

std::string Tag(const baseline::RunRecord& r, const std::string& key) {
  for (const auto& [k, v] : r.tags) {
    if (k == key) return v;
  }
  return "<none>";
}

TEST(RunPipelines, CheckComparesNewAgainstTheBaseline) {
  PERFDX_REQUIRE_SHARED();
  auto checked =
      CheckRuns(SharedPath(kWorkers4), SharedPath(kWorkers0), "/nonexistent/runs.db", {}, {});
  ASSERT_TRUE(checked.ok()) << checked.status().message();
  EXPECT_EQ(checked->result.verdict, baseline::Verdict::kImproved);
  EXPECT_GT(checked->result.base_median_ns, checked->result.new_median_ns);
  EXPECT_LT(checked->result.interval.ratio, 1.0);
}

TEST(RunPipelines, SavedCheckedRunCarriesNameTagsAndVerdict) {
  PERFDX_REQUIRE_SHARED();
  testing::TempDir dir;
  const std::string db = dir.path() + "/runs.db";
  auto checked = CheckRuns(SharedPath(kWorkers0), SharedPath(kWorkers4), db, {}, {});
  ASSERT_TRUE(checked.ok()) << checked.status().message();
  ASSERT_EQ(checked->result.verdict, baseline::Verdict::kRegressed);
  // The verdict wins over a user tag of the same key.
  auto id = SaveCheckedRun(*checked, "resnet", {{"commit", "abc"}, {"check_verdict", "x"}}, db);
  ASSERT_TRUE(id.ok()) << id.status().message();
  auto store = baseline::RunStore::Open(db, baseline::RunStore::Mode::kExisting);
  ASSERT_TRUE(store.ok()) << store.status().message();
  auto run = store->Load("#" + std::to_string(*id));
  ASSERT_TRUE(run.ok()) << run.status().message();
  EXPECT_EQ(run->name, "resnet");
  EXPECT_EQ(Tag(*run, "commit"), "abc");
  EXPECT_EQ(Tag(*run, "check_verdict"), "regressed");
  EXPECT_EQ(run->steps.size(), checked->current.steps.size());
}

TEST(RunPipelines, ASavedRunIsFoundByNameAndDiffsAsUnchanged) {
  PERFDX_REQUIRE_SHARED();
  testing::TempDir dir;
  const std::string db = dir.path() + "/runs.db";
  auto saved = SaveRun(SharedPath(kWorkers4), "workers4", {{"batch", "32"}}, db, {});
  ASSERT_TRUE(saved.ok()) << saved.status().message();
  EXPECT_GT(saved->id, 0);
  EXPECT_EQ(Tag(saved->record, "batch"), "32");
  // "workers4" is no path: the library's run of that name, against the trace.
  auto diff = DiffRunRefs("workers4", SharedPath(kWorkers4), db, {});
  ASSERT_TRUE(diff.ok()) << diff.status().message();
  EXPECT_EQ(diff->base_steps, diff->new_steps);
  EXPECT_TRUE(diff->added.empty());
  EXPECT_TRUE(diff->removed.empty());
  EXPECT_TRUE(diff->changed.empty());
  EXPECT_GT(diff->unchanged, 0u);
}

TEST(RunPipelines, AnUnknownRunIsAnError) {
  testing::TempDir dir;
  auto diff = DiffRunRefs("no-such-run", "no-such-run", dir.path() + "/runs.db", {});
  EXPECT_FALSE(diff.ok());
}

}  // namespace
}  // namespace perfdx::pipeline
