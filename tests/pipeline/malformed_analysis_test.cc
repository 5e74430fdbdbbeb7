// Every file of the malformed-input corpus (tests/data/bad) that loads is
// analysed and advised on as `perfdx analyze` does: hostile numbers (events of
// 10^18 ns, sizes of 1e308) must not overflow anywhere downstream. Under the
// asan preset UBSan aborts on the first signed overflow or bad conversion.
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "perfdx/advisor/advisor.h"
#include "perfdx/analysis/rank_analysis.h"
#include "test_support.h"

namespace perfdx::pipeline {
namespace {

TEST(MalformedAnalysis, EveryLoadableCorpusFileIsAnalysed) {
  size_t analysed = 0;
  bool huge_values_seen = false;
  for (const auto& entry : std::filesystem::directory_iterator("tests/data/bad")) {
    const std::string name = entry.path().filename().string();
    if (name == "generate.py") continue;
    auto trace = perfdx::testing::ImportFile(entry.path().string(), true);
    if (!trace.ok()) continue;
    for (const analysis::AnalysisWindow window :
         {analysis::AnalysisWindow::kSteps, analysis::AnalysisWindow::kAll,
          analysis::AnalysisWindow::kHta}) {
      analysis::AnalysisOptions options;
      options.window = window;
      const analysis::RankAnalysis a = analysis::AnalyzeRank(*trace, options);
      const std::vector<advisor::Finding> findings = advisor::RunAdvisor(a, {});
      for (const advisor::Finding& f : findings) {
        EXPECT_GE(f.gain.ns_per_step, 0) << name << " " << f.rule;
        EXPECT_GE(f.gain.share, 0) << name << " " << f.rule;
      }
    }
    if (name == "huge_values.json") {
      huge_values_seen = true;
      // The memory event's sizes were not kept: no peak of 1e308 bytes.
      for (int64_t b : trace->memory.total_allocated) EXPECT_EQ(b, -1);
    }
    ++analysed;
  }
  EXPECT_TRUE(huge_values_seen);
  EXPECT_GE(analysed, 15u);
}

}  // namespace
}  // namespace perfdx::pipeline
