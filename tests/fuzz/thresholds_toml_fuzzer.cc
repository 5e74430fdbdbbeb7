// libFuzzer target for the thresholds file (perfdx.toml, advisor/config.h):
// any bytes as the file. A file that loads is printed back (`perfdx config`)
// and must load again to the same text, and its thresholds judge a few
// analysed traces (health table and every rule), so that no accepted value,
// however extreme, overflows a rule.
// Seeds: tests/fuzz/make_seeds.py (the default file and variations of it).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_support.h"
#include "perfdx/advisor/advisor.h"
#include "perfdx/advisor/cluster_advisor.h"
#include "perfdx/advisor/config.h"
#include "perfdx/advisor/health_table.h"
#include "perfdx/cluster/rank_summary.h"

namespace {

// GPU, CPU-only and a multi-rank Ascend job, analysed once.
const perfdx::report::AnalyzeReport& Analysed() {
  static const perfdx::report::AnalyzeReport report = [] {
    perfdx::pipeline::AnalyzeRequest request;
    request.load.threads = 1;
    // The rules read the analyses' activity sets, which go with the traces.
    request.keep_traces = true;
    for (const char* relative :
         {"/tests/data/golden/small_cuda_trace.json", "/examples/cpu_corpus/host_sync.json.gz",
          "/../shared/traces/ascend/torch_npu_2rank_text_level0"}) {
      request.paths.push_back(std::string(PERFDX_SOURCE_DIR) + relative);
    }
    perfdx::Result<perfdx::report::AnalyzeReport> r = perfdx::pipeline::BuildAnalyzeReport(request);
    if (!r.ok()) abort();  // the harness's own inputs
    return std::move(*r);
  }();
  return report;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  perfdx::Result<perfdx::advisor::Thresholds> loaded =
      perfdx::advisor::ParseThresholdsToml(text, "fuzz.toml");
  if (!loaded.ok()) return 0;
  const std::string printed = perfdx::advisor::ConfigToml(*loaded);
  perfdx::Result<perfdx::advisor::Thresholds> again =
      perfdx::advisor::ParseThresholdsToml(printed, "printed.toml");
  if (!again.ok() || perfdx::advisor::ConfigToml(*again) != printed) abort();
  for (const perfdx::report::AnalyzeRank& rank : Analysed().ranks) {
    (void)perfdx::advisor::BuildHealthTable(rank.analysis, *loaded);
    (void)perfdx::advisor::RunAdvisor(rank.analysis, *loaded);
  }
  for (const perfdx::report::AnalyzeJob& job : Analysed().jobs) {
    if (!job.cluster) continue;
    std::vector<const perfdx::cluster::RankSummary*> members;
    for (size_t m : job.members) members.push_back(&Analysed().ranks[m].summary);
    (void)perfdx::advisor::RunClusterAdvisor(*job.cluster, members, *loaded);
  }
  return 0;
}
