// RAII over the SQLite C API: a connection, a prepared statement, a
// transaction. One wrapper for both uses in perfdx: reading the profilers'
// DB exports (kImmutable: nothing beside the file is ever written, so
// read-only media work, and the changes in an un-checkpointed -wal are read)
// and the run library (read-write, WAL, transactions; read-only for the
// commands that only read it). Errors are Status values naming the file and carrying
// SQLite's own message; nothing here throws.
//
//   PERFDX_ASSIGN_OR_RETURN(SqliteDb db, SqliteDb::Open(path, SqliteDb::kImmutable));
//   if (!db.HasTable("TASK")) ...
//   PERFDX_ASSIGN_OR_RETURN(SqliteStatement st, db.Prepare("SELECT startNs FROM TASK WHERE id >
//   ?")); st.Bind(1, int64_t{42}); while (true) {
//     PERFDX_ASSIGN_OR_RETURN(bool row, st.Step());
//     if (!row) break;
//     int64_t start = st.Int(0);
//   }
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "perfdx/base/status.h"

struct sqlite3;
struct sqlite3_stmt;

namespace perfdx::io {

class SqliteStatement;

class SqliteDb {
 public:
  enum OpenMode {
    kReadWriteCreate,
    kReadWrite,
    // Read-only with SQLite's locks (a writer may be saving meanwhile); where
    // SQLite cannot create the -wal / -shm it needs (a folder this user may
    // not write), read as kImmutable.
    kReadOnly,
    // A profiler's export: read-only, and nothing is created or changed
    // beside it (no -shm, no journal, no checkpoint); an un-checkpointed
    // PATH-wal is read too. Needs the SQLite magic number.
    kImmutable,
  };

  // Sets the busy timeout before anything else, so that every later lock
  // wait (including the first schema read) retries instead of failing.
  static Result<SqliteDb> Open(const std::string& path, OpenMode mode, int busy_timeout_ms = 0);

  SqliteDb() = default;
  ~SqliteDb();
  SqliteDb(SqliteDb&& other) noexcept;
  SqliteDb& operator=(SqliteDb&& other) noexcept;
  SqliteDb(const SqliteDb&) = delete;
  SqliteDb& operator=(const SqliteDb&) = delete;

  // One or more statements without results.
  Status Exec(std::string_view sql);
  Result<SqliteStatement> Prepare(std::string_view sql) const;
  // The first column of the first row of a query (e.g. a PRAGMA).
  Result<int64_t> QueryInt(std::string_view sql);
  Result<std::string> QueryText(std::string_view sql);

  bool HasTable(std::string_view table) const;
  // The table's column names; empty when there is no such table.
  Result<std::vector<std::string>> Columns(std::string_view table) const;

  int64_t LastInsertRowId() const;
  int Changes() const;
  const std::string& path() const { return path_; }
  sqlite3* handle() const { return db_; }

  // The status for SQLite result code `rc`, with the connection's message.
  Status Error(int rc, std::string_view what) const;
  static Status ErrorFor(sqlite3* db, int rc, std::string_view what);

 private:
  sqlite3* db_ = nullptr;
  std::string path_;
};

class SqliteStatement {
 public:
  SqliteStatement() = default;
  ~SqliteStatement();
  SqliteStatement(SqliteStatement&& other) noexcept;
  SqliteStatement& operator=(SqliteStatement&& other) noexcept;
  SqliteStatement(const SqliteStatement&) = delete;
  SqliteStatement& operator=(const SqliteStatement&) = delete;

  // Parameters are 1-based, as in SQLite. Bind errors surface at Step/Run.
  SqliteStatement& Bind(int index, int64_t value);
  SqliteStatement& Bind(int index, double value);
  SqliteStatement& Bind(int index, std::string_view text);
  SqliteStatement& Bind(int index, std::optional<int64_t> value);
  SqliteStatement& BindNull(int index);

  // true: a row is ready; false: done.
  Result<bool> Step();
  // Steps to the end, for statements without results.
  Status Run();
  // Ready to run again with new bindings.
  void Reset();

  int columns() const;
  bool IsNull(int column) const;
  bool IsInteger(int column) const;
  int64_t Int(int column) const;
  double Double(int column) const;
  std::string_view Text(int column) const;  // valid until the next Step
  // An integer however it is stored: INTEGER as is, TEXT parsed exactly
  // (torch_npu writes PYTORCH_API times as text), REAL rounded; nullopt for
  // NULL and text that is not a number.
  std::optional<int64_t> ExactInt(int column) const;

 private:
  friend class SqliteDb;
  explicit SqliteStatement(sqlite3_stmt* stmt) : stmt_(stmt) {}

  sqlite3_stmt* stmt_ = nullptr;
  int bind_error_ = 0;  // the first failed bind's result code
};

class SqliteTransaction {
 public:
  // BEGIN IMMEDIATE: takes the write lock up front, so two writers queue on
  // the busy timeout rather than both reading and then failing to upgrade.
  static Result<SqliteTransaction> BeginImmediate(SqliteDb& db);
  // BEGIN (deferred): for reads, one consistent snapshot across queries.
  static Result<SqliteTransaction> BeginRead(SqliteDb& db);

  ~SqliteTransaction();  // rolls back unless committed
  SqliteTransaction(SqliteTransaction&& other) noexcept;
  SqliteTransaction& operator=(SqliteTransaction&&) = delete;
  SqliteTransaction(const SqliteTransaction&) = delete;
  SqliteTransaction& operator=(const SqliteTransaction&) = delete;

  Status Commit();

 private:
  explicit SqliteTransaction(SqliteDb* db) : db_(db) {}
  SqliteDb* db_ = nullptr;
};

// Does the file start with the SQLite magic ("SQLite format 3\0")? An error
// when it cannot be read (naming the OS's reason).
Result<bool> SniffSqlite(const std::string& path);
// The same, false when it cannot be read.
bool LooksLikeSqlite(const std::string& path);

}  // namespace perfdx::io
