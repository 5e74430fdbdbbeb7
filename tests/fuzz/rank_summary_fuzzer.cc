// libFuzzer target for `perfdx analyze *.summary` (cluster/summary_file.h):
// any bytes. What it refuses must say so naming the file; what it accepts
// must write back to a summary that reads as the same (the merge gives what
// direct analysis gives only if the file round-trips), and the cluster
// analysis of it beside a copy of itself must run to the end.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "perfdx/cluster/cluster_analysis.h"
#include "perfdx/cluster/summary_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  auto parsed = perfdx::cluster::ParseRankSummary(bytes, "fuzz.summary");
  if (!parsed.ok()) {
    if (parsed.status().message().rfind("fuzz.summary: ", 0) != 0) std::abort();
    return 0;
  }
  const std::string written = perfdx::cluster::WriteRankSummary(*parsed);
  auto again = perfdx::cluster::ParseRankSummary(written, "again.summary");
  if (!again.ok() || perfdx::cluster::WriteRankSummary(*again) != written) std::abort();
  perfdx::cluster::RankSummary other = *parsed;
  other.rank = parsed->rank.value_or(0) + 1;
  const std::vector<const perfdx::cluster::RankSummary*> ranks = {&*parsed, &other};
  const perfdx::cluster::ClusterAnalysis c =
      perfdx::cluster::AnalyzeCluster(ranks, perfdx::analysis::LinkPeaks{1, 1, 1, 1});
  if (c.ranks.size() != 2) std::abort();
  return 0;
}
