// `perfdx analyze`: the JSON report (the contract every other output and the
// baseline library read) and the text rendering of the same data.
//
// JSON (keys other tools read; docs/metrics.md defines each number):
//   {"ranks": [{"rank", "path", "steps": [{"id", "start_ns", "end_ns", "dur_ns",
//      "breakdown_ns": {...}, "device_ns": {...}, "health": {...}}],
//    "summary": {...health shares..., "step_time_ns": {"mean", "median", "p90", "cv"}},
//    "temporal_breakdown_ns": {"idle", "compute", "non_compute", "span"},
//    "comm_comp_overlap", "gaps": [...], "kernels": [...], "ops": [...],
//    "memory": {...}}],
//   "findings": [{"rule", "category", "severity", "title", "rank", "steps",
//    "evidence", "estimated_gain": {"ns_per_step", "share"}, "recommendations":
//    [{"framework", "text", "snippet", "doc_url"}]}]}
#pragma once

#include <string>
#include <vector>

#include "perfdx/advisor/finding.h"
#include "perfdx/advisor/health_table.h"
#include "perfdx/analysis/rank_analysis.h"

namespace perfdx::report {

struct AnalyzeRank {
  analysis::RankAnalysis analysis;
  std::vector<advisor::HealthRow> health;
  std::vector<advisor::Finding> findings;  // ranked by estimated gain
};

struct AnalyzeReport {
  std::vector<AnalyzeRank> ranks;
  // Findings that need several ranks (a late rank); each names its rank.
  std::vector<advisor::Finding> cluster_findings;
  std::vector<std::string> warnings;  // load and discovery warnings
};

std::string RenderAnalyzeJson(const AnalyzeReport& report);
std::string RenderAnalyzeText(const AnalyzeReport& report);

}  // namespace perfdx::report
