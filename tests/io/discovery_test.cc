#include "perfdx/io/discovery.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include <gtest/gtest.h>

#include "perfdx/io/byte_source.h"
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

// Issue #17: a rank file that cannot be read was skipped without a word
// (its first bytes could not be sniffed). It is an input, so that the loader
// names it with the OS's reason.
TEST(DiscoveryTest, AnUnreadableRankFileIsAnInput) {
  TempDir dir;
  dir.Write("run/rank0.json", R"({"traceEvents": []})");
  const std::string hidden = dir.Write("run/rank1.json", R"({"traceEvents": []})");
  dir.Write("run/notes.txt", "not a trace");
  ::chmod(hidden.c_str(), 0);
  const std::string found = perfdx::testing::RunUnprivileged([&] {
    auto d = DiscoverInputs({dir.path() + "/run"});
    if (!d.ok()) return d.status().message();
    std::string out;
    for (const TraceInput& in : d->inputs) out += in.trace_path + ";";
    return out;
  });
  EXPECT_EQ(found, dir.path() + "/run/rank0.json;" + hidden + ";");
}

// Issue #17: `-` is standard input, once.
TEST(DiscoveryTest, DashIsStandardInputOnce) {
  auto d = DiscoverInputs({"-"});
  ASSERT_TRUE(d.ok()) << d.status().message();
  ASSERT_EQ(d->inputs.size(), 1u);
  EXPECT_TRUE(d->inputs[0].from_stdin);
  EXPECT_EQ(d->inputs[0].trace_path, "<stdin>");
  auto twice = DiscoverInputs({"-", "-"});
  EXPECT_EQ(twice.status().code(), StatusCode::kInvalidInput);
}

TEST(DiscoveryTest, FolderOfRankFilesSkipsNonTraces) {
  TempDir dir;
  dir.Write("run/rank-0.json", R"({"traceEvents": []})");
  dir.Write("run/rank-1.json.gz", perfdx::testing::GzipCompress(R"([{"ph": "X"}])"));
  dir.Write("run/notes.json", R"({"lr": 0.1})");  // JSON, not a trace
  dir.Write("run/readme.txt", "hello");
  dir.Write("run/nested/rank-2.pt.trace.json", R"({"schemaVersion": 1, "traceEvents": []})");
  auto d = DiscoverInputs({dir.path() + "/run"});
  ASSERT_TRUE(d.ok()) << d.status().message();
  std::vector<int64_t> ranks;
  for (const TraceInput& in : d->inputs) ranks.push_back(in.rank_hint.value_or(-1));
  std::sort(ranks.begin(), ranks.end());
  EXPECT_EQ(ranks, (std::vector<int64_t>{0, 1, 2}));
}

// A rank file named like a trace that holds no JSON at all (cut to nothing,
// or a .gz that is not gzip) was skipped without a word, and its rank went
// missing from the job unseen. It is named in a warning; a JSON file that is
// not a trace (a config) is still skipped quietly, and a .gz whose gzip is
// damaged is an input, for the loader to name with its offset.
TEST(DiscoveryTest, RankFilesWithoutJsonAreNamedInAWarning) {
  TempDir dir;
  dir.Write("run/rank-0.json", R"({"traceEvents": []})");
  dir.Write("run/rank-1.json.gz", "not gzip at all");
  dir.Write("run/rank-2.json", "");
  dir.Write("run/rank-3.json", "\x01\x02");
  std::string damaged = perfdx::testing::GzipCompress(std::string(20000, ' ') + "[{\"ph\": 1}]");
  damaged[10] = '\x07';  // the first deflate block: final, of the reserved type 3
  dir.Write("run/rank-4.json.gz", damaged);
  dir.Write("run/config.json", R"({"lr": 0.1})");
  auto d = DiscoverInputs({dir.path() + "/run"});
  ASSERT_TRUE(d.ok()) << d.status().message();
  std::vector<std::string> inputs;
  for (const TraceInput& in : d->inputs) inputs.push_back(in.trace_path);
  std::sort(inputs.begin(), inputs.end());
  EXPECT_EQ(inputs, (std::vector<std::string>{dir.path() + "/run/rank-0.json",
                                              dir.path() + "/run/rank-4.json.gz"}));
  std::vector<std::string> warnings = d->warnings;
  std::sort(warnings.begin(), warnings.end());
  const std::string run = dir.path() + "/run/";
  EXPECT_EQ(
      warnings,
      (std::vector<std::string>{
          run + "rank-1.json.gz: named like a trace but not JSON (starts with 'n' at byte 0); "
                "skipped",
          run + "rank-2.json: named like a trace but not JSON (empty); skipped",
          run + "rank-3.json: named like a trace but not JSON (starts with byte 0x01 at "
                "byte 0); skipped"}));
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
  for (const std::string& p :
       {root + "/rank1_ascend_pt", root + "/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT",
        root + "/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json"}) {
    auto one = DiscoverInputs({p});
    ASSERT_TRUE(one.ok()) << p;
    ASSERT_EQ(one->inputs.size(), 1u);
    EXPECT_EQ(one->inputs[0].rank_hint, 1) << p;
  }
}

