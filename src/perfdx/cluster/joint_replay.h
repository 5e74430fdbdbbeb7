// The ranks of one job replayed together (issue #11, scope 1): a collective
// ends when its last rank has arrived, so a fix on one rank buys the job
// only what the other ranks let it.
//
// Alone, a rank's replay keeps each collective's measured length, which
// holds the wait for the others as it was: a rank that arrived early keeps
// its wait even when the late rank is fixed, and a fix to the early rank
// seems to buy what it cannot. Jointly, each collective instance matched on
// every rank of the job (cluster_analysis.h: the n-th of one name on one
// group) is timed by the rule its measurement shows:
//   end = the last rank's arrival + transfer, on every rank,
// with transfer = the shortest of its measured lengths (the last to arrive
// waits least; its length is the transfer), divided by the smallest
// communication speedup of the ranks' fixes, and the arrivals compared on
// the first rank's clock (the cluster's clock offsets). Each rank's replay
// takes the others' arrivals of the previous round; the rounds repeat
// until no arrival moves (arrivals only grow, round after round: the
// fixpoint is reached), at most kMaxJointRounds.
//
// Only a whole job is replayed jointly: every rank of the world (the
// traces' world size) given and on one clock; a collective seen on some of
// them only keeps its measured length. docs/metrics.md ("Joint replay").
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "perfdx/analysis/rank_analysis.h"
#include "perfdx/analysis/replay.h"
#include "perfdx/cluster/cluster_analysis.h"

namespace perfdx::cluster {

inline constexpr int kMaxJointRounds = 200;

struct JointRank {
  size_t member = 0;
  std::optional<int64_t> rank;
  bool fixed = false;               // the fix applies to this rank
  analysis::ReplayCheck check;      // the unchanged joint replay against its steps
  analysis::Prediction prediction;  // with the fix, jointly
};

struct JointReplay {
  bool available = false;
  std::string why_not;
  std::string what_if;              // WhatIf::Describe()
  size_t joined_collectives = 0;    // instances timed by their last arrival
  size_t unjoined_collectives = 0;  // instances some rank lacks or its graph does not hold
  int rounds = 0;  // of the replay with the fix (the unchanged one's are fewer or equal)
  // Over every rank's steps, the unchanged joint replay's error.
  double median_abs_error = 0;
  double max_abs_error = 0;
  std::vector<JointRank> ranks;  // in the job's order
  // The job's step: its slowest rank's mean, measured and predicted.
  int64_t measured_step_ns = 0;
  int64_t predicted_step_ns = 0;
  int64_t gain_ns_per_step() const { return measured_step_ns - predicted_step_ns; }
  bool within_model_error() const;
};

// `ranks` in the job's order (the cluster's members); `fixes` one per
// member: `fix` (which names the replay) as it applies to that rank
// (advisor::ScopedToRank), WhatIf{} for a rank left as it is.
JointReplay ReplayJob(const std::vector<const analysis::RankAnalysis*>& ranks,
                      const ClusterAnalysis& cluster, const analysis::WhatIf& fix,
                      const std::vector<analysis::WhatIf>& fixes);

}  // namespace perfdx::cluster
