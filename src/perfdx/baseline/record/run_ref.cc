#include "perfdx/baseline/record/run_ref.h"

#include <filesystem>

#include <fmt/format.h>

#include "perfdx/baseline/store.h"

namespace perfdx::baseline {

Result<RunRecord> ResolveRun(const std::string& ref, const std::string& db_path,
                             const RunInputOptions& options) {
  std::error_code ec;
  if (ref == io::kStdinPath || std::filesystem::exists(ref, ec)) return LoadRunInput(ref, options);
  Result<RunStore> store = RunStore::Open(db_path, RunStore::Mode::kRead);
  if (!store.ok()) {
    if (store.status().code() == StatusCode::kNotFound) {
      return NotFound(
          fmt::format("{}: no such file, and no run library at {} to look it up in", ref, db_path));
    }
    return store.status();
  }
  return store->Load(ref);
}

}  // namespace perfdx::baseline