TEST(DiscoveryTest, DbOnlyAscendExportLoads) {
  PERFDX_REQUIRE_SHARED();
  const std::string root = SharedPath("traces/ascend/torch_npu_2rank_db_level1");
  auto d = DiscoverInputs({root});
  ASSERT_TRUE(d.ok()) << d.status().message();
  ASSERT_EQ(d->inputs.size(), 2u);
  for (int rank = 0; rank < 2; ++rank) {
    const TraceInput& in = d->inputs[rank];
    EXPECT_EQ(in.kind, InputKind::kAscendDb);
    EXPECT_EQ(in.rank_hint, rank);  // profiler_info_{rank}.json
    EXPECT_EQ(in.framework, "torch_npu");
    EXPECT_NE(in.trace_path.find("ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_" +
                                 std::to_string(rank) + ".db"),
              std::string::npos);
    EXPECT_NE(in.profile_dir.find("rank" + std::to_string(rank) + "_ascend_pt"), std::string::npos);
  }
  // The folder, its output folder and the .db itself name the same input;
  // analysis.db (the profiler's own analysis) is never an input.
  for (const std::string& p :
       {root + "/rank1_ascend_pt", root + "/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT",
        root + "/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_1.db"}) {
    auto one = DiscoverInputs({p});
    ASSERT_TRUE(one.ok()) << p;
    ASSERT_EQ(one->inputs.size(), 1u);
    EXPECT_EQ(one->inputs[0].kind, InputKind::kAscendDb) << p;
    EXPECT_EQ(one->inputs[0].rank_hint, 1) << p;
    EXPECT_FALSE(one->inputs[0].profile_dir.empty()) << p;
  }
  EXPECT_FALSE(DiscoverInputs({root + "/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/analysis.db"}).ok());
}

TEST(DiscoveryTest, AscendFolderWithoutTimelineOrDbIsReported) {
  TempDir dir;
  dir.Write("x_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv", "Name\n");
  auto d = DiscoverInputs({dir.path() + "/x_ascend_pt"});
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.status().message().find("trace_view.json"), std::string::npos);
  // Met while walking a folder, it is a warning and the rest still loads.
  dir.Write("rank-0.json", R"({"traceEvents": []})");
  auto walk = DiscoverInputs({dir.path()});
  ASSERT_TRUE(walk.ok());
  EXPECT_EQ(walk->inputs.size(), 1u);
  EXPECT_EQ(walk->warnings.size(), 1u);
}

TEST(DiscoveryTest, MsprofFolder) {
  TempDir dir;
  dir.Write("PROF_000001_20231023172400639_ABCD/mindstudio_profiler_output/msprof_slice_1_1.json",
            "[]");
  dir.Write("PROF_000001_20231023172400639_ABCD/mindstudio_profiler_output/msprof_slice_0_1.json",
            "[]");
  dir.Write("PROF_000001_20231023172400639_ABCD/device_2/info.json.2", R"({"rank_id": 5})");
  auto d = DiscoverInputs({dir.path()});
  ASSERT_TRUE(d.ok()) << d.status().message();
  ASSERT_EQ(d->inputs.size(), 1u);
  const TraceInput& in = d->inputs[0];
  EXPECT_EQ(in.kind, InputKind::kMsprofProfile);
  EXPECT_EQ(in.framework, "msprof");
  EXPECT_EQ(in.rank_hint, 5);
  EXPECT_NE(in.trace_path.find("msprof_slice_0_1.json"), std::string::npos);
  ASSERT_EQ(in.more_trace_paths.size(), 1u);
  EXPECT_NE(in.more_trace_paths[0].find("msprof_slice_1_1.json"), std::string::npos);
}

bool HasWarning(const Discovery& d, const std::string& needle) {
  return std::any_of(d.warnings.begin(), d.warnings.end(),
                     [&](const std::string& w) { return w.find(needle) != std::string::npos; });
}

constexpr char kTrace[] = R"({"traceEvents": []})";

