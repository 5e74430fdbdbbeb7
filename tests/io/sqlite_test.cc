#include "perfdx/io/sqlite.h"

#include <sys/stat.h>

#include <filesystem>
#include <map>
#include <string>

#include <gtest/gtest.h>
#include <sqlite3.h>

#include "test_support.h"

namespace perfdx::io {
namespace {

namespace fs = std::filesystem;

// Every file of the folder with its size and modification time: what a
// reader must leave as it found it.
std::map<std::string, std::pair<uintmax_t, int64_t>> Snapshot(const std::string& dir) {
  std::map<std::string, std::pair<uintmax_t, int64_t>> out;
  for (const auto& e : fs::directory_iterator(dir)) {
    struct stat st {};
    ::stat(e.path().c_str(), &st);
    out[e.path().filename().string()] = {
        static_cast<uintmax_t>(st.st_size),
        static_cast<int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec};
  }
  return out;
}

// A WAL database whose last transaction is still only in PATH-wal: the
// connection is closed without the checkpoint SQLite does on close.
void WriteUncheckpointedWal(const std::string& path) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, nullptr), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db,
                         "PRAGMA journal_mode=WAL; CREATE TABLE TASK (startNs INTEGER);"
                         "INSERT INTO TASK VALUES (1), (2), (3);",
                         nullptr, nullptr, nullptr),
            SQLITE_OK);
  ASSERT_EQ(sqlite3_close(db), SQLITE_OK);
}

int64_t CountTasks(SqliteDb& db) {
  if (!db.HasTable("TASK")) return -1;
  auto n = db.QueryInt("SELECT count(*) FROM TASK");
  return n.ok() ? *n : -2;
}

// Issue #17: an export whose -wal was never checkpointed read as having no
// tables (immutable=1 ignores the -wal). It is read, and nothing beside it
// changes: not the -wal, not the -shm, and no file appears.
TEST(SqliteTest, ExportReadsAnUncheckpointedWalAndTouchesNothing) {
  perfdx::testing::TempDir dir;
  const std::string path = dir.path() + "/ascend_pytorch_profiler_0.db";
  WriteUncheckpointedWal(path);
  ASSERT_GT(fs::file_size(path + "-wal"), 0u) << "the test needs frames in the -wal";
  ASSERT_TRUE(fs::exists(path + "-shm"));
  {
    // The tables are only in the -wal: the main file alone has none.
    sqlite3* raw = nullptr;
    ASSERT_EQ(sqlite3_open_v2(("file:" + path + "?immutable=1").c_str(), &raw,
                              SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr),
              SQLITE_OK);
    sqlite3_stmt* st = nullptr;
    EXPECT_NE(sqlite3_prepare_v2(raw, "SELECT count(*) FROM TASK", -1, &st, nullptr), SQLITE_OK);
    sqlite3_finalize(st);
    sqlite3_close(raw);
  }
  const auto before = Snapshot(dir.path());
  {
    auto db = SqliteDb::Open(path, SqliteDb::kImmutable);
    ASSERT_TRUE(db.ok()) << db.status().message();
    EXPECT_EQ(CountTasks(*db), 3);
  }
  EXPECT_EQ(Snapshot(dir.path()), before);

  // Without its -shm (a copy that left it out): SQLite would create one; the
  // WAL index is kept in memory instead.
  fs::remove(path + "-shm");
  const auto without_shm = Snapshot(dir.path());
  {
    auto db = SqliteDb::Open(path, SqliteDb::kImmutable);
    ASSERT_TRUE(db.ok()) << db.status().message();
    EXPECT_EQ(CountTasks(*db), 3);
  }
  EXPECT_EQ(Snapshot(dir.path()), without_shm);
}

// Issue #17: an export that cannot be read was "not an SQLite database".
TEST(SqliteTest, AnUnreadableExportSaysWhy) {
  perfdx::testing::TempDir dir;
  const std::string path = dir.path() + "/ascend_pytorch_profiler_0.db";
  WriteUncheckpointedWal(path);
  ::chmod(path.c_str(), 0);
  const std::string message = perfdx::testing::RunUnprivileged([&] {
    auto db = SqliteDb::Open(path, SqliteDb::kImmutable);
    return db.ok() ? std::string("opened") : db.status().message();
  });
  EXPECT_EQ(message, path + ": cannot read: Permission denied");

  // The same for its -wal, which holds the data.
  ::chmod(path.c_str(), 0644);
  ::chmod((path + "-wal").c_str(), 0);
  const std::string wal_message = perfdx::testing::RunUnprivileged([&] {
    auto db = SqliteDb::Open(path, SqliteDb::kImmutable);
    return db.ok() ? std::string("opened") : db.status().message();
  });
  EXPECT_EQ(wal_message.rfind(path + "-wal: cannot read: Permission denied (it holds changes", 0),
            0u)
      << wal_message;
  EXPECT_NE(wal_message.find("sqlite3 " + path + " 'PRAGMA wal_checkpoint'"), std::string::npos);
}

// A read-only open of a WAL database in a folder the user may not write
// (no -wal or -shm can be created) reads it as an export would.
TEST(SqliteTest, ReadOnlyOpenWorksWhereNothingCanBeWritten) {
  perfdx::testing::TempDir dir;
  const std::string path = dir.path() + "/runs.db";
  {
    auto db = SqliteDb::Open(path, SqliteDb::kReadWriteCreate);
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE(db->Exec("PRAGMA journal_mode=WAL; CREATE TABLE TASK (startNs INTEGER);"
                         "INSERT INTO TASK VALUES (1), (2), (3);")
                    .ok());
  }
  ASSERT_FALSE(fs::exists(path + "-wal"));
  ::chmod(path.c_str(), 0444);
  ::chmod(dir.path().c_str(), 0555);
  const auto before = Snapshot(dir.path());
  const std::string message = perfdx::testing::RunUnprivileged([&] {
    auto db = SqliteDb::Open(path, SqliteDb::kReadOnly);
    if (!db.ok()) return db.status().message();
    return std::to_string(CountTasks(*db));
  });
  ::chmod(dir.path().c_str(), 0755);
  EXPECT_EQ(message, "3");
  EXPECT_EQ(Snapshot(dir.path()), before);
}

}  // namespace
}  // namespace perfdx::io
