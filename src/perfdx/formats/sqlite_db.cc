#include "perfdx/formats/sqlite_db.h"

#include <cmath>
#include <fstream>

#include <fmt/format.h>
#include <sqlite3.h>

#include "perfdx/base/decimal_time.h"

namespace perfdx::formats {
namespace {

// A filesystem path as an SQLite URI path: '%', '?' and '#' would otherwise
// start an escape, the query or the fragment.
std::string UriEscape(const std::string& path) {
  std::string out;
  for (const char c : path) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '%' || c == '?' || c == '#' || u < 0x20 || u >= 0x7F) {
      out += fmt::format("%{:02X}", u);
    } else {
      out.push_back(c);
    }
  }
  return out;
}

}  // namespace

SqliteStatement::SqliteStatement(SqliteStatement&& other) noexcept
    : stmt_(other.stmt_), context_(std::move(other.context_)) {
  other.stmt_ = nullptr;
}

SqliteStatement& SqliteStatement::operator=(SqliteStatement&& other) noexcept {
  if (this != &other) {
    sqlite3_finalize(stmt_);
    stmt_ = other.stmt_;
    context_ = std::move(other.context_);
    other.stmt_ = nullptr;
  }
  return *this;
}

SqliteStatement::~SqliteStatement() {
  sqlite3_finalize(stmt_);
}

Result<bool> SqliteStatement::Step() {
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  return InvalidInput(fmt::format("{}: {}", context_, sqlite3_errstr(rc)));
}

int SqliteStatement::columns() const {
  return sqlite3_column_count(stmt_);
}

bool SqliteStatement::IsNull(int column) const {
  return sqlite3_column_type(stmt_, column) == SQLITE_NULL;
}

bool SqliteStatement::IsInteger(int column) const {
  return sqlite3_column_type(stmt_, column) == SQLITE_INTEGER;
}

int64_t SqliteStatement::Int(int column) const {
  return sqlite3_column_int64(stmt_, column);
}

double SqliteStatement::Double(int column) const {
  return sqlite3_column_double(stmt_, column);
}

std::string_view SqliteStatement::Text(int column) const {
  const unsigned char* text = sqlite3_column_text(stmt_, column);
  if (text == nullptr) return {};
  return {reinterpret_cast<const char*>(text),
          static_cast<size_t>(sqlite3_column_bytes(stmt_, column))};
}

std::optional<int64_t> SqliteStatement::ExactInt(int column) const {
  switch (sqlite3_column_type(stmt_, column)) {
    case SQLITE_INTEGER:
      return sqlite3_column_int64(stmt_, column);
    case SQLITE_FLOAT: {
      const double v = sqlite3_column_double(stmt_, column);
      if (!std::isfinite(v) || std::fabs(v) > 9.2e18) return std::nullopt;
      return std::llround(v);
    }
    case SQLITE_TEXT:
      return ParseDecimalScaled(Text(column), 0);
    default:
      return std::nullopt;
  }
}

Result<SqliteDb> SqliteDb::OpenReadOnly(const std::string& path) {
  if (!LooksLikeSqlite(path)) {
    return InvalidInput(fmt::format("{}: not an SQLite database", path));
  }
  sqlite3* handle = nullptr;
  const std::string uri = "file:" + UriEscape(path) + "?immutable=1";
  const int rc = sqlite3_open_v2(
      uri.c_str(), &handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, nullptr);
  SqliteDb db(handle, path);  // closes the handle even when opening failed
  if (rc != SQLITE_OK) {
    return IoError(fmt::format("{}: cannot open: {}", path, sqlite3_errstr(rc)));
  }
  PERFDX_ASSIGN_OR_RETURN(SqliteStatement st,
                          db.Prepare("SELECT name FROM sqlite_master WHERE type = 'table'"));
  for (;;) {
    PERFDX_ASSIGN_OR_RETURN(bool row, st.Step());
    if (!row) break;
    db.tables_.emplace(st.Text(0));
  }
  return db;
}

SqliteDb::SqliteDb(SqliteDb&& other) noexcept
    : db_(other.db_), path_(std::move(other.path_)), tables_(std::move(other.tables_)) {
  other.db_ = nullptr;
}

SqliteDb& SqliteDb::operator=(SqliteDb&& other) noexcept {
  if (this != &other) {
    sqlite3_close_v2(db_);
    db_ = other.db_;
    path_ = std::move(other.path_);
    tables_ = std::move(other.tables_);
    other.db_ = nullptr;
  }
  return *this;
}

SqliteDb::~SqliteDb() {
  sqlite3_close_v2(db_);
}

Result<SqliteStatement> SqliteDb::Prepare(std::string_view sql) const {
  sqlite3_stmt* stmt = nullptr;
  const int rc = sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &stmt, nullptr);
  if (rc != SQLITE_OK) {
    sqlite3_finalize(stmt);
    return InvalidInput(fmt::format("{}: {}: {}", path_, sqlite3_errmsg(db_), sql));
  }
  return SqliteStatement(stmt, fmt::format("{}: {}", path_, sql));
}

bool SqliteDb::HasTable(std::string_view table) const {
  return tables_.contains(std::string(table));
}

Result<std::vector<std::string>> SqliteDb::Columns(std::string_view table) const {
  std::vector<std::string> out;
  if (!HasTable(table)) return out;
  // The name comes from sqlite_master, so quoting it is enough.
  PERFDX_ASSIGN_OR_RETURN(SqliteStatement st,
                          Prepare(fmt::format("PRAGMA table_info(\"{}\")", table)));
  for (;;) {
    PERFDX_ASSIGN_OR_RETURN(bool row, st.Step());
    if (!row) break;
    out.emplace_back(st.Text(1));
  }
  return out;
}

bool LooksLikeSqlite(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char magic[16] = {};
  in.read(magic, sizeof(magic));
  return in.gcount() == sizeof(magic) &&
         std::string_view(magic, sizeof(magic)) == std::string_view("SQLite format 3\0", 16);
}

}  // namespace perfdx::formats
