#include "perfdx/baseline/store.h"

#include <sys/stat.h>

#include <filesystem>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sqlite3.h>

#include "test_support.h"

namespace perfdx::baseline {
namespace {

RunRecord MakeRun(const std::string& name, std::vector<int64_t> step_ns,
                  int64_t created = 1700000000) {
  RunRecord r;
  r.name = name;
  r.created_unix_s = created;
  r.perfdx_version = "0.1.0";
  r.source = RunSource::kTrace;
  r.input_path = "/data/" + name + ".json.gz";
  r.fingerprint = "fnv1a64:0123456789abcdef";
  r.host = "node7";
  r.host_info = "Linux 6.1 x86_64, 16 CPUs";
  r.device = "Tesla V100";
  r.rank = 3;
  r.window = "steps";
  for (size_t i = 0; i < step_ns.size(); ++i) {
    r.steps.push_back(
        StepSample{static_cast<int64_t>(i) + 5,
                   step_ns[i],
                   64,
                   {{"kernel", step_ns[i] / 2}, {"other", step_ns[i] - step_ns[i] / 2}}});
  }
  r.metrics["device_utilization"] = 0.625;
  AddStepMetrics(r);
  r.items = {{"volta_sgemm_128x64_nn", "kernel", 12, 900000},
             {"aten::conv2d", "operator", 6, 450000}};
  r.items_complete = true;
  r.notes = {"first note", "second note"};
  SetTag(r, "commit", "abc123");
  SetTag(r, "batch", "64");
  return r;
}

class StoreTest : public ::testing::Test {
 protected:
  std::string DbPath() const { return dir_.path() + "/lib/runs.db"; }
  RunStore OpenOrDie() {
    auto s = RunStore::Open(DbPath(), RunStore::Mode::kCreate);
    EXPECT_TRUE(s.ok()) << s.status().message();
    return std::move(s).value();
  }
  testing::TempDir dir_;
};

TEST_F(StoreTest, RoundTripKeepsEveryField) {
  RunStore store = OpenOrDie();
  const RunRecord saved = MakeRun("resnet50", {100, 300, 200});
  auto id = store.Save(saved);
  ASSERT_TRUE(id.ok()) << id.status().message();
  EXPECT_EQ(*id, 1);

  auto loaded = store.Load("1");
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  const RunRecord& r = *loaded;
  EXPECT_EQ(r.id, 1);
  EXPECT_EQ(r.name, saved.name);
  EXPECT_EQ(r.created_unix_s, saved.created_unix_s);
  EXPECT_EQ(r.perfdx_version, saved.perfdx_version);
  EXPECT_EQ(r.source, saved.source);
  EXPECT_EQ(r.input_path, saved.input_path);
  EXPECT_EQ(r.fingerprint, saved.fingerprint);
  EXPECT_EQ(r.host, saved.host);
  EXPECT_EQ(r.host_info, saved.host_info);
  EXPECT_EQ(r.device, saved.device);
  EXPECT_EQ(r.rank, saved.rank);
  EXPECT_EQ(r.window, saved.window);
  EXPECT_EQ(r.tags, saved.tags);
  EXPECT_EQ(r.metrics, saved.metrics);
  EXPECT_EQ(r.items_complete, true);
  EXPECT_EQ(r.notes, saved.notes);
  ASSERT_EQ(r.steps.size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(r.steps[i].id, saved.steps[i].id);
    EXPECT_EQ(r.steps[i].dur_ns, saved.steps[i].dur_ns);
    EXPECT_EQ(r.steps[i].samples, saved.steps[i].samples);
    EXPECT_EQ(r.steps[i].phases_ns, saved.steps[i].phases_ns);
  }
  ASSERT_EQ(r.items.size(), 2u);
  EXPECT_EQ(r.items[0].name, "volta_sgemm_128x64_nn");
  EXPECT_EQ(r.items[0].count, 12u);
  EXPECT_EQ(r.items[1].total_ns, 450000);
  EXPECT_EQ(r.Label(), "resnet50 #1");

  // The same run by "#id" and by name.
  EXPECT_EQ(store.Load("#1")->name, "resnet50");
  EXPECT_EQ(store.Load("resnet50")->id, 1);
  EXPECT_EQ(*store.IntegrityCheck(), "ok");
}

TEST_F(StoreTest, NoRankStaysNoRank) {
  RunStore store = OpenOrDie();
  RunRecord r = MakeRun("a", {1, 2, 3});
  r.rank.reset();
  ASSERT_TRUE(store.Save(r).ok());
  EXPECT_FALSE(store.Load("a")->rank.has_value());
}

TEST_F(StoreTest, ANameMeansItsLatestRun) {
  RunStore store = OpenOrDie();
  ASSERT_TRUE(store.Save(MakeRun("nightly", {100, 100, 100}, 1000)).ok());
  ASSERT_TRUE(store.Save(MakeRun("nightly", {90, 90, 90}, 2000)).ok());
  ASSERT_TRUE(
      store.Save(MakeRun("nightly", {80, 80, 80}, 2000)).ok());  // same second: the later id
  ASSERT_TRUE(store.Save(MakeRun("other", {50, 50, 50}, 3000)).ok());
  EXPECT_EQ(store.Load("nightly")->id, 3);
  EXPECT_EQ(store.Load("nightly")->steps[0].dur_ns, 80);
  EXPECT_EQ(store.Load("2")->steps[0].dur_ns, 90);
}

TEST_F(StoreTest, ListFilters) {
  RunStore store = OpenOrDie();
  RunRecord a = MakeRun("a", {100, 200, 300}, 1000);
  RunRecord b = MakeRun("b", {10, 20, 30}, 2000);
  SetTag(b, "commit", "def456");
  RunRecord c = MakeRun("a", {1, 2, 3}, 3000);
  for (const RunRecord* r : {&a, &b, &c}) ASSERT_TRUE(store.Save(*r).ok());

  auto all = store.List({});
  ASSERT_TRUE(all.ok()) << all.status().message();
  ASSERT_EQ(all->size(), 3u);
  EXPECT_EQ((*all)[0].name, "a");
  EXPECT_EQ((*all)[0].steps, 3);
  EXPECT_EQ((*all)[0].median_step_ns, 200);
  EXPECT_EQ((*all)[1].tags.size(), 2u);

  EXPECT_EQ(store.List({std::string("a"), {}, 0})->size(), 2u);
  auto by_tag = store.List({std::nullopt, {{"commit", "def456"}}, 0});
  ASSERT_EQ(by_tag->size(), 1u);
  EXPECT_EQ((*by_tag)[0].name, "b");
  auto latest = store.List({std::nullopt, {}, 1});
  ASSERT_EQ(latest->size(), 1u);
  EXPECT_EQ((*latest)[0].id, 3);
}

TEST_F(StoreTest, RemoveByIdOrName) {
  RunStore store = OpenOrDie();
  for (const char* name : {"a", "a", "b"}) ASSERT_TRUE(store.Save(MakeRun(name, {1, 2, 3})).ok());
  EXPECT_EQ(*store.Remove("#3"), 1);
  EXPECT_EQ(store.Load("b").status().code(), StatusCode::kNotFound);
  EXPECT_EQ(*store.Remove("a"), 2);
  EXPECT_TRUE(store.List({})->empty());
  EXPECT_EQ(store.Remove("a").status().code(), StatusCode::kNotFound);
  EXPECT_EQ(store.Remove("9").status().code(), StatusCode::kNotFound);
  // The child rows went with the runs, and ids are not reused.
  EXPECT_EQ(*store.Save(MakeRun("c", {1, 2, 3})), 4);
  EXPECT_EQ(*store.IntegrityCheck(), "ok");
}

TEST_F(StoreTest, TrendFollowsAMetricInTimeOrder) {
  RunStore store = OpenOrDie();
  ASSERT_TRUE(store.Save(MakeRun("m", {100, 100, 100}, 3000)).ok());
  ASSERT_TRUE(store.Save(MakeRun("m", {300, 200, 100}, 1000)).ok());
  ASSERT_TRUE(store.Save(MakeRun("n", {50, 50, 50}, 2000)).ok());

  auto all = store.Trend("step_time", std::nullopt);  // short for step_time_median_ns
  ASSERT_TRUE(all.ok()) << all.status().message();
  ASSERT_EQ(all->size(), 3u);
  EXPECT_EQ((*all)[0].created_unix_s, 1000);
  EXPECT_EQ((*all)[0].value, 200);
  EXPECT_EQ((*all)[1].name, "n");
  EXPECT_EQ((*all)[2].value, 100);

  auto m = store.Trend("step_time_median_ns", std::string("m"));
  ASSERT_EQ(m->size(), 2u);
  EXPECT_EQ((*m)[0].value, 200);
  EXPECT_EQ((*m)[1].value, 100);

  auto util = store.Trend("device_utilization", std::string("n"));
  ASSERT_EQ(util->size(), 1u);
  EXPECT_EQ((*util)[0].value, 0.625);

  auto unknown = store.Trend("no_such_metric", std::nullopt);
  EXPECT_EQ(unknown.status().code(), StatusCode::kNotFound);
  EXPECT_NE(unknown.status().message().find("step_time_median_ns"), std::string::npos);
  EXPECT_TRUE(store.Trend("step_time", std::string("nobody"))->empty());
}

// Issue 10: a share's trend moves in percentage points, a time's in percent.
TEST_F(StoreTest, TrendChangesOfSharesAreInPercentagePoints) {
  RunStore store = OpenOrDie();
  RunRecord a = MakeRun("m", {100, 100, 100}, 1000);
  a.metrics["device_utilization"] = 0.50;
  RunRecord b = MakeRun("m", {110, 110, 110}, 2000);
  b.metrics["device_utilization"] = 0.62;
  ASSERT_TRUE(store.Save(a).ok());
  ASSERT_TRUE(store.Save(b).ok());
  auto util = store.Trend("device_utilization", std::string("m"));
  ASSERT_TRUE(util.ok()) << util.status().message();
  ASSERT_EQ(util->size(), 2u);
  EXPECT_FALSE((*util)[0].change.has_value());
  ASSERT_TRUE((*util)[1].change.has_value());
  EXPECT_TRUE((*util)[1].change_in_points);
  EXPECT_NEAR(*(*util)[1].change, 12.0, 1e-9);  // 50% -> 62%: +12 pts, not +24%
  auto time = store.Trend("step_time", std::string("m"));
  ASSERT_EQ(time->size(), 2u);
  EXPECT_FALSE((*time)[1].change_in_points);
  EXPECT_NEAR(*(*time)[1].change, 0.10, 1e-9);  // 100 -> 110 ns: +10%
}

TEST_F(StoreTest, RejectsBadNamesAndMissingRuns) {
  RunStore store = OpenOrDie();
  for (const char* bad : {"", "123", "has space", "semi;colon", "#1"}) {
    EXPECT_EQ(store.Save(MakeRun(bad, {1, 2, 3})).status().code(), StatusCode::kInvalidInput)
        << bad;
  }
  EXPECT_EQ(store.Load("nothing").status().code(), StatusCode::kNotFound);
  EXPECT_EQ(store.Load("42").status().code(), StatusCode::kNotFound);
}

TEST_F(StoreTest, OpeningWhatIsNotALibrary) {
  EXPECT_EQ(RunStore::Open(DbPath(), RunStore::Mode::kExisting).status().code(),
            StatusCode::kNotFound);

  const std::string text =
      dir_.Write("text.db", "this is not a database at all, just some text...");
  EXPECT_EQ(RunStore::Open(text, RunStore::Mode::kExisting).status().code(),
            StatusCode::kInvalidInput);

  // Another program's SQLite file.
  const std::string other = dir_.path() + "/other.db";
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(other.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "CREATE TABLE t(x)", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);
  auto opened = RunStore::Open(other, RunStore::Mode::kExisting);
  EXPECT_EQ(opened.status().code(), StatusCode::kInvalidInput);
  EXPECT_NE(opened.status().message().find("not a perfdx run library"), std::string::npos);
}

// Issue #17: `--db FOLDER` listed "no runs" (the open failed as not found).
TEST_F(StoreTest, AFolderIsNotALibrary) {
  for (RunStore::Mode mode :
       {RunStore::Mode::kRead, RunStore::Mode::kExisting, RunStore::Mode::kCreate}) {
    auto opened = RunStore::Open(dir_.path(), mode);
    EXPECT_EQ(opened.status().code(), StatusCode::kInvalidInput);
    EXPECT_EQ(opened.status().message(),
              dir_.path() + ": is a folder; --db needs the run library's file");
  }
  auto missing = RunStore::Open(DbPath(), RunStore::Mode::kRead);
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(missing.status().message().rfind(DbPath() + ": no run library here", 0), 0u)
      << missing.status().message();
  EXPECT_FALSE(std::filesystem::exists(DbPath())) << "reading never creates the library";
}

// Issue #17: a library the user may not write could not even be listed
// ("attempt to write a readonly database"). Reading it needs no write
// access, to the file or its folder; saving says the library is read-only.
TEST_F(StoreTest, AReadOnlyLibraryIsReadAndSavingSaysWhyNot) {
  {
    RunStore store = OpenOrDie();
    ASSERT_TRUE(store.Save(MakeRun("resnet50", {100, 300, 200})).ok());
  }
  const std::string folder = dir_.path() + "/lib";
  ASSERT_FALSE(std::filesystem::exists(DbPath() + "-wal")) << "closed cleanly";
  ::chmod(DbPath().c_str(), 0444);
  ::chmod(folder.c_str(), 0555);
  const std::string read = testing::RunUnprivileged([&] {
    auto store = RunStore::Open(DbPath(), RunStore::Mode::kRead);
    if (!store.ok()) return store.status().message();
    auto runs = store->List({});
    if (!runs.ok()) return runs.status().message();
    auto run = store->Load("resnet50");
    if (!run.ok()) return run.status().message();
    auto trend = store->Trend("step_time", std::nullopt);
    if (!trend.ok()) return trend.status().message();
    return fmt::format("{} {} {}", runs->size(), run->steps.size(), trend->size());
  });
  EXPECT_EQ(read, "1 3 1");
  const std::string save = testing::RunUnprivileged([&] {
    auto store = RunStore::Open(DbPath(), RunStore::Mode::kCreate);
    return store.ok() ? std::string("opened for writing") : store.status().message();
  });
  EXPECT_EQ(save, DbPath() +
                      ": the run library is read-only (Permission denied); baseline save and rm "
                      "need write access to it");
  // A writable file in a folder that is not: SQLite's journal cannot be made.
  ::chmod(DbPath().c_str(), 0666);
  const std::string rm = testing::RunUnprivileged([&] {
    auto store = RunStore::Open(DbPath(), RunStore::Mode::kExisting);
    return store.ok() ? std::string("opened for writing") : store.status().message();
  });
  EXPECT_EQ(rm.rfind(DbPath() + ": the run library's folder " + folder +
                         " is read-only (Permission denied)",
                     0),
            0u)
      << rm;
  ::chmod(folder.c_str(), 0755);
}

TEST_F(StoreTest, SchemaVersionIsRecordedAndANewerOneRefused) {
  { OpenOrDie(); }
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(DbPath().c_str(), &db), SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, nullptr), SQLITE_OK);
  ASSERT_EQ(sqlite3_step(st), SQLITE_ROW);
  EXPECT_EQ(sqlite3_column_int(st, 0), kSchemaVersion);
  sqlite3_finalize(st);
  ASSERT_EQ(sqlite3_exec(db, "PRAGMA user_version=99", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);
  auto opened = RunStore::Open(DbPath(), RunStore::Mode::kExisting);
  EXPECT_EQ(opened.status().code(), StatusCode::kUnsupported);
}

TEST(ParseRunId, IdsAndNames) {
  EXPECT_EQ(ParseRunId("12"), 12);
  EXPECT_EQ(ParseRunId("#12"), 12);
  EXPECT_EQ(ParseRunId("resnet"), std::nullopt);
  EXPECT_EQ(ParseRunId("12a"), std::nullopt);
  EXPECT_EQ(ParseRunId("#"), std::nullopt);
  EXPECT_EQ(ParseRunId("0"), std::nullopt);
}

}  // namespace
}  // namespace perfdx::baseline
