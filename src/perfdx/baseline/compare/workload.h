// Are two runs the same workload? `check` and `diff` compare a run with its
// baseline; comparing a ResNet with a transformer says nothing, so both warn
// when the runs share too few operator and kernel names to be one workload.
#pragma once

#include <optional>
#include <string>

#include "perfdx/baseline/record/run_record.h"

namespace perfdx::baseline {

// Two runs of one workload spend at least this share of their operator time,
// or of their kernel time, in names both ran (workload.cc: SharedTime).
inline constexpr double kSameWorkloadMinSharedTime = 0.3;

// Why `a` and `b` do not look like the same workload; nullopt when they do
// or when the records hold no names to compare (step logs).
std::optional<std::string> WhyNotSameWorkload(const RunRecord& a, const RunRecord& b);

}  // namespace perfdx::baseline
