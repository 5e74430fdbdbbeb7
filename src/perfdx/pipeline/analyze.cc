#include "perfdx/pipeline/analyze.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <utility>

#include <fmt/format.h>

#include "perfdx/advisor/advisor.h"
#include "perfdx/advisor/cluster_advisor.h"
#include "perfdx/advisor/fix_targets.h"
#include "perfdx/advisor/health_table.h"
#include "perfdx/analysis/job_grouping.h"
#include "perfdx/analysis/trace_summary.h"
#include "perfdx/cluster/cluster_analysis.h"
#include "perfdx/cluster/summary_file.h"
#include "perfdx/io/byte_source.h"

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

namespace {

// A job of two ranks or more, from its ranks' summaries: the cluster
// analysis and the rules over the job read the summaries only.
report::AnalyzeJob ClusterJob(const std::vector<cluster::RankSummary>& summaries,
                              const advisor::Thresholds& thresholds) {
  report::AnalyzeJob job;
  std::vector<const cluster::RankSummary*> members;
  for (const cluster::RankSummary& s : summaries) members.push_back(&s);
  job.cluster = cluster::AnalyzeCluster(members, advisor::LinkPeaksOf(thresholds));
  job.findings = advisor::RunClusterAdvisor(*job.cluster, members, thresholds);
  return job;
}

bool IsSummaryPath(std::string_view path) {
  return path.ends_with(cluster::kSummarySuffix);
}

// `perfdx analyze *.summary`: the summaries merged as one job.
Result<report::AnalyzeReport> MergeSummaries(const AnalyzeRequest& request) {
  std::vector<cluster::RankSummary> summaries;
  for (const std::string& path : request.paths) {
    if (!IsSummaryPath(path)) {
      return InvalidInput(fmt::format(
          "{}: not a rank summary; give either traces or {} files (perfdx summarize), not both",
          path, cluster::kSummarySuffix));
    }
    // Through the one reader of every input: regular files only (a pipe
    // named *.summary never blocks), gzip/zstd by content, bounded.
    PERFDX_ASSIGN_OR_RETURN(auto source, io::OpenByteSource(path, request.load.limits));
    PERFDX_ASSIGN_OR_RETURN(std::string bytes, io::ReadAll(*source, cluster::kMaxRankSummaryBytes));
    PERFDX_ASSIGN_OR_RETURN(cluster::RankSummary s, cluster::ParseRankSummary(bytes, path));
    if (!request.ranks.empty() && std::find(request.ranks.begin(), request.ranks.end(),
                                            s.rank.value_or(-1)) == request.ranks.end()) {
      continue;
    }
    for (const cluster::RankSummary& other : summaries) {
      if (s.rank && other.rank == s.rank) {
        return InvalidInput(
            fmt::format("{}: rank {} is summarized twice (also in the summary of {})", path,
                        *s.rank, other.path));
      }
    }
    summaries.push_back(std::move(s));
  }
  if (summaries.empty()) return NotFound("--rank: no summary has the requested rank");
  std::stable_sort(summaries.begin(), summaries.end(), [](const auto& a, const auto& b) {
    return a.rank.value_or(INT64_MAX) < b.rank.value_or(INT64_MAX);
  });
  report::AnalyzeReport out;
  out.jobs.push_back(ClusterJob(summaries, request.thresholds));
  return out;
}

}  // namespace

Result<std::vector<cluster::RankSummary>> SummarizeRanks(const AnalyzeRequest& request) {
  for (const std::string& path : request.paths) {
    if (IsSummaryPath(path)) {
      return InvalidInput(fmt::format("{}: already a rank summary", path));
    }
  }
  PERFDX_ASSIGN_OR_RETURN(report::AnalyzeReport report, BuildAnalyzeReport(request));
  std::vector<cluster::RankSummary> out;
  for (report::AnalyzeRank& r : report.ranks) out.push_back(std::move(r.summary));
  return out;
}

namespace {

// One rank as its loader thread leaves it.
struct AnalyzedInput {
  report::AnalyzeRank rank;
  std::vector<std::string> warnings;          // the trace's load warnings
  std::unique_ptr<const model::Trace> trace;  // kept only if asked
};

// The user's fix as it applies to this rank: scoped to it (ScopedToRank),
// or none where --fix-rank leaves it out.
analysis::WhatIf FixFor(const AnalyzeRequest& request, const analysis::RankAnalysis& r) {
  const std::optional<int64_t> rank = r.info().rank;
  const bool fixed =
      request.fix_ranks.empty() || std::find(request.fix_ranks.begin(), request.fix_ranks.end(),
                                             rank.value_or(-1)) != request.fix_ranks.end();
  return fixed ? advisor::ScopedToRank(*request.what_if, r, request.thresholds)
               : analysis::WhatIf{};
}

bool Wanted(const AnalyzeRequest& request, const model::Trace& trace) {
  return request.ranks.empty() || std::find(request.ranks.begin(), request.ranks.end(),
                                            trace.info.rank.value_or(-1)) != request.ranks.end();
}

}  // namespace