// Issue #17: a named pipe given as the trace blocked forever in open().
TEST(DiscoveryTest, NamedPipeGivenAsTraceIsRefused) {
  TempDir dir;
  const std::string fifo = dir.path() + "/rank-0.json";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto d = DiscoverInputs({fifo});
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.status().code(), StatusCode::kInvalidInput);
  EXPECT_EQ(d.status().message(),
            fifo + ": a named pipe, not a file; perfdx reads regular files and folders");
  // The reader refuses it too (side files are opened without discovery).
  auto source = OpenByteSource(fifo);
  ASSERT_FALSE(source.ok());
  EXPECT_NE(source.status().message().find("a named pipe"), std::string::npos);
}

TEST(DiscoveryTest, NamedPipeMetWhileWalkingIsSkippedWithAWarning) {
  TempDir dir;
  dir.Write("run/rank-0.json", kTrace);
  const std::string fifo = dir.path() + "/run/rank-1.json";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto d = DiscoverInputs({dir.path() + "/run"});
  ASSERT_TRUE(d.ok()) << d.status().message();
  ASSERT_EQ(d->inputs.size(), 1u);
  EXPECT_EQ(d->inputs[0].rank_hint, 0);
  EXPECT_TRUE(HasWarning(*d, fifo + ": a named pipe, not a file; skipped"));
}

// Issue #17: a link to "." loaded the same trace once per path (n^d).
TEST(DiscoveryTest, LinksToFoldersAreNotFollowed) {
  TempDir dir;
  dir.Write("run/rank-0.json", kTrace);
  std::filesystem::create_directory_symlink(".", dir.path() + "/run/loop");
  std::filesystem::create_directory_symlink("/", dir.path() + "/run/root");
  auto d = DiscoverInputs({dir.path() + "/run"});
  ASSERT_TRUE(d.ok()) << d.status().message();
  ASSERT_EQ(d->inputs.size(), 1u);
  EXPECT_TRUE(HasWarning(*d, dir.path() + "/run/loop: a link to a folder, not followed"));
  EXPECT_TRUE(HasWarning(*d, dir.path() + "/run/root: a link to a folder, not followed"));
  // Named explicitly, a link to a folder is read.
  auto named = DiscoverInputs({dir.path() + "/run/loop"});
  ASSERT_TRUE(named.ok()) << named.status().message();
  EXPECT_EQ(named->inputs.size(), 1u);
}

// Issue #17: the same file named twice became two ranks without a warning.
TEST(DiscoveryTest, TheSameFileReachedTwiceIsOneInput) {
  TempDir dir;
  const std::string file = dir.Write("run/rank-0.json", kTrace);
  auto twice = DiscoverInputs({file, file});
  ASSERT_TRUE(twice.ok());
  EXPECT_EQ(twice->inputs.size(), 1u);
  EXPECT_TRUE(HasWarning(*twice, file + ": the same file as " + file + "; read once"));

  // A link to a file beside it, met while walking.
  std::filesystem::create_symlink("rank-0.json", dir.path() + "/run/rank-1.json");
  auto linked = DiscoverInputs({dir.path() + "/run"});
  ASSERT_TRUE(linked.ok());
  ASSERT_EQ(linked->inputs.size(), 1u);
  EXPECT_EQ(linked->inputs[0].trace_path, file);
  EXPECT_TRUE(HasWarning(*linked, dir.path() + "/run/rank-1.json: the same file as " + file));

  // A folder and a file inside it; a folder named twice.
  auto both = DiscoverInputs({dir.path() + "/run", file});
  ASSERT_TRUE(both.ok());
  EXPECT_EQ(both->inputs.size(), 1u);
  auto folder_twice = DiscoverInputs({dir.path() + "/run", dir.path() + "/run/"});
  ASSERT_TRUE(folder_twice.ok());
  EXPECT_EQ(folder_twice->inputs.size(), 1u);
}

TEST(DiscoveryTest, WalksAreBoundedInDepthAndEntries) {
  TempDir dir;
  dir.Write("run/rank-0.json", kTrace);
  dir.Write("run/a/rank-1.json", kTrace);
  dir.Write("run/a/b/rank-2.json", kTrace);
  DiscoveryLimits shallow;
  shallow.max_depth = 1;  // run/ and run/a/, not run/a/b/
  auto d = DiscoverInputs({dir.path() + "/run"}, shallow);
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->inputs.size(), 2u);

  DiscoveryLimits few;
  few.max_entries = 4;  // run/ holds 2 entries, run/a/ 2, run/a/b/ 1: 5 in all
  auto over = DiscoverInputs({dir.path() + "/run"}, few);
  ASSERT_FALSE(over.ok());
  EXPECT_EQ(over.status().code(), StatusCode::kLimitExceeded);
  EXPECT_NE(over.status().message().find("more than 4 files and folders below it"),
            std::string::npos)
      << over.status().message();
  few.max_entries = 5;
  EXPECT_TRUE(DiscoverInputs({dir.path() + "/run"}, few).ok());
}

}  // namespace
}  // namespace perfdx::io
