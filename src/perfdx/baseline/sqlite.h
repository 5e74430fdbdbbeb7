// Thin RAII wrappers over the SQLite C API: a connection, a prepared
// statement, a transaction. Errors come back as Status values carrying
// SQLite's own message; nothing here throws.
//
//   PERFDX_ASSIGN_OR_RETURN(SqliteDb db, SqliteDb::Open(path, SqliteDb::kReadWriteCreate));
//   PERFDX_ASSIGN_OR_RETURN(SqliteTransaction tx, SqliteTransaction::BeginImmediate(db));
//   PERFDX_ASSIGN_OR_RETURN(SqliteStatement st, db.Prepare("INSERT INTO t(x) VALUES (?)"));
//   st.Bind(1, int64_t{42});
//   PERFDX_RETURN_IF_ERROR(st.Run());
//   PERFDX_RETURN_IF_ERROR(tx.Commit());   // the destructor rolls back otherwise
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "perfdx/base/status.h"

struct sqlite3;
struct sqlite3_stmt;

namespace perfdx::baseline {

class SqliteStatement;

class SqliteDb {
 public:
  enum OpenMode { kReadWriteCreate, kReadWrite, kReadOnly };

  // Sets the busy timeout before anything else, so that every later lock
  // wait (including the first schema read) retries instead of failing.
  static Result<SqliteDb> Open(const std::string& path, OpenMode mode, int busy_timeout_ms);

  SqliteDb() = default;
  ~SqliteDb();
  SqliteDb(SqliteDb&& other) noexcept;
  SqliteDb& operator=(SqliteDb&& other) noexcept;
  SqliteDb(const SqliteDb&) = delete;
  SqliteDb& operator=(const SqliteDb&) = delete;

  // One or more statements without results.
  Status Exec(std::string_view sql);
  Result<SqliteStatement> Prepare(std::string_view sql);
  // The first column of the first row of a query (e.g. a PRAGMA).
  Result<int64_t> QueryInt(std::string_view sql);
  Result<std::string> QueryText(std::string_view sql);

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

  int64_t ColumnInt(int column) const;
  double ColumnDouble(int column) const;
  std::string ColumnText(int column) const;
  bool ColumnIsNull(int column) const;

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

}  // namespace perfdx::baseline
