// A read-only SQLite database, RAII over the SQLite C API, for the profilers'
// DB exports (ascend_pytorch_profiler_{rank}.db, ascend_mindspore_profiler_{rank}.db).
//
// The file is opened read-only and immutable (URI "file:...?immutable=1"):
// SQLite then takes no locks, writes no journal and never touches the file,
// which also makes profiles on read-only media readable. Errors are Status
// values naming the file.
//
//   PERFDX_ASSIGN_OR_RETURN(SqliteDb db, SqliteDb::OpenReadOnly(path));
//   if (!db.HasTable("TASK")) ...
//   PERFDX_ASSIGN_OR_RETURN(SqliteStatement st, db.Prepare("SELECT startNs FROM TASK"));
//   while (true) {
//     PERFDX_ASSIGN_OR_RETURN(bool row, st.Step());
//     if (!row) break;
//     int64_t start = st.Int(0);
//   }
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "perfdx/base/status.h"

struct sqlite3;
struct sqlite3_stmt;

namespace perfdx::formats {

class SqliteStatement {
 public:
  SqliteStatement(SqliteStatement&& other) noexcept;
  SqliteStatement& operator=(SqliteStatement&& other) noexcept;
  SqliteStatement(const SqliteStatement&) = delete;
  SqliteStatement& operator=(const SqliteStatement&) = delete;
  ~SqliteStatement();

  // Advances to the next row: true for a row, false at the end.
  Result<bool> Step();

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
  SqliteStatement(sqlite3_stmt* stmt, std::string context)
      : stmt_(stmt), context_(std::move(context)) {}
  sqlite3_stmt* stmt_ = nullptr;
  std::string context_;  // file and statement, for error messages
};

class SqliteDb {
 public:
  static Result<SqliteDb> OpenReadOnly(const std::string& path);

  SqliteDb(SqliteDb&& other) noexcept;
  SqliteDb& operator=(SqliteDb&& other) noexcept;
  SqliteDb(const SqliteDb&) = delete;
  SqliteDb& operator=(const SqliteDb&) = delete;
  ~SqliteDb();

  Result<SqliteStatement> Prepare(std::string_view sql) const;

  // From sqlite_master / PRAGMA table_info, read once at open.
  bool HasTable(std::string_view table) const;
  // The table's column names; empty when there is no such table.
  Result<std::vector<std::string>> Columns(std::string_view table) const;

  const std::string& path() const { return path_; }

 private:
  SqliteDb(sqlite3* db, std::string path) : db_(db), path_(std::move(path)) {}
  sqlite3* db_ = nullptr;
  std::string path_;
  std::unordered_set<std::string> tables_;
};

// Does the file start with the SQLite magic ("SQLite format 3\0")?
bool LooksLikeSqlite(const std::string& path);

}  // namespace perfdx::formats
