// perfdx diff against HTA's TraceDiff on the shared control/test pair
// (../shared/golden/hta/trace_diff_pair, HTA 0.6.1 output;
// ../shared/docs/hta-definitions.md §10).
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <simdjson.h>

#include "perfdx/analysis/rank_analysis.h"
#include "perfdx/baseline/compare/diff.h"
#include "perfdx/baseline/record/inventory.h"
#include "perfdx/baseline/record/run_input.h"
#include "perfdx/baseline/record/trace_run.h"
#include "test_support.h"

namespace perfdx::baseline {
namespace {

const char kControl[] = "traces/kineto/hta/trace_diff/control";
const char kTest[] = "traces/kineto/hta/trace_diff/test";

std::set<std::string> GoldenNames(const char* key) {
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  EXPECT_EQ(
      parser.load(testing::SharedPath("golden/hta/trace_diff_pair/ops_diff_ALL.json")).get(doc),
      simdjson::SUCCESS);
  std::set<std::string> out;
  for (simdjson::dom::element e : doc[key].get_array())
    out.insert(std::string(std::string_view(e)));
  return out;
}

std::set<std::string> Names(const std::vector<ItemDelta>& items) {
  std::set<std::string> out;
  for (const ItemDelta& d : items) out.insert(d.name);
  return out;
}

RunRecord LoadOrDie(const char* relative, analysis::AnalysisWindow window) {
  RunInputOptions options;
  options.analysis.window = window;
  auto r = LoadRunInput(testing::SharedPath(relative), options);
  EXPECT_TRUE(r.ok()) << r.status().message();
  return r.ok() ? std::move(r).value() : RunRecord{};
}

TEST(DiffGolden, AddedAndRemovedNamesMatchHtaTraceDiff) {
  PERFDX_REQUIRE_SHARED();
  const std::set<std::string> added = GoldenNames("added");
  const std::set<std::string> deleted = GoldenNames("deleted");
  ASSERT_EQ(added.size(), 32u);
  ASSERT_EQ(deleted.size(), 138u);
  // HTA compares the first iteration; the names that appear or vanish are
  // the same over every analysis window perfdx offers.
  for (auto window : {analysis::AnalysisWindow::kSteps, analysis::AnalysisWindow::kAll,
                      analysis::AnalysisWindow::kHta}) {
    SCOPED_TRACE(std::string(analysis::AnalysisWindowName(window)));
    const DiffResult d = DiffRuns(LoadOrDie(kControl, window), LoadOrDie(kTest, window));
    EXPECT_TRUE(d.items_complete);
    EXPECT_EQ(Names(d.added), added);
    EXPECT_EQ(Names(d.removed), deleted);
    // Sorted by impact: no added name has more time per step than the one before it.
    for (size_t i = 1; i < d.added.size(); ++i)
      EXPECT_GE(d.added[i - 1].new_ns_per_step, d.added[i].new_ns_per_step);
    for (size_t i = 1; i < d.changed.size(); ++i) {
      EXPECT_GE(std::abs(d.changed[i - 1].delta_ns_per_step()),
                std::abs(d.changed[i].delta_ns_per_step()));
    }
  }
}

struct GoldenRow {
  double control_counts = 0;
  double control_us = 0;
  double test_counts = 0;
  double test_us = 0;
};

// compare_traces_ALL.csv: name,control_counts,control_total_duration,
// test_counts,test_total_duration,... (names may hold commas, in quotes).
std::map<std::string, GoldenRow> LoadCompareTraces() {
  std::ifstream in(testing::SharedPath("golden/hta/trace_diff_pair/compare_traces_ALL.csv"));
  std::map<std::string, GoldenRow> rows;
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::vector<std::string> fields;
    std::string field;
    bool quoted = false;
    for (size_t i = 0; i < line.size(); ++i) {
      const char c = line[i];
      if (c == '"') {
        if (quoted && i + 1 < line.size() && line[i + 1] == '"') {
          field += '"';
          ++i;
        } else {
          quoted = !quoted;
        }
      } else if (c == ',' && !quoted) {
        fields.push_back(field);
        field.clear();
      } else {
        field += c;
      }
    }
    fields.push_back(field);
    if (fields.size() < 5) continue;
    rows[fields[0]] = {std::stod(fields[1]), std::stod(fields[2]), std::stod(fields[3]),
                       std::stod(fields[4])};
  }
  return rows;
}

// HTA's default comparison is the first iteration (ProfilerStep#1009): host
// rows by their start inside the step, device rows by the launch they
// correlate with, and device rows whose correlation has no CPU row dropped.
// With that last rule (drop_unlaunched), the inventory of step 1009 gives
// HTA's count and total duration for every name, on both sides. perfdx's
// own rule keeps such device work (the test run replays CUDA graphs: it
// calls cudaGraphLaunch) by its start time, so it may only count more, and
// only on device work.
TEST(DiffGolden, FirstIterationCountsAndDurationsMatchCompareTraces) {
  PERFDX_REQUIRE_SHARED();
  const std::map<std::string, GoldenRow> golden = LoadCompareTraces();
  ASSERT_EQ(golden.size(), 432u);
  for (const char* side : {kControl, kTest}) {
    SCOPED_TRACE(side);
    const bool is_control = side == kControl;
    auto trace = testing::ImportFile(testing::SharedPath(
        std::string(side) + (is_control ? "/control.json.gz" : "/test.json.gz")));
    ASSERT_TRUE(trace.ok()) << trace.status().message();
    analysis::AnalysisOptions options;
    options.step_range = std::pair<int64_t, int64_t>{1009, 1009};
    const analysis::RankAnalysis analysis = analysis::AnalyzeRank(*trace, options);
    ASSERT_EQ(analysis.steps.size(), 1u);
    std::optional<InventoryWindow> window = InventoryWindowOf(analysis);
    ASSERT_TRUE(window.has_value());
    window->drop_unlaunched = true;
    std::map<std::string, RunItem> hta_rule;
    for (RunItem& i : TakeInventory(*trace, &*window)) hta_rule[i.name] = std::move(i);

    size_t present = 0;
    for (const auto& [name, row] : golden) {
      // Step markers are left out of the inventory on purpose: their names
      // (ProfilerStep#N) differ between runs by construction.
      if (name.starts_with("ProfilerStep#")) continue;
      const double counts = is_control ? row.control_counts : row.test_counts;
      const double us = is_control ? row.control_us : row.test_us;
      auto it = hta_rule.find(name);
      if (counts == 0) {
        EXPECT_TRUE(it == hta_rule.end()) << name;
        continue;
      }
      ++present;
      ASSERT_TRUE(it != hta_rule.end()) << name;
      EXPECT_EQ(static_cast<double>(it->second.count), counts) << name;
      EXPECT_EQ(static_cast<double>(it->second.total_ns), us * 1000) << name;
    }
    EXPECT_EQ(hta_rule.size(), present);  // nothing beyond HTA's rows

    // perfdx's rule: the same, or more device work; never other host rows.
    window->drop_unlaunched = false;
    size_t more = 0;
    for (const RunItem& i : TakeInventory(*trace, &*window)) {
      auto it = hta_rule.find(i.name);
      const bool host = i.kind == "operator" || i.kind == "runtime" || i.kind == "python";
      if (it == hta_rule.end()) {
        EXPECT_FALSE(host) << i.name;
        ++more;
        continue;
      }
      EXPECT_GE(i.count, it->second.count) << i.name;
      if (host) {
        EXPECT_EQ(i.count, it->second.count) << i.name;
      }
      more += i.count != it->second.count;
    }
    // The control run has no unlaunched device work in step 1009.
    if (is_control) {
      EXPECT_EQ(more, 0u);
    }
  }
}

}  // namespace
}  // namespace perfdx::baseline
