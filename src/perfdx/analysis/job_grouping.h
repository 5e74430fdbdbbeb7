// Which of the traces given together are ranks of one job. Traces are one job
// only when they agree: no two claim the same rank, their world sizes and
// collective backends match, their wall-clock spans overlap, and they ran the
// same kernels (or, on CPU-only traces, the same operators). Anything else
// (two runs of a workload, a ResNet and a transformer) is analysed on its own.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "perfdx/analysis/rank_analysis.h"

namespace perfdx::analysis {

// Two ranks of one job share at least this fraction of their kernel names
// (Jaccard similarity of the names that make up 99% of device time).
inline constexpr double kSameJobMinKernelOverlap = 0.5;

struct Job {
  std::vector<size_t> members;  // indices into the analyses, in their order
};

struct JobGrouping {
  std::vector<Job> jobs;  // in the order of their first member
  // One line per trace that was kept apart, saying why ("rank 0 twice", ...).
  std::vector<std::string> reasons;
};

JobGrouping GroupIntoJobs(const std::vector<const RankAnalysis*>& ranks);

// Why a and b cannot be ranks of one job; empty when they can.
std::string WhyNotOneJob(const RankAnalysis& a, const RankAnalysis& b);

}  // namespace perfdx::analysis
