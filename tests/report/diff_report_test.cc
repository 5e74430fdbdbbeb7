// perfdx diff's text (report/diff_report.h), from a hand-made diff: laid out
// to the width as the analyze report is.
#include "perfdx/report/diff_report.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "perfdx/report/text_layout.h"
#include "test_support.h"

namespace perfdx::report {
namespace {

baseline::DiffResult TwoRuns() {
  baseline::DiffResult d;
  d.base_label = "runs/control/control.json.gz";
  d.new_label = "runs/test/test.json.gz";
  d.base_steps = 6;
  d.new_steps = 6;
  d.metrics = {{"step_time_median_ns", 76.8e6, 117e6}, {"idle_share", 0.164, 0.036}};
  d.phases = {{"kernel", 46.9e6, 91.3e6}};
  baseline::ItemDelta added;
  added.name =
      "void split_embedding_backward_codegen_rowwise_adagrad_unweighted_kernel_cta_per_row_1<float>"
      "(at::GenericPackedTensorAccessor<float, 2ul>, long)";
  added.kind = "kernel";
  added.new_count = 7;
  added.new_ns_per_step = 10e6;
  d.added = {added};
  baseline::ItemDelta changed;
  changed.name = "cudaMemcpyAsync";
  changed.kind = "runtime";
  changed.base_count = 228;
  changed.new_count = 4812;
  changed.base_ns_per_step = 1e6;
  changed.new_ns_per_step = 49.7e6;
  d.changed = {changed};
  return d;
}

// Wide: every column, the kernel's whole name. At 60 columns (its lines
// were 83 columns and more): every line fits, the name shortened in the
// middle, its start and end kept.
TEST(DiffReportTest, FitsTheWidth) {
  const std::string wide = RenderDiffText(TwoRuns(), 15, 200);
  EXPECT_NE(wide.find(TwoRuns().added[0].name), std::string::npos) << wide;
  EXPECT_NE(wide.find("x228 -> x4812"), std::string::npos) << wide;
  EXPECT_NE(wide.find("+48.7 ms/step"), std::string::npos) << wide;
  const std::string narrow = RenderDiffText(TwoRuns(), 15, 60);
  for (const std::string& l : perfdx::testing::SplitLines(narrow))
    EXPECT_LE(DisplayWidth(l), 60u) << l;
  EXPECT_NE(narrow.find("ADDED (1) — only in the new run"), std::string::npos) << narrow;
  EXPECT_NE(narrow.find("void split_embeddin…"), std::string::npos) << narrow;
  EXPECT_NE(narrow.find("long)  kernel"), std::string::npos) << narrow;
  EXPECT_NE(narrow.find("76.8 ms"), std::string::npos) << narrow;
  EXPECT_NE(narrow.find("+40.2 ms (+52.3%)"), std::string::npos) << narrow;
}

}  // namespace
}  // namespace perfdx::report
