// The run library: a SQLite file (default ./.perfdx/runs.db) holding every
// saved run. Several runs may share a name (a series: "resnet50-nightly");
// each has its own id, and "the run NAME" means the latest one.
//
// Durability (docs/baseline.md):
//   - WAL journal, synchronous=FULL: a committed save survives a crash of
//     the process or the machine; readers never block writers;
//   - each save is one BEGIN IMMEDIATE transaction: a process killed in the
//     middle of one leaves the library as it was before (SQLite discards the
//     uncommitted WAL frames when the next connection opens it);
//   - a busy timeout (30 s by default): concurrent writers queue, none fails.
// The schema version is PRAGMA user_version (kSchemaVersion), and PRAGMA
// application_id marks the file as a perfdx library.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "perfdx/base/status.h"
#include "perfdx/baseline/record/run_record.h"
#include "perfdx/io/sqlite.h"

namespace perfdx::baseline {

inline constexpr char kDefaultDbPath[] = ".perfdx/runs.db";
inline constexpr int kSchemaVersion = 1;
inline constexpr int64_t kApplicationId = 0x70646678;  // "pdfx"
inline constexpr int kDefaultBusyTimeoutMs = 30000;

// One line of `baseline list`.
struct RunSummary {
  int64_t id = 0;
  std::string name;
  int64_t created_unix_s = 0;
  RunSource source = RunSource::kTrace;
  std::string input_path;
  std::string perfdx_version;
  std::string host;
  int64_t steps = 0;
  std::optional<double> median_step_ns;
  std::vector<std::pair<std::string, std::string>> tags;
};

struct ListFilter {
  std::optional<std::string> name;
  std::vector<std::pair<std::string, std::string>> tags;  // all must match
  size_t limit = 0;                                       // the latest N; 0: all
};

// One point of `baseline trend`.
struct TrendPoint {
  int64_t run_id = 0;
  std::string name;
  int64_t created_unix_s = 0;
  double value = 0;
  // From the previous point of the same run name: a relative change (0.05:
  // +5%), or for a share (IsShareMetric) the difference in percentage
  // points (1.5: +1.5 pts). Unset for a series' first point.
  std::optional<double> change;
  bool change_in_points = false;
};

class RunStore {
 public:
  enum class Mode {
    kCreate,    // create the file (and its folder) if missing: save
    kExisting,  // the library must exist and be writable: rm
    kRead,      // read-only, nothing written: list, show, trend, the runs of check and diff
  };

  // A folder, a missing library (but for kCreate) and, for kCreate and
  // kExisting, a library this user may not write are errors naming `path`.
  static Result<RunStore> Open(const std::string& path, Mode mode,
                               int busy_timeout_ms = kDefaultBusyTimeoutMs);

  // Stores the run in one transaction and returns its id. `before_commit`
  // runs inside the transaction, after every row is written (tests use it to
  // kill a process mid-save).
  Result<int64_t> Save(const RunRecord& record, const std::function<void()>& before_commit = {});

  // A run by reference: "12" or "#12" is a run id; anything else a name,
  // meaning the latest run saved under it.
  Result<RunRecord> Load(std::string_view ref);

  Result<std::vector<RunSummary>> List(const ListFilter& filter);

  // Removes one run (an id) or every run of a name; returns how many.
  Result<int64_t> Remove(std::string_view ref);

  // The metric (CanonicalMetricName) over time, oldest first; all names
  // unless `name` is given.
  Result<std::vector<TrendPoint>> Trend(std::string_view metric, std::optional<std::string> name);

  // PRAGMA integrity_check: "ok", or SQLite's list of problems.
  Result<std::string> IntegrityCheck();

  const std::string& path() const { return db_.path(); }

 private:
  explicit RunStore(io::SqliteDb db) : db_(std::move(db)) {}
  Status EnsureSchema();
  Status CheckSchema();  // read-only: the library is there, of a schema this perfdx reads
  Result<int64_t> ResolveRef(std::string_view ref);

  io::SqliteDb db_;
};

// "12" / "#12" -> 12; a name -> nullopt.
std::optional<int64_t> ParseRunId(std::string_view ref);

}  // namespace perfdx::baseline
