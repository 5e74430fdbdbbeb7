#include "perfdx/pipeline/analyze.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <memory>
#include <utility>

#include <fmt/format.h>

#include "perfdx/advisor/advisor.h"
#include "perfdx/advisor/cluster_advisor.h"
#include "perfdx/advisor/health_table.h"
#include "perfdx/analysis/job_grouping.h"
#include "perfdx/analysis/trace_summary.h"
#include "perfdx/cluster/cluster_analysis.h"

namespace perfdx::pipeline {
namespace {

std::optional<int64_t> ParseInt(std::string_view s) {
  int64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

}  // namespace

Result<std::pair<int64_t, int64_t>> ParseStepRange(std::string_view text) {
  const size_t dots = text.find("..");
  if (dots == std::string_view::npos) {
    auto v = ParseInt(text);
    if (!v) return InvalidInput(fmt::format("--steps {}: expected A..B, A.., ..B or N", text));
    return std::pair{*v, *v};
  }
  const std::string_view a = text.substr(0, dots);
  const std::string_view b = text.substr(dots + 2);
  auto first = a.empty() ? std::optional<int64_t>(INT64_MIN) : ParseInt(a);
  auto last = b.empty() ? std::optional<int64_t>(INT64_MAX) : ParseInt(b);
  if (!first || !last || *first > *last) {
    return InvalidInput(fmt::format("--steps {}: expected A..B with A <= B", text));
  }
  return std::pair{*first, *last};
}

std::optional<analysis::AnalysisWindow> ParseAnalysisWindow(std::string_view text) {
  if (text == "steps") return analysis::AnalysisWindow::kSteps;
  if (text == "all") return analysis::AnalysisWindow::kAll;
  if (text == "hta") return analysis::AnalysisWindow::kHta;
  return std::nullopt;
}

Result<report::AnalyzeReport> BuildAnalyzeReport(const AnalyzeRequest& request) {
  PERFDX_ASSIGN_OR_RETURN(formats::LoadedTraces loaded,
                          formats::LoadTraces(request.paths, request.load));
  report::AnalyzeReport out;
  out.warnings = std::move(loaded.warnings);
  for (model::Trace& trace : loaded.traces) {
    const int64_t rank = trace.info.rank.value_or(-1);
    if (!request.ranks.empty() &&
        std::find(request.ranks.begin(), request.ranks.end(), rank) == request.ranks.end()) {
      continue;
    }
    out.traces.push_back(std::make_unique<const model::Trace>(std::move(trace)));
  }
  if (out.traces.empty()) {
    return NotFound("--rank: no loaded trace has the requested rank");
  }
  for (const auto& trace : out.traces) {
    report::AnalyzeRank entry;
    entry.analysis = analysis::AnalyzeRank(*trace, request.analysis);
    entry.health = advisor::BuildHealthTable(entry.analysis, request.thresholds);
    entry.findings = advisor::RunAdvisor(entry.analysis, request.thresholds);
    for (std::string& w : analysis::LoadWarnings(*trace)) out.warnings.push_back(std::move(w));
    out.ranks.push_back(std::move(entry));
  }

  std::vector<const analysis::RankAnalysis*> analyses;
  for (const report::AnalyzeRank& r : out.ranks) analyses.push_back(&r.analysis);
  analysis::JobGrouping grouping = analysis::GroupIntoJobs(analyses);
  for (std::string& reason : grouping.reasons) out.warnings.push_back(std::move(reason));
  for (const analysis::Job& job : grouping.jobs) {
    report::AnalyzeJob entry;
    entry.members = job.members;
    if (job.members.size() > 1) {
      std::vector<const analysis::RankAnalysis*> members;
      for (size_t m : job.members) members.push_back(analyses[m]);
      entry.findings = advisor::RunClusterAdvisor(members, request.thresholds);
      entry.cluster = cluster::AnalyzeCluster(members);
    }
    out.jobs.push_back(std::move(entry));
  }
  return out;
}

bool HasFindingAtOrAbove(const report::AnalyzeReport& report, advisor::Severity level) {
  auto any = [&](const std::vector<advisor::Finding>& findings) {
    return std::any_of(findings.begin(), findings.end(),
                       [&](const advisor::Finding& f) { return f.severity >= level; });
  };
  for (const report::AnalyzeRank& r : report.ranks) {
    if (any(r.findings)) return true;
  }
  for (const report::AnalyzeJob& j : report.jobs) {
    if (any(j.findings)) return true;
  }
  return false;
}

}  // namespace perfdx::pipeline
