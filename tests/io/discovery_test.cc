#include "perfdx/io/discovery.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "test_support.h"

namespace perfdx::io {
namespace {

using perfdx::testing::SharedPath;
using perfdx::testing::TempDir;

TEST(DiscoveryTest, RankFromFileName) {
  EXPECT_EQ(RankFromFileName("rank-3.json.gz"), 3);
  EXPECT_EQ(RankFromFileName("rank_12.pt.trace.json"), 12);
  EXPECT_EQ(RankFromFileName("sampled_rank-1.json.gz"), 1);
  EXPECT_EQ(RankFromFileName("Rank7.json"), 7);
  EXPECT_EQ(RankFromFileName("rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz"), 34);
  EXPECT_EQ(RankFromFileName("worker0.1623143089861.pt.trace.json.gz"), std::nullopt);
  EXPECT_EQ(RankFromFileName("ranking.json"), std::nullopt);
}

TEST(DiscoveryTest, FolderOfRankFilesSkipsNonTraces) {
  TempDir dir;
  dir.Write("run/rank-0.json", R"({"traceEvents": []})");
  dir.Write("run/rank-1.json.gz", perfdx::testing::GzipCompress(R"([{"ph": "X"}])"));
  dir.Write("run/notes.json", R"({"lr": 0.1})");          // JSON, not a trace
  dir.Write("run/readme.txt", "hello");
  dir.Write("run/nested/rank-2.pt.trace.json", R"({"schemaVersion": 1, "traceEvents": []})");
  auto d = DiscoverInputs({dir.path() + "/run"});
  ASSERT_TRUE(d.ok()) << d.status().message();
  std::vector<int64_t> ranks;
  for (const TraceInput& in : d->inputs) ranks.push_back(in.rank_hint.value_or(-1));
  std::sort(ranks.begin(), ranks.end());
  EXPECT_EQ(ranks, (std::vector<int64_t>{0, 1, 2}));
}

TEST(DiscoveryTest, ExplicitFileIsAlwaysTaken) {
  TempDir dir;
  const std::string path = dir.Write("whatever.txt", "not json");
  auto d = DiscoverInputs({path});
  ASSERT_TRUE(d.ok());
  ASSERT_EQ(d->inputs.size(), 1u);
  EXPECT_EQ(d->inputs[0].trace_path, path);
}

TEST(DiscoveryTest, EmptyFolderAndMissingPathAreErrors) {
  TempDir dir;
  EXPECT_EQ(DiscoverInputs({dir.path()}).status().code(), StatusCode::kNotFound);
  EXPECT_EQ(DiscoverInputs({dir.path() + "/missing"}).status().code(), StatusCode::kNotFound);
}

TEST(DiscoveryTest, AscendProfileFolders) {
  PERFDX_REQUIRE_SHARED();
  const std::string root = SharedPath("traces/ascend/torch_npu_2rank_text_level1");
  auto d = DiscoverInputs({root});
  ASSERT_TRUE(d.ok()) << d.status().message();
  ASSERT_EQ(d->inputs.size(), 2u);
  for (int rank = 0; rank < 2; ++rank) {
    const TraceInput& in = d->inputs[rank];
    EXPECT_EQ(in.kind, InputKind::kAscendProfile);
    EXPECT_EQ(in.rank_hint, rank);  // from profiler_info_{rank}.json
    EXPECT_EQ(in.framework, "torch_npu");
    EXPECT_NE(in.trace_path.find("ASCEND_PROFILER_OUTPUT/trace_view.json"), std::string::npos);
  }
  // The profile folder itself, its output folder, and the trace file all
  // resolve to the same input.
  for (const std::string& p : {root + "/rank1_ascend_pt", root + "/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT",
                               root + "/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json"}) {
    auto one = DiscoverInputs({p});
    ASSERT_TRUE(one.ok()) << p;
    ASSERT_EQ(one->inputs.size(), 1u);
    EXPECT_EQ(one->inputs[0].rank_hint, 1) << p;
  }
}

TEST(DiscoveryTest, DbOnlyAscendExportIsReportedNotRead) {
  PERFDX_REQUIRE_SHARED();
  auto d = DiscoverInputs({SharedPath("traces/ascend/torch_npu_2rank_db_level1/rank0_ascend_pt")});
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.status().message().find("trace_view.json"), std::string::npos);
}

}  // namespace
}  // namespace perfdx::io
