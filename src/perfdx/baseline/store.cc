#include "perfdx/baseline/store.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <map>
#include <thread>

#include <fmt/format.h>
#include <fmt/ranges.h>  // fmt::join
#include <sqlite3.h>

namespace perfdx::baseline {

using io::SqliteDb;
using io::SqliteStatement;
using io::SqliteTransaction;

namespace {

namespace fs = std::filesystem;

// Version 1. Times are integer ns, as everywhere in perfdx; a run's rows in
// the child tables go with it (ON DELETE CASCADE, and Remove deletes them
// explicitly as well).
constexpr std::string_view kSchemaV1 = R"sql(
CREATE TABLE runs (
  id              INTEGER PRIMARY KEY AUTOINCREMENT,  -- never reused after rm
  name            TEXT NOT NULL,
  created_unix_s  INTEGER NOT NULL,
  perfdx_version  TEXT NOT NULL,
  source          TEXT NOT NULL,   -- trace | report | step_log
  input_path      TEXT NOT NULL,
  fingerprint     TEXT NOT NULL,   -- fnv1a64:<hex> of the input file
  host            TEXT NOT NULL,
  host_info       TEXT NOT NULL,
  device          TEXT NOT NULL,
  rank            INTEGER,
  analysis_window TEXT NOT NULL,
  items_complete  INTEGER NOT NULL,
  notes           TEXT NOT NULL    -- one per line
);
CREATE INDEX runs_by_name ON runs(name, created_unix_s);
CREATE TABLE run_tags (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  key    TEXT NOT NULL,
  value  TEXT NOT NULL,
  PRIMARY KEY (run_id, key)
) WITHOUT ROWID;
CREATE TABLE run_steps (
  run_id  INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  seq     INTEGER NOT NULL,        -- position in the run, from 0
  step_id INTEGER NOT NULL,
  dur_ns  INTEGER NOT NULL,
  samples REAL NOT NULL,           -- 0 when unknown
  PRIMARY KEY (run_id, seq)
) WITHOUT ROWID;
CREATE TABLE run_step_phases (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  seq    INTEGER NOT NULL,
  phase  TEXT NOT NULL,
  ns     INTEGER NOT NULL,
  PRIMARY KEY (run_id, seq, phase)
) WITHOUT ROWID;
CREATE TABLE run_metrics (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  metric TEXT NOT NULL,
  value  REAL NOT NULL,
  PRIMARY KEY (run_id, metric)
) WITHOUT ROWID;
CREATE TABLE run_items (
  run_id   INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  name     TEXT NOT NULL,
  kind     TEXT NOT NULL,
  count    INTEGER NOT NULL,
  total_ns INTEGER NOT NULL,
  PRIMARY KEY (run_id, name)
) WITHOUT ROWID;
)sql";

std::string JoinLines(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& l : lines) {
    if (!out.empty()) out += '\n';
    out += l;
  }
  return out;
}