Result<report::AnalyzeReport> BuildAnalyzeReport(const AnalyzeRequest& request) {
  if (std::any_of(request.paths.begin(), request.paths.end(),
                  [](const std::string& p) { return IsSummaryPath(p); })) {
    return MergeSummaries(request);
  }
  // Empty for a rank --rank leaves out.
  auto analyze = [&](model::Trace loaded,
                     unsigned threads) -> Result<std::optional<AnalyzedInput>> {
    if (!Wanted(request, loaded)) return std::optional<AnalyzedInput>();
    AnalyzedInput a;
    a.trace = std::make_unique<const model::Trace>(std::move(loaded));
    const model::Trace& trace = *a.trace;
    analysis::AnalysisOptions options = request.analysis;
    options.threads = threads;
    a.rank.analysis = analysis::AnalyzeRank(trace, options);
    a.rank.health = advisor::BuildHealthTable(a.rank.analysis, request.thresholds);
    a.rank.findings = advisor::RunAdvisor(a.rank.analysis, request.thresholds, threads);
    a.rank.summary = cluster::SummarizeRank(a.rank.analysis);
    if (request.what_if) {
      const analysis::RankAnalysis& r = a.rank.analysis;
      a.rank.what_if =
          analysis::Predict(r.replay_graph, r.timeline.steps, r.replay, FixFor(request, r));
    }
    a.warnings = analysis::LoadWarnings(trace);
    if (!request.keep_traces) {
      a.rank.analysis.trace = nullptr;
      a.trace.reset();
      // The whole trace's activity sets, the rules' working data: most of
      // what a rank would keep (1.2 of 1.7 MiB for a 35 MB trace).
      a.rank.analysis.activity = {};
      // The replay graph: every prediction has been made, but for the
      // joint replay of a job (`perfdx whatif`).
      if (!request.what_if) a.rank.analysis.replay_graph = {};
    }
    return std::optional<AnalyzedInput>(std::move(a));
  };
  PERFDX_ASSIGN_OR_RETURN(auto loaded, formats::LoadReduced<std::optional<AnalyzedInput>>(
                                           request.paths, request.load, analyze));
  report::AnalyzeReport out;
  out.warnings = std::move(loaded.warnings);
  for (std::optional<AnalyzedInput>& a : loaded.items) {
    if (!a) continue;
    for (std::string& w : a->warnings) out.warnings.push_back(std::move(w));
    out.ranks.push_back(std::move(a->rank));
    if (a->trace) out.traces.push_back(std::move(a->trace));
  }
  if (out.ranks.empty()) {
    return NotFound("--rank: no loaded trace has the requested rank");
  }
  for (int64_t fix_rank : request.fix_ranks) {
    if (std::none_of(out.ranks.begin(), out.ranks.end(), [&](const report::AnalyzeRank& r) {
          return r.analysis.info().rank == fix_rank;
        })) {
      return NotFound(fmt::format("--fix-rank {}: no loaded trace is that rank", fix_rank));
    }
  }

  std::vector<const analysis::RankAnalysis*> analyses;
  for (const report::AnalyzeRank& r : out.ranks) analyses.push_back(&r.analysis);
  analysis::JobGrouping grouping = analysis::GroupIntoJobs(analyses);
  for (std::string& reason : grouping.reasons) out.warnings.push_back(std::move(reason));
  for (const analysis::Job& job : grouping.jobs) {
    report::AnalyzeJob entry;
    if (job.members.size() > 1) {
      for (size_t m : job.members) advisor::AnalysedWithPeers(&out.ranks[m].findings);
      // Through the ranks' summaries, as `perfdx analyze *.summary` merges them.
      std::vector<cluster::RankSummary> summaries;
      for (size_t m : job.members) summaries.push_back(out.ranks[m].summary);
      entry = ClusterJob(summaries, request.thresholds);
      if (request.what_if) {
        std::vector<const analysis::RankAnalysis*> members;
        std::vector<analysis::WhatIf> fixes;
        for (size_t m : job.members) {
          const analysis::RankAnalysis& r = out.ranks[m].analysis;
          members.push_back(&r);
          fixes.push_back(FixFor(request, r));
        }
        entry.joint_replay = cluster::ReplayJob(members, *entry.cluster, *request.what_if, fixes);
      }
    }
    entry.members = job.members;
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
