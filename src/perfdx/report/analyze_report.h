// `perfdx analyze`: the JSON report, the contract every other output (the
// text, Markdown and HTML renderers) and the baseline library read.
//
// JSON (keys other tools read; docs/metrics.md defines each number; the
// whole contract, key by key, is docs/analyze_report.schema.json):
//   {"schema_version", "report": "analyze", "perfdx_version", "ranks": [{"rank", "path", "steps":
//   [{"id", "start_ns", "end_ns", "dur_ns",
//      "breakdown_ns": {...}, "device_ns": {...}, "health": {...}}],
//    "summary": {...health shares..., "step_time_ns": {"mean", "median", "p90", "cv"}},
//    "temporal_breakdown_ns": {"idle", "compute", "non_compute", "span"},
//    "comm_comp_overlap", "gaps": [...], "kernels": [...], "ops": [...],
//    "memory": {...}}],
//   "findings": [{"rule", "category", "severity", "title", "rank", "steps",
//    "evidence", "estimated_gain": {"ns_per_step", "share"}, "recommendations":
//    [{"framework", "text", "snippet", "doc_url"}]}]}
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "perfdx/advisor/finding.h"
#include "perfdx/advisor/health_table.h"
#include "perfdx/analysis/rank_analysis.h"
#include "perfdx/base/text_sink.h"
#include "perfdx/base/value_sink.h"
#include "perfdx/cluster/cluster_analysis.h"
#include "perfdx/cluster/joint_replay.h"
#include "perfdx/cluster/rank_summary.h"

namespace perfdx::report {

struct AnalyzeRank {
  analysis::RankAnalysis analysis;
  std::vector<advisor::HealthRow> health;
  std::vector<advisor::Finding> findings;  // ranked by gain (advisor.h)
  // The user's own scenario (`perfdx whatif`), replayed on this rank: what
  // the fixes buy, step by step.
  analysis::Prediction what_if;
  // What the cluster analysis reads of the rank (cluster/rank_summary.h),
  // made while its trace was alive.
  cluster::RankSummary summary;
};

// Traces given together that are ranks of one job (analysis/job_grouping).
// The JSON contract's version: raised when a key is removed, renamed or
// changes meaning (a reader can refuse what it does not know); new keys keep it.
inline constexpr int kAnalyzeSchemaVersion = 1;

struct AnalyzeJob {
  std::vector<size_t> members;  // indices into AnalyzeReport::ranks
  // Findings that need several ranks (a late rank); each names its rank.
  std::vector<advisor::Finding> findings;
  // The ranks seen together (cluster/cluster_analysis.h); only for a job of
  // two ranks or more.
  std::optional<cluster::ClusterAnalysis> cluster;
  // `perfdx whatif` on a job of two ranks or more: the ranks replayed
  // together (cluster/joint_replay.h).
  std::optional<cluster::JointReplay> joint_replay;
};

struct AnalyzeReport {
  // The traces the analyses read, where the caller asked to keep them
  // (AnalyzeRequest::keep_traces; RankAnalysis::trace points into them).
  std::vector<std::unique_ptr<const model::Trace>> traces;
  std::vector<AnalyzeRank> ranks;
  std::vector<AnalyzeJob> jobs;
  std::vector<std::string> warnings;  // load, discovery and job-grouping warnings
};

// The JSON contract as calls on `out`; RenderAnalyzeJson writes it as text
// (to `sink` as it grows), the Python module as objects.
void WriteAnalyzeReport(const AnalyzeReport& report, ValueSink& out);
std::string RenderAnalyzeJson(const AnalyzeReport& report);
void RenderAnalyzeJson(const AnalyzeReport& report, TextSink& sink);

// A rank's "replay" key: the unchanged replay against its steps (the
// whatif report writes the same).
void WriteReplayCheck(ValueSink& w, const analysis::ReplayCheck& check);
// A finding's "prediction" value (null when its fix was not replayed); the
// whatif report writes its rank's the same way.
void WritePrediction(ValueSink& w, const analysis::Prediction& prediction);

}  // namespace perfdx::report
