// The operator and API tables: operator_details.csv, op_statistic.csv,
// api_statistic.csv, data_preprocess.csv (AI CPU operators) and
// l2_cache.csv (msprof: op_statistic_*, api_statistic_*, aicpu_*).
#pragma once

#include <filesystem>

#include "perfdx/formats/ascend/side_file.h"
#include "perfdx/model/trace.h"

namespace perfdx::formats::side_file {

void ReadApiStatistic(const std::filesystem::path& path, const AscendSideOptions& options,
                      model::Trace* trace);
void ReadOpStatistic(const std::filesystem::path& path, const AscendSideOptions& options,
                     model::Trace* trace);
void ReadAiCpu(const std::filesystem::path& path, const AscendSideOptions& options,
               model::Trace* trace);
void ReadL2Cache(const std::filesystem::path& path, const AscendSideOptions& options,
                 model::Trace* trace);
void ReadOperatorDetails(const std::filesystem::path& path, const AscendSideOptions& options,
                         model::Trace* trace);

}  // namespace perfdx::formats::side_file
