// A job's cluster section of `ranks` ranks with one step each (id 1,
// `step_ns` long): what the large-job tests of the text, Markdown and HTML
// reports start from.
#pragma once

#include <cstddef>
#include <cstdint>

#include "perfdx/cluster/cluster_analysis.h"

namespace perfdx::testing {

inline cluster::ClusterAnalysis ClusterOfRanks(size_t ranks, int64_t step_ns = 0) {
  cluster::ClusterAnalysis c;
  for (size_t m = 0; m < ranks; ++m) {
    cluster::ClusterRank r;
    r.member = m;
    r.rank = static_cast<int64_t>(m);
    cluster::ClusterStep st;
    st.id = 1;
    st.step_ns = step_ns;
    r.steps.push_back(st);
    c.ranks.push_back(r);
  }
  return c;
}

}  // namespace perfdx::testing
