#include "perfdx/pipeline/runs.h"

#include "perfdx/baseline/record/run_ref.h"
#include "perfdx/baseline/store.h"
#include "perfdx/baseline/verdict.h"

namespace perfdx::pipeline {
namespace {

// Standard input can be read once.
Status OneStdin(const std::string& a, const std::string& b) {
  if (a == io::kStdinPath && b == io::kStdinPath) {
    return InvalidInput("-: standard input named for both runs; it can be read once");
  }
  return Status::Ok();
}

Result<int64_t> SaveToLibrary(const baseline::RunRecord& record, const std::string& db) {
  PERFDX_ASSIGN_OR_RETURN(auto store,
                          baseline::RunStore::Open(db, baseline::RunStore::Mode::kCreate));
  return store.Save(record);
}

}  // namespace

Result<SavedRun> SaveRun(const std::string& input, const std::string& name, const RunTags& tags,
                         const std::string& db, const baseline::RunInputOptions& options) {
  SavedRun out;
  PERFDX_ASSIGN_OR_RETURN(out.record, baseline::LoadRunInput(input, options));
  out.record.name = name;
  for (const auto& [k, v] : tags) baseline::SetTag(out.record, k, v);
  PERFDX_ASSIGN_OR_RETURN(out.id, SaveToLibrary(out.record, db));
  return out;
}

Result<CheckedRun> CheckRuns(const std::string& current_ref, const std::string& against_ref,
                             const std::string& db, const baseline::RunInputOptions& input,
                             const baseline::CheckOptions& check) {
  PERFDX_RETURN_IF_ERROR(OneStdin(current_ref, against_ref));
  PERFDX_ASSIGN_OR_RETURN(baseline::RunRecord base, baseline::ResolveRun(against_ref, db, input));
  CheckedRun out;
  PERFDX_ASSIGN_OR_RETURN(out.current, baseline::ResolveRun(current_ref, db, input));
  PERFDX_ASSIGN_OR_RETURN(out.result, baseline::CheckRun(base, out.current, check));
  return out;
}

Result<int64_t> SaveCheckedRun(const CheckedRun& checked, const std::string& name,
                               const RunTags& tags, const std::string& db) {
  baseline::RunRecord run = checked.current;
  run.name = name;
  for (const auto& [k, v] : tags) baseline::SetTag(run, k, v);
  baseline::SetTag(run, "check_verdict",
                   std::string(baseline::VerdictName(checked.result.verdict)));
  return SaveToLibrary(run, db);
}

Result<baseline::DiffResult> DiffRunRefs(const std::string& base_ref,
                                         const std::string& current_ref, const std::string& db,
                                         const baseline::RunInputOptions& input) {
  PERFDX_RETURN_IF_ERROR(OneStdin(base_ref, current_ref));
  PERFDX_ASSIGN_OR_RETURN(baseline::RunRecord base, baseline::ResolveRun(base_ref, db, input));
  PERFDX_ASSIGN_OR_RETURN(baseline::RunRecord current,
                          baseline::ResolveRun(current_ref, db, input));
  return baseline::DiffRuns(base, current);
}

}  // namespace perfdx::pipeline