std::vector<std::string> SplitLines(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    out.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

// journal_mode=WAL needs a moment with no other connection mid-change; the
// busy handler does not cover that switch, so retry it (only while the file
// is busy) for the timeout.
Status EnableWal(SqliteDb& db, int busy_timeout_ms) {
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(busy_timeout_ms);
  while (true) {
    sqlite3_stmt* stmt = nullptr;
    int rc = sqlite3_prepare_v2(db.handle(), "PRAGMA journal_mode=WAL", -1, &stmt, nullptr);
    std::string mode;
    if (rc == SQLITE_OK) {
      rc = sqlite3_step(stmt);
      if (rc == SQLITE_ROW) {
        const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
        mode = text != nullptr ? text : "";
        rc = SQLITE_OK;
      }
    }
    sqlite3_finalize(stmt);
    if (rc == SQLITE_OK) {
      if (mode != "wal")
        return IoError(fmt::format("{}: cannot use WAL mode (got {})", db.path(), mode));
      return Status::Ok();
    }
    const int primary = rc & 0xff;
    if ((primary != SQLITE_BUSY && primary != SQLITE_LOCKED) ||
        std::chrono::steady_clock::now() >= deadline) {
      return db.Error(rc, "cannot open");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

}  // namespace

std::optional<int64_t> ParseRunId(std::string_view ref) {
  if (!ref.empty() && ref.front() == '#') ref.remove_prefix(1);
  if (ref.empty()) return std::nullopt;
  int64_t id = 0;
  auto [end, ec] = std::from_chars(ref.data(), ref.data() + ref.size(), id);
  if (ec != std::errc() || end != ref.data() + ref.size() || id <= 0) return std::nullopt;
  return id;
}

namespace {

// Why save or rm cannot write the library: the file, or the folder where
// SQLite keeps its journal (PATH-wal) beside it.
Status NotWritable(const std::string& path) {
  if (::access(path.c_str(), W_OK) != 0 && errno != ENOENT) {
    return IoError(fmt::format(
        "{}: the run library is read-only ({}); baseline save and rm need write access to it", path,
        std::strerror(errno)));
  }
  const fs::path parent = fs::path(path).parent_path();
  const std::string folder = parent.empty() ? std::string(".") : parent.string();
  if (::access(folder.c_str(), W_OK) != 0) {
    return IoError(fmt::format(
        "{}: the run library's folder {} is read-only ({}); baseline save and rm write there "
        "(the library and SQLite's journal beside it)",
        path, folder, std::strerror(errno)));
  }
  return IoError(fmt::format(
      "{}: the run library is read-only; baseline save and rm need write access to it", path));
}

bool IsReadOnlyError(const SqliteDb& db) {
  const int rc = sqlite3_errcode(db.handle()) & 0xff;
  return rc == SQLITE_READONLY || rc == SQLITE_CANTOPEN || rc == SQLITE_PERM;
}

}  // namespace

Result<RunStore> RunStore::Open(const std::string& path, Mode mode, int busy_timeout_ms) {
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (fs::is_directory(status)) {
    return InvalidInput(fmt::format("{}: is a folder; --db needs the run library's file", path));
  }
  if (mode != Mode::kCreate) {
    if (!fs::exists(status)) {
      return NotFound(fmt::format(
          "{}: no run library here (save a run first: perfdx baseline save; or name the library "
          "with --db)",
          path));
    }
  } else {
    const fs::path parent = fs::path(path).parent_path();
    if (!parent.empty()) {
      fs::create_directories(parent, ec);
      if (ec)
        return IoError(fmt::format("{}: cannot create folder: {}", parent.string(), ec.message()));
    }
  }
  if (mode == Mode::kRead) {
    PERFDX_ASSIGN_OR_RETURN(SqliteDb db,
                            SqliteDb::Open(path, SqliteDb::kReadOnly, busy_timeout_ms));
    RunStore store(std::move(db));
    PERFDX_RETURN_IF_ERROR(store.CheckSchema());
    return store;
  }
  auto opened = SqliteDb::Open(
      path, mode == Mode::kCreate ? SqliteDb::kReadWriteCreate : SqliteDb::kReadWrite,
      busy_timeout_ms);
  if (!opened.ok()) {
    const fs::path parent = fs::path(path).parent_path();
    const std::string folder = parent.empty() ? std::string(".") : parent.string();
    const bool exists = ::access(path.c_str(), F_OK) == 0;
    if ((exists && ::access(path.c_str(), W_OK) != 0) ||
        (!exists && ::access(folder.c_str(), W_OK) != 0)) {
      return NotWritable(path);
    }
    return opened.status();
  }
  SqliteDb db = std::move(*opened);
  // SQLite opens a file it may not write read-only without a word.
  if (sqlite3_db_readonly(db.handle(), "main") == 1) return NotWritable(path);
  PERFDX_RETURN_IF_ERROR(db.Exec("PRAGMA foreign_keys=ON"));
  if (Status wal = EnableWal(db, busy_timeout_ms); !wal.ok()) {
    return IsReadOnlyError(db) ? NotWritable(path) : wal;
  }
  // FULL: each commit syncs the WAL, so a saved run survives power loss too.
  PERFDX_RETURN_IF_ERROR(db.Exec("PRAGMA synchronous=FULL"));
  RunStore store(std::move(db));
  if (Status schema = store.EnsureSchema(); !schema.ok()) {
    return IsReadOnlyError(store.db_) ? NotWritable(path) : schema;
  }
  return store;
}

Status RunStore::CheckSchema() {
  PERFDX_ASSIGN_OR_RETURN(int64_t version, db_.QueryInt("PRAGMA user_version"));
  PERFDX_ASSIGN_OR_RETURN(int64_t app_id, db_.QueryInt("PRAGMA application_id"));
  if (version == 0 || app_id != kApplicationId) {
    return InvalidInput(
        fmt::format("{}: a SQLite database, but not a perfdx run library", db_.path()));
  }
  if (version > kSchemaVersion) {
    return Unsupported(
        fmt::format("{}: run library schema {} is newer than this perfdx reads ({}); "
                    "upgrade perfdx",
                    db_.path(), version, kSchemaVersion));
  }
  return Status::Ok();
}

Status RunStore::EnsureSchema() {
  PERFDX_ASSIGN_OR_RETURN(int64_t version, db_.QueryInt("PRAGMA user_version"));
  if (version == 0) {
    // Several processes may create the library at once: decide under the
    // write lock, and only the first creates the tables.
    PERFDX_ASSIGN_OR_RETURN(SqliteTransaction tx, SqliteTransaction::BeginImmediate(db_));
    PERFDX_ASSIGN_OR_RETURN(version, db_.QueryInt("PRAGMA user_version"));
    if (version == 0) {
      PERFDX_ASSIGN_OR_RETURN(int64_t tables, db_.QueryInt("SELECT count(*) FROM sqlite_schema"));
      if (tables != 0) {
        return InvalidInput(
            fmt::format("{}: a SQLite database, but not a perfdx run library", db_.path()));
      }
      PERFDX_RETURN_IF_ERROR(db_.Exec(kSchemaV1));
      PERFDX_RETURN_IF_ERROR(db_.Exec(fmt::format("PRAGMA application_id={}", kApplicationId)));
      PERFDX_RETURN_IF_ERROR(db_.Exec(fmt::format("PRAGMA user_version={}", kSchemaVersion)));
    }
    PERFDX_RETURN_IF_ERROR(tx.Commit());
  }
  // Migrations from older schemas go here, one transaction per step.
  return CheckSchema();
}

Result<int64_t> RunStore::Save(const RunRecord& r, const std::function<void()>& before_commit) {
  if (!IsValidRunName(r.name)) {
    return InvalidInput(fmt::format(
        "run name \"{}\": use 1-128 of A-Z a-z 0-9 _ . : / + - (not only digits: those are ids)",
        r.name));
  }
  PERFDX_ASSIGN_OR_RETURN(SqliteTransaction tx, SqliteTransaction::BeginImmediate(db_));
  {
    PERFDX_ASSIGN_OR_RETURN(
        SqliteStatement st,
        db_.Prepare(
            "INSERT INTO runs(name, created_unix_s, perfdx_version, source, input_path, "
            "fingerprint, host, host_info, device, rank, analysis_window, items_complete, notes) "
            "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)"));
    st.Bind(1, r.name)
        .Bind(2, r.created_unix_s)
        .Bind(3, r.perfdx_version)
        .Bind(4, RunSourceName(r.source));
    st.Bind(5, r.input_path)
        .Bind(6, r.fingerprint)
        .Bind(7, r.host)
        .Bind(8, r.host_info)
        .Bind(9, r.device);
    st.Bind(10, r.rank).Bind(11, r.window).Bind(12, int64_t{r.items_complete ? 1 : 0});
    st.Bind(13, JoinLines(r.notes));
    PERFDX_RETURN_IF_ERROR(st.Run());
  }
  const int64_t id = db_.LastInsertRowId();

  PERFDX_ASSIGN_OR_RETURN(SqliteStatement tag, db_.Prepare("INSERT INTO run_tags VALUES (?,?,?)"));
  for (const auto& [key, value] : r.tags) {
    tag.Reset();
    tag.Bind(1, id).Bind(2, key).Bind(3, value);
    PERFDX_RETURN_IF_ERROR(tag.Run());
  }
  PERFDX_ASSIGN_OR_RETURN(SqliteStatement step,
                          db_.Prepare("INSERT INTO run_steps VALUES (?,?,?,?,?)"));
  PERFDX_ASSIGN_OR_RETURN(SqliteStatement phase,
                          db_.Prepare("INSERT INTO run_step_phases VALUES (?,?,?,?)"));
  for (size_t seq = 0; seq < r.steps.size(); ++seq) {
    const StepSample& s = r.steps[seq];
    step.Reset();
    step.Bind(1, id)
        .Bind(2, static_cast<int64_t>(seq))
        .Bind(3, s.id)
        .Bind(4, s.dur_ns)
        .Bind(5, s.samples);
    PERFDX_RETURN_IF_ERROR(step.Run());
    for (const auto& [name, ns] : s.phases_ns) {
      phase.Reset();
      phase.Bind(1, id).Bind(2, static_cast<int64_t>(seq)).Bind(3, name).Bind(4, ns);
      PERFDX_RETURN_IF_ERROR(phase.Run());
    }
  }
  PERFDX_ASSIGN_OR_RETURN(SqliteStatement metric,
                          db_.Prepare("INSERT INTO run_metrics VALUES (?,?,?)"));
  for (const auto& [name, value] : r.metrics) {
    metric.Reset();
    metric.Bind(1, id).Bind(2, name).Bind(3, value);
    PERFDX_RETURN_IF_ERROR(metric.Run());
  }
  PERFDX_ASSIGN_OR_RETURN(SqliteStatement item,
                          db_.Prepare("INSERT INTO run_items VALUES (?,?,?,?,?)"));
  for (const RunItem& i : r.items) {
    item.Reset();
    item.Bind(1, id)
        .Bind(2, i.name)
        .Bind(3, i.kind)
        .Bind(4, static_cast<int64_t>(i.count))
        .Bind(5, i.total_ns);
    PERFDX_RETURN_IF_ERROR(item.Run());
  }
  if (before_commit) before_commit();
  PERFDX_RETURN_IF_ERROR(tx.Commit());
  return id;
}

Result<int64_t> RunStore::ResolveRef(std::string_view ref) {
  if (std::optional<int64_t> id = ParseRunId(ref)) {
    PERFDX_ASSIGN_OR_RETURN(SqliteStatement st, db_.Prepare("SELECT id FROM runs WHERE id = ?"));
    st.Bind(1, *id);
    PERFDX_ASSIGN_OR_RETURN(bool row, st.Step());
    if (!row) return NotFound(fmt::format("{}: no run with id {}", db_.path(), *id));
    return *id;
  }
  PERFDX_ASSIGN_OR_RETURN(
      SqliteStatement st,
      db_.Prepare(
          "SELECT id FROM runs WHERE name = ? ORDER BY created_unix_s DESC, id DESC LIMIT 1"));
  st.Bind(1, ref);
  PERFDX_ASSIGN_OR_RETURN(bool row, st.Step());
  if (!row) return NotFound(fmt::format("{}: no run named \"{}\"", db_.path(), ref));
  return st.Int(0);
}

Result<RunRecord> RunStore::Load(std::string_view ref) {
  PERFDX_ASSIGN_OR_RETURN(SqliteTransaction tx, SqliteTransaction::BeginRead(db_));
  PERFDX_ASSIGN_OR_RETURN(const int64_t id, ResolveRef(ref));
  RunRecord r;
  {
    PERFDX_ASSIGN_OR_RETURN(
        SqliteStatement st,
        db_.Prepare(
            "SELECT name, created_unix_s, perfdx_version, source, input_path, fingerprint, host, "
            "host_info, device, rank, analysis_window, items_complete, notes FROM runs WHERE id = "
            "?"));
    st.Bind(1, id);
    PERFDX_ASSIGN_OR_RETURN(bool row, st.Step());
    if (!row) return NotFound(fmt::format("{}: no run with id {}", db_.path(), id));
    r.id = id;
    r.name = st.Text(0);
    r.created_unix_s = st.Int(1);
    r.perfdx_version = st.Text(2);
    r.source = ParseRunSource(st.Text(3)).value_or(RunSource::kTrace);
    r.input_path = st.Text(4);
    r.fingerprint = st.Text(5);
    r.host = st.Text(6);
    r.host_info = st.Text(7);
    r.device = st.Text(8);
    if (!st.IsNull(9)) r.rank = st.Int(9);
    r.window = st.Text(10);
    r.items_complete = st.Int(11) != 0;
    r.notes = SplitLines(std::string(st.Text(12)));
  }
  {
    PERFDX_ASSIGN_OR_RETURN(
        SqliteStatement st,
        db_.Prepare("SELECT key, value FROM run_tags WHERE run_id = ? ORDER BY key"));
    st.Bind(1, id);
    while (true) {
      PERFDX_ASSIGN_OR_RETURN(bool row, st.Step());
      if (!row) break;
      r.tags.emplace_back(st.Text(0), st.Text(1));
    }
  }
  {
    PERFDX_ASSIGN_OR_RETURN(
        SqliteStatement st,
        db_.Prepare(
            "SELECT step_id, dur_ns, samples FROM run_steps WHERE run_id = ? ORDER BY seq"));
    st.Bind(1, id);
    while (true) {
      PERFDX_ASSIGN_OR_RETURN(bool row, st.Step());
      if (!row) break;
      r.steps.push_back(StepSample{st.Int(0), st.Int(1), st.Double(2), {}});
    }
  }
  {
    PERFDX_ASSIGN_OR_RETURN(
        SqliteStatement st,
        db_.Prepare(
            "SELECT seq, phase, ns FROM run_step_phases WHERE run_id = ? ORDER BY seq, phase"));
    st.Bind(1, id);
    while (true) {
      PERFDX_ASSIGN_OR_RETURN(bool row, st.Step());
      if (!row) break;
      const int64_t seq = st.Int(0);
      if (seq < 0 || static_cast<size_t>(seq) >= r.steps.size()) {
        return InvalidInput(
            fmt::format("{}: run {}: a phase of a step that is not there", db_.path(), id));
      }
      r.steps[static_cast<size_t>(seq)].phases_ns.emplace_back(st.Text(1), st.Int(2));
    }
  }
  {
    PERFDX_ASSIGN_OR_RETURN(SqliteStatement st,
                            db_.Prepare("SELECT metric, value FROM run_metrics WHERE run_id = ?"));
    st.Bind(1, id);
    while (true) {
      PERFDX_ASSIGN_OR_RETURN(bool row, st.Step());
      if (!row) break;
      r.metrics[std::string(st.Text(0))] = st.Double(1);
    }
  }
  {
    PERFDX_ASSIGN_OR_RETURN(
        SqliteStatement st,
        db_.Prepare("SELECT name, kind, count, total_ns FROM run_items WHERE run_id = ? "
                    "ORDER BY total_ns DESC, name"));
    st.Bind(1, id);
    while (true) {
      PERFDX_ASSIGN_OR_RETURN(bool row, st.Step());
      if (!row) break;
      r.items.push_back(RunItem{std::string(st.Text(0)), std::string(st.Text(1)),
                                static_cast<uint64_t>(std::max<int64_t>(0, st.Int(2))), st.Int(3)});
    }
  }
  PERFDX_RETURN_IF_ERROR(tx.Commit());
  return r;
}

Result<std::vector<RunSummary>> RunStore::List(const ListFilter& filter) {
  PERFDX_ASSIGN_OR_RETURN(SqliteTransaction tx, SqliteTransaction::BeginRead(db_));
  PERFDX_ASSIGN_OR_RETURN(
      SqliteStatement st,
      db_.Prepare("SELECT r.id, r.name, r.created_unix_s, r.source, r.input_path, "
                  "r.perfdx_version, r.host, "
                  "(SELECT count(*) FROM run_steps s WHERE s.run_id = r.id), "
                  "(SELECT value FROM run_metrics m WHERE m.run_id = r.id AND "
                  "m.metric = 'step_time_median_ns') "
                  "FROM runs r WHERE (?1 IS NULL OR r.name = ?1) ORDER BY r.created_unix_s, r.id"));
  if (filter.name) {
    st.Bind(1, *filter.name);
  } else {
    st.BindNull(1);
  }
  PERFDX_ASSIGN_OR_RETURN(
      SqliteStatement tags,
      db_.Prepare("SELECT key, value FROM run_tags WHERE run_id = ? ORDER BY key"));
  std::vector<RunSummary> out;
  while (true) {
    PERFDX_ASSIGN_OR_RETURN(bool row, st.Step());
    if (!row) break;
    RunSummary s;
    s.id = st.Int(0);
    s.name = st.Text(1);
    s.created_unix_s = st.Int(2);
    s.source = ParseRunSource(st.Text(3)).value_or(RunSource::kTrace);
    s.input_path = st.Text(4);
    s.perfdx_version = st.Text(5);
    s.host = st.Text(6);
    s.steps = st.Int(7);
    if (!st.IsNull(8)) s.median_step_ns = st.Double(8);
    tags.Reset();
    tags.Bind(1, s.id);
    while (true) {
      PERFDX_ASSIGN_OR_RETURN(bool tag_row, tags.Step());
      if (!tag_row) break;
      s.tags.emplace_back(tags.Text(0), tags.Text(1));
    }
    const bool match = std::all_of(filter.tags.begin(), filter.tags.end(), [&](const auto& want) {
      return std::find(s.tags.begin(), s.tags.end(), want) != s.tags.end();
    });
    if (match) out.push_back(std::move(s));
  }
  PERFDX_RETURN_IF_ERROR(tx.Commit());
  if (filter.limit > 0 && out.size() > filter.limit) {
    out.erase(out.begin(), out.end() - static_cast<std::ptrdiff_t>(filter.limit));
  }
  return out;
}

Result<int64_t> RunStore::Remove(std::string_view ref) {
  PERFDX_ASSIGN_OR_RETURN(SqliteTransaction tx, SqliteTransaction::BeginImmediate(db_));
  std::vector<int64_t> ids;
  if (std::optional<int64_t> id = ParseRunId(ref)) {
    PERFDX_ASSIGN_OR_RETURN(int64_t found, ResolveRef(ref));
    ids.push_back(found);
  } else {
    PERFDX_ASSIGN_OR_RETURN(SqliteStatement st, db_.Prepare("SELECT id FROM runs WHERE name = ?"));
    st.Bind(1, ref);
    while (true) {
      PERFDX_ASSIGN_OR_RETURN(bool row, st.Step());
      if (!row) break;
      ids.push_back(st.Int(0));
    }
    if (ids.empty()) return NotFound(fmt::format("{}: no run named \"{}\"", db_.path(), ref));
  }
  for (std::string_view table :
       {"run_tags", "run_steps", "run_step_phases", "run_metrics", "run_items"}) {
    PERFDX_ASSIGN_OR_RETURN(SqliteStatement del,
                            db_.Prepare(fmt::format("DELETE FROM {} WHERE run_id = ?", table)));
    for (int64_t id : ids) {
      del.Reset();
      del.Bind(1, id);
      PERFDX_RETURN_IF_ERROR(del.Run());
    }
  }
  PERFDX_ASSIGN_OR_RETURN(SqliteStatement del, db_.Prepare("DELETE FROM runs WHERE id = ?"));
  for (int64_t id : ids) {
    del.Reset();
    del.Bind(1, id);
    PERFDX_RETURN_IF_ERROR(del.Run());
  }
  PERFDX_RETURN_IF_ERROR(tx.Commit());
  return static_cast<int64_t>(ids.size());
}

Result<std::vector<TrendPoint>> RunStore::Trend(std::string_view metric,
                                                std::optional<std::string> name) {
  const std::string key = CanonicalMetricName(metric);
  PERFDX_ASSIGN_OR_RETURN(SqliteTransaction tx, SqliteTransaction::BeginRead(db_));
  PERFDX_ASSIGN_OR_RETURN(
      SqliteStatement st,
      db_.Prepare("SELECT r.id, r.name, r.created_unix_s, m.value FROM runs r "
                  "JOIN run_metrics m ON m.run_id = r.id AND m.metric = ?1 "
                  "WHERE (?2 IS NULL OR r.name = ?2) ORDER BY r.created_unix_s, r.id"));
  st.Bind(1, key);
  if (name) {
    st.Bind(2, *name);
  } else {
    st.BindNull(2);
  }
  std::vector<TrendPoint> out;
  const bool share = IsShareMetric(key);
  std::map<std::string, double, std::less<>> last;  // per run name
  while (true) {
    PERFDX_ASSIGN_OR_RETURN(bool row, st.Step());
    if (!row) break;
    TrendPoint p{st.Int(0), std::string(st.Text(1)), st.Int(2), st.Double(3)};
    p.change_in_points = share;
    if (auto it = last.find(p.name); it != last.end()) {
      if (share) {
        p.change = (p.value - it->second) * 100;
      } else if (it->second != 0) {
        p.change = p.value / it->second - 1;
      }
    }
    last[p.name] = p.value;
    out.push_back(std::move(p));
  }
  if (out.empty()) {
    // Say what could have been asked for, when the metric is the problem.
    PERFDX_ASSIGN_OR_RETURN(SqliteStatement known,
                            db_.Prepare("SELECT DISTINCT metric FROM run_metrics ORDER BY metric"));
    std::vector<std::string> metrics;
    bool exists = false;
    while (true) {
      PERFDX_ASSIGN_OR_RETURN(bool row, known.Step());
      if (!row) break;
      metrics.emplace_back(known.Text(0));
      exists |= metrics.back() == key;
    }
    if (!exists && !metrics.empty()) {
      return NotFound(
          fmt::format("no run has metric \"{}\"; known: {}", metric, fmt::join(metrics, ", ")));
    }
  }
  PERFDX_RETURN_IF_ERROR(tx.Commit());
  return out;
}

Result<std::string> RunStore::IntegrityCheck() {
  PERFDX_ASSIGN_OR_RETURN(SqliteStatement st, db_.Prepare("PRAGMA integrity_check"));
  std::string out;
  while (true) {
    PERFDX_ASSIGN_OR_RETURN(bool row, st.Step());
    if (!row) break;
    if (!out.empty()) out += '\n';
    out += st.Text(0);
  }
  return out;
}

}  // namespace perfdx::baseline
