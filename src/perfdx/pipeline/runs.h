// The run pipelines of `perfdx baseline save`, `check` and `diff` as library
// calls: a run named on the command line (a trace, report or step log read
// now, or a run of the library) becomes a RunRecord, is compared, and is
// saved to the run library. The CLI parses flags, calls these, renders the
// result and sets the exit code; no front end repeats the steps.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "perfdx/base/status.h"
#include "perfdx/baseline/compare/check.h"
#include "perfdx/baseline/compare/diff.h"
#include "perfdx/baseline/record/run_input.h"
#include "perfdx/baseline/record/run_record.h"

namespace perfdx::pipeline {

using RunTags = std::vector<std::pair<std::string, std::string>>;

// `baseline save`: the run at `input` read into a record named `name` with
// `tags` (they win over a step log's meta), saved to the library at `db`
// (created if absent).
struct SavedRun {
  baseline::RunRecord record;
  int64_t id = 0;
};
Result<SavedRun> SaveRun(const std::string& input, const std::string& name, const RunTags& tags,
                         const std::string& db, const baseline::RunInputOptions& options);

// `check NEW --against BASE`: both runs resolved (baseline::ResolveRun, the
// baseline first) and the verdict of NEW against BASE.
struct CheckedRun {
  baseline::RunRecord current;
  baseline::CheckResult result;
};
Result<CheckedRun> CheckRuns(const std::string& current_ref, const std::string& against_ref,
                             const std::string& db, const baseline::RunInputOptions& input,
                             const baseline::CheckOptions& check);

// `check --save NAME`: the checked run saved under `name` with `tags` and
// its verdict (tag "check_verdict"); the run's library id.
Result<int64_t> SaveCheckedRun(const CheckedRun& checked, const std::string& name,
                               const RunTags& tags, const std::string& db);

// `diff BASE NEW`: both runs resolved, the base first, and what moved.
Result<baseline::DiffResult> DiffRunRefs(const std::string& base_ref,
                                         const std::string& current_ref, const std::string& db,
                                         const baseline::RunInputOptions& input);

}  // namespace perfdx::pipeline
