#include "perfdx/io/sqlite.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <utility>

#include <fmt/format.h>
#include <sqlite3.h>

#include "perfdx/base/decimal_time.h"

namespace perfdx::io {

namespace {

// SQLite's primary result code -> perfdx's status code.
Status FromCode(int rc, std::string message) {
  switch (rc & 0xff) {
    case SQLITE_NOTADB:
    case SQLITE_CORRUPT:
      return InvalidInput(std::move(message));
    case SQLITE_CANTOPEN:
      return NotFound(std::move(message));
    case SQLITE_NOMEM:
      return LimitExceeded(std::move(message));
    default:
      return IoError(std::move(message));
  }
}

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

Status SqliteDb::ErrorFor(sqlite3* db, int rc, std::string_view what) {
  const char* detail = db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
  return FromCode(rc, fmt::format("{}: {}", what, detail));
}

Status SqliteDb::Error(int rc, std::string_view what) const {
  return ErrorFor(db_, rc, fmt::format("{}: {}", path_, what));
}

namespace {

bool Exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

// How a profiler's export is opened so that nothing beside it is written
// (https://sqlite.org/wal.html, "Read-Only Databases"):
//   no PATH-wal (or an empty one): immutable=1, no locks and no journal;
//   PATH-wal and PATH-shm: read-only, the -shm opened read-only too
//     (readonly_shm=1): SQLite rebuilds the WAL index in private memory when
//     no writer holds it, and shares the writer's when one does;
//   PATH-wal without PATH-shm: SQLite would create the -shm, so the WAL index
//     is kept in private memory instead (exclusive locking mode), and the
//     lock on the file, which a read-only descriptor cannot take, is skipped
//     (the unix-none VFS): without a -shm no writer has the file open.
// Either way the frames of an un-checkpointed -wal are read.
struct ExportOpen {
  std::string uri;
  bool exclusive = false;
};

Result<ExportOpen> ExportUri(const std::string& path) {
  const std::string escaped = "file:" + UriEscape(path);
  const std::string wal = path + "-wal";
  struct stat st {};
  if (::stat(wal.c_str(), &st) != 0 || st.st_size == 0) return ExportOpen{escaped + "?immutable=1"};
  const int fd = ::open(wal.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) {
    return IoError(fmt::format(
        "{}: cannot read: {} (it holds changes not yet written into {}; let perfdx read it, or "
        "checkpoint it: sqlite3 {} 'PRAGMA wal_checkpoint')",
        wal, std::strerror(errno), path, path));
  }
  ::close(fd);
  const std::string shm = path + "-shm";
  if (Exists(shm) && ::access(shm.c_str(), R_OK) == 0) {
    return ExportOpen{escaped + "?mode=ro&readonly_shm=1"};
  }
  return ExportOpen{escaped + "?mode=ro&vfs=unix-none", true};
}

// Opens and reads the schema: SQLite opens lazily, so a file it cannot read
// (or whose -wal it cannot use) fails only at the first statement.
Status Probe(SqliteDb& db) {
  auto st = db.Prepare("SELECT count(*) FROM sqlite_schema");
  if (!st.ok()) return st.status();
  return st->Step().status();
}

int PrimaryCode(const Status& s, sqlite3* db) {
  return s.ok() || db == nullptr ? SQLITE_OK : sqlite3_errcode(db) & 0xff;
}

}  // namespace

Result<SqliteDb> SqliteDb::Open(const std::string& path, OpenMode mode, int busy_timeout_ms) {
  int flags =
      SQLITE_OPEN_NOMUTEX;  // one connection per thread; SQLite's own locks between processes
  switch (mode) {
    case kReadWriteCreate:
      flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
      break;
    case kReadWrite:
      flags |= SQLITE_OPEN_READWRITE;
      break;
    case kReadOnly:
    case kImmutable:
      flags |= SQLITE_OPEN_READONLY | SQLITE_OPEN_URI;
      break;
  }
  SqliteDb db;
  db.path_ = path;
  std::string name = path;
  bool exclusive = false;
  if (mode == kImmutable) {
    PERFDX_ASSIGN_OR_RETURN(const bool sqlite, SniffSqlite(path));
    if (!sqlite) return InvalidInput(fmt::format("{}: not an SQLite database", path));
    PERFDX_ASSIGN_OR_RETURN(ExportOpen how, ExportUri(path));
    name = std::move(how.uri);
    exclusive = how.exclusive;
  } else if (mode == kReadOnly) {
    name = "file:" + UriEscape(path) + "?mode=ro";
  }
  const int rc = sqlite3_open_v2(name.c_str(), &db.db_, flags, nullptr);
  if (rc != SQLITE_OK) return db.Error(rc, "cannot open");
  sqlite3_extended_result_codes(db.db_, 1);
  sqlite3_busy_timeout(db.db_, busy_timeout_ms);
  if (mode == kReadOnly || mode == kImmutable) {
    // A reader never checkpoints: closing leaves the -wal as it was.
    sqlite3_db_config(db.db_, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, nullptr);
  }
  if (exclusive) PERFDX_RETURN_IF_ERROR(db.Exec("PRAGMA locking_mode=EXCLUSIVE"));
  if (mode == kReadOnly) {
    const Status probe = Probe(db);
    const int primary = PrimaryCode(probe, db.db_);
    // A WAL database whose -wal and -shm this user cannot create (a folder
    // it may not write): no writer has them open, so it is read as an export.
    if (primary == SQLITE_READONLY || primary == SQLITE_CANTOPEN) {
      return Open(path, kImmutable, busy_timeout_ms);
    }
    PERFDX_RETURN_IF_ERROR(probe);
  }
  return db;
}

SqliteDb::~SqliteDb() {
  // close_v2 defers the close until any statement still alive is finalized.
  if (db_ != nullptr) sqlite3_close_v2(db_);
}

SqliteDb::SqliteDb(SqliteDb&& other) noexcept
    : db_(std::exchange(other.db_, nullptr)), path_(std::move(other.path_)) {}

SqliteDb& SqliteDb::operator=(SqliteDb&& other) noexcept {
  if (this != &other) {
    if (db_ != nullptr) sqlite3_close_v2(db_);
    db_ = std::exchange(other.db_, nullptr);
    path_ = std::move(other.path_);
  }
  return *this;
}

Status SqliteDb::Exec(std::string_view sql) {
  char* message = nullptr;
  const std::string text(sql);
  const int rc = sqlite3_exec(db_, text.c_str(), nullptr, nullptr, &message);
  if (rc == SQLITE_OK) return Status::Ok();
  std::string detail = message != nullptr ? message : sqlite3_errstr(rc);
  sqlite3_free(message);
  return FromCode(rc, fmt::format("{}: {}", path_, detail));
}

Result<SqliteStatement> SqliteDb::Prepare(std::string_view sql) const {
  sqlite3_stmt* stmt = nullptr;
  const int rc = sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &stmt, nullptr);
  if (rc != SQLITE_OK) {
    sqlite3_finalize(stmt);
    return Error(rc, fmt::format("cannot prepare \"{}\"", sql.substr(0, 60)));
  }
  return SqliteStatement(stmt);
}

Result<int64_t> SqliteDb::QueryInt(std::string_view sql) {
  PERFDX_ASSIGN_OR_RETURN(SqliteStatement st, Prepare(sql));
  PERFDX_ASSIGN_OR_RETURN(bool row, st.Step());
  if (!row) return Internal(fmt::format("{}: \"{}\" returned no row", path_, sql));
  return st.Int(0);
}

Result<std::string> SqliteDb::QueryText(std::string_view sql) {
  PERFDX_ASSIGN_OR_RETURN(SqliteStatement st, Prepare(sql));
  PERFDX_ASSIGN_OR_RETURN(bool row, st.Step());
  if (!row) return Internal(fmt::format("{}: \"{}\" returned no row", path_, sql));
  return std::string(st.Text(0));
}

bool SqliteDb::HasTable(std::string_view table) const {
  auto st = Prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?");
  if (!st.ok()) return false;
  st->Bind(1, table);
  auto row = st->Step();
  return row.ok() && *row;
}

Result<std::vector<std::string>> SqliteDb::Columns(std::string_view table) const {
  std::vector<std::string> out;
  if (!HasTable(table)) return out;
  // The name exists in sqlite_master, so quoting it is enough.
  PERFDX_ASSIGN_OR_RETURN(SqliteStatement st,
                          Prepare(fmt::format("PRAGMA table_info(\"{}\")", table)));
  for (;;) {
    PERFDX_ASSIGN_OR_RETURN(bool row, st.Step());
    if (!row) break;
    out.emplace_back(st.Text(1));
  }
  return out;
}

int64_t SqliteDb::LastInsertRowId() const {
  return sqlite3_last_insert_rowid(db_);
}
int SqliteDb::Changes() const {
  return sqlite3_changes(db_);
}

SqliteStatement::~SqliteStatement() {
  sqlite3_finalize(stmt_);
}

SqliteStatement::SqliteStatement(SqliteStatement&& other) noexcept
    : stmt_(std::exchange(other.stmt_, nullptr)), bind_error_(other.bind_error_) {}

SqliteStatement& SqliteStatement::operator=(SqliteStatement&& other) noexcept {
  if (this != &other) {
    sqlite3_finalize(stmt_);
    stmt_ = std::exchange(other.stmt_, nullptr);
    bind_error_ = other.bind_error_;
  }
  return *this;
}

namespace {

void KeepFirstError(int rc, int& first) {
  if (rc != SQLITE_OK && first == SQLITE_OK) first = rc;
}

}  // namespace

SqliteStatement& SqliteStatement::Bind(int index, int64_t value) {
  KeepFirstError(sqlite3_bind_int64(stmt_, index, value), bind_error_);
  return *this;
}

SqliteStatement& SqliteStatement::Bind(int index, double value) {
  KeepFirstError(sqlite3_bind_double(stmt_, index, value), bind_error_);
  return *this;
}

SqliteStatement& SqliteStatement::Bind(int index, std::string_view text) {
  KeepFirstError(
      sqlite3_bind_text64(stmt_, index, text.data(), text.size(), SQLITE_TRANSIENT, SQLITE_UTF8),
      bind_error_);
  return *this;
}

SqliteStatement& SqliteStatement::Bind(int index, std::optional<int64_t> value) {
  return value ? Bind(index, *value) : BindNull(index);
}

SqliteStatement& SqliteStatement::BindNull(int index) {
  KeepFirstError(sqlite3_bind_null(stmt_, index), bind_error_);
  return *this;
}

Result<bool> SqliteStatement::Step() {
  sqlite3* db = sqlite3_db_handle(stmt_);
  if (bind_error_ != SQLITE_OK) return SqliteDb::ErrorFor(db, bind_error_, "bind");
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  return SqliteDb::ErrorFor(db, rc,
                            fmt::format("{}: {}", sqlite3_db_filename(db, "main"),
                                        std::string_view(sqlite3_sql(stmt_)).substr(0, 60)));
}

Status SqliteStatement::Run() {
  while (true) {
    PERFDX_ASSIGN_OR_RETURN(bool row, Step());
    if (!row) return Status::Ok();
  }
}

void SqliteStatement::Reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
  bind_error_ = SQLITE_OK;
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

Result<SqliteTransaction> SqliteTransaction::BeginImmediate(SqliteDb& db) {
  PERFDX_RETURN_IF_ERROR(db.Exec("BEGIN IMMEDIATE"));
  return SqliteTransaction(&db);
}

Result<SqliteTransaction> SqliteTransaction::BeginRead(SqliteDb& db) {
  PERFDX_RETURN_IF_ERROR(db.Exec("BEGIN"));
  return SqliteTransaction(&db);
}

SqliteTransaction::~SqliteTransaction() {
  if (db_ != nullptr) (void)db_->Exec("ROLLBACK");
}

SqliteTransaction::SqliteTransaction(SqliteTransaction&& other) noexcept
    : db_(std::exchange(other.db_, nullptr)) {}

Status SqliteTransaction::Commit() {
  if (db_ == nullptr) return Internal("commit of a finished transaction");
  Status s = db_->Exec("COMMIT");
  // A failed COMMIT (SQLITE_BUSY) leaves the transaction open; the
  // destructor's ROLLBACK then ends it.
  if (s.ok()) db_ = nullptr;
  return s;
}

Result<bool> SniffSqlite(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) {
    const int err = errno;
    if (err == ENOENT) return NotFound(fmt::format("{}: no such file", path));
    return IoError(fmt::format("{}: cannot read: {}", path, std::strerror(err)));
  }
  char magic[16] = {};
  size_t have = 0;
  while (have < sizeof(magic)) {
    const ssize_t n = ::read(fd, magic + have, sizeof(magic) - have);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int err = errno;
      ::close(fd);
      return IoError(fmt::format("{}: cannot read: {}", path, std::strerror(err)));
    }
    if (n == 0) break;
    have += static_cast<size_t>(n);
  }
  ::close(fd);
  return have == sizeof(magic) &&
         std::string_view(magic, sizeof(magic)) == std::string_view("SQLite format 3\0", 16);
}

bool LooksLikeSqlite(const std::string& path) {
  const Result<bool> sqlite = SniffSqlite(path);
  return sqlite.ok() && *sqlite;
}

}  // namespace perfdx::io
