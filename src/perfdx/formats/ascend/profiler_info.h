// profiler_info_{rank}.json (the profiler's configuration and versions) and
// profiler_metadata.json (environment, distributed args, parallel groups).
#pragma once

#include <string>
#include <string_view>

#include "perfdx/formats/ascend/side_file.h"
#include "perfdx/model/trace.h"

namespace perfdx::formats {

// profiler_info_{rank}.json and profiler_metadata.json of `profile_dir`.
void ReadProfilerInfoFiles(const std::string& profile_dir, const AscendSideOptions& options,
                           model::Trace* trace);

// profiler_metadata.json's content (ENV_VARIABLES, distributed_args,
// parallel_group_info) into `ascend`. The DB export's META_DATA table holds
// the same JSON values and is read through this too, so both exports give
// the same strings. False when `json` is not valid JSON.
bool ParseProfilerMetadataJson(std::string_view json, model::AscendData* ascend);

}  // namespace perfdx::formats
