// A run as the command line names it (`check --against X`, `diff X Y`):
//   an existing file or folder   a trace, analyze report or step log, read now
//   anything else                a run in the library: an id ("12", "#12") or
//                                a name (its latest run)
// A path wins over a library name that happens to match it; write "#ID" (or
// save under a name that is not a local path) to be unambiguous.
#pragma once

#include <string>

#include "perfdx/base/status.h"
#include "perfdx/baseline/record/run_input.h"
#include "perfdx/baseline/record/run_record.h"

namespace perfdx::baseline {

Result<RunRecord> ResolveRun(const std::string& ref, const std::string& db_path,
                             const RunInputOptions& options);

}  // namespace perfdx::baseline
