// A Finding: one cause of lost time, with the evidence, what fixing it would
// save at most, and what to change in each framework.
//
// JSON (the analyze report's "findings"): {"rule", "category", "severity",
//   "title", "rank", "steps", "evidence": {...}, "estimated_gain":
//   {"ns_per_step", "share", "basis", "total_ns"}, "evidence_tags",
//   "recommendations": [{"framework", "fix_id", "text", "snippet",
//   "doc_url"}], "prediction": null | {"what_if", "predicted_step_ns",
//   "gain_ns_per_step", "gain_share", "replay_error", "within_model_error",
//   "beyond_upper_bound", "range": null | {"low_what_if",
//   "low_gain_ns_per_step", "low_gain_share"}}}
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "perfdx/analysis/replay.h"

namespace perfdx::advisor {

enum class Category : uint8_t {
  kComputeUtilization,
  kMemory,
  kCommunication,
  kOperator,
  kScheduling,
  kDataPipeline,
  kSystem,
};
std::string_view CategoryName(Category c);

enum class Severity : uint8_t { kInfo = 0, kWarning = 1, kCritical = 2 };
std::string_view SeverityName(Severity s);
std::optional<Severity> ParseSeverity(std::string_view s);

// Whom a fix is written for. A rank's framework and platform
// (model::FrameworkInfo) select the targets whose fixes it is shown
// (fix_targets.h): a CUDA PyTorch trace gets kPytorch and kPytorchCuda fixes.
enum class FixTarget : uint8_t {
  kMindSpore,
  kTorchNpu,
  kPytorchCuda,
  kPytorchRocm,
  kPytorchCpu,
  kPytorch,  // stock PyTorch on any platform (DataLoader, logging, gc, ...)
};
std::string_view FixTargetName(FixTarget f);
std::optional<FixTarget> ParseFixTarget(std::string_view s);

struct Recommendation {
  FixTarget framework;
  std::string text;     // what to change, in one or two sentences
  std::string snippet;  // code or shell, ready to paste
  std::string doc_url;  // the documentation the knob comes from
  std::string fix_id;   // the catalogue entry (knobs.toml) it comes from
};

struct TimeRange {
  int64_t start_ns = 0;
  int64_t end_ns = 0;
};

struct Contributor {
  std::string name;
  int64_t ns = 0;    // time attributed to it in the analysed window
  double share = 0;  // of the evidence metric's denominator
};

struct Evidence {
  std::string metric;  // the analysis metric the rule read
  double value = 0;
  double threshold = 0;                                 // the threshold it was compared with
  std::string unit;                                     // "share", "ns", "count", "GB/s", ...
  std::vector<TimeRange> ranges;                        // where on the timeline (a few examples)
  std::vector<Contributor> contributors;                // the top contributors
  std::vector<std::pair<std::string, double>> details;  // other numbers the title quotes
};

// What the step would save if the cause were removed, computed on the
// measured timeline (the step without that gap, with that communication
// hidden, ...). An upper bound: other work may fill the time.
struct EstimatedGain {
  EstimatedGain() = default;
  EstimatedGain(int64_t ns, double s) : ns_per_step(ns), share(s) {}
  int64_t ns_per_step = 0;
  double share = 0;  // of the mean step time
  // Empty when the gain is per analysed step; otherwise why there is none
  // (kNoCompleteStep: the numbers are 0, the title speaks of the trace, and
  // total_ns holds what the rule measured over the whole trace).
  std::string basis;
  int64_t total_ns = 0;
};
inline constexpr std::string_view kNoCompleteStep = "no complete step";
// The what-if rests on a link peak the trace does not record (a GPU's
// NVLink assumed from its generation): measured, not a prediction.
inline constexpr std::string_view kAssumedLinkPeak = "link peak not recorded";

// Another finding of the rank whose fix frees some of the same time: the
// two predicted gains do not add up (advisor.cc, docs/metrics.md "Replay").
struct FindingOverlap {
  std::string rule;
  std::string title;
  int64_t combined_gain_ns_per_step = 0;  // both fixes replayed together
  int64_t sum_gain_ns_per_step = 0;       // the two predictions added
};

struct Finding {
  std::string rule;  // stable id, e.g. "data_loader_stall"
  Category category = Category::kComputeUtilization;
  Severity severity = Severity::kInfo;
  std::string title;  // one line, carries the number
  std::optional<int64_t> rank;
  std::string path;            // the trace the finding comes from (a rank's file or folder)
  std::vector<int64_t> steps;  // step ids where it applies (empty: all analysed)
  Evidence evidence;
  EstimatedGain gain;
  std::vector<Recommendation> recommendations;
  // What the rule established (knobs.toml [tags]): a fix is kept only where
  // the tags it requires hold, here or on the rank (fix_targets.h).
  std::vector<std::string> evidence_tags;
  // The cause lies on the host (a gap, a slow step): a finding of such a
  // cause left with no fix is told how to profile for it instead.
  bool host_cause = false;
  // The cause lies in the collectives, whose time one rank's trace cannot
  // split into waiting for the other ranks and transfer: such a finding
  // left with no fix is told to profile every rank and analyse them
  // together (dropped where they were: AnalysedWithPeers).
  bool comm_cause = false;
  // The kernels ("kernel:NAME") or operators ("op:NAME") the gain is
  // computed from, all of them; findings resting on the same ones are
  // merged (advisor.cc), so no time is counted twice.
  std::vector<std::string> rests_on;
  // The fix as a change to the step's dependency graph, where the rule has
  // one (analysis/replay.h): replayed with and without it, that gives
  // `prediction`, the gain the upper bound above stands beside.
  std::optional<analysis::WhatIf> what_if;
  // The what-if is one remedy, not the cause removed (Prediction::one_remedy).
  bool what_if_one_remedy = false;
  // The same fix at the low end of its factor, where that is uncertain (a
  // speedup between two regimes): the prediction is then a range.
  std::optional<analysis::WhatIf> what_if_low;
  analysis::Prediction prediction;
  // The findings whose fixes overlap this one's, largest overlap first.
  std::vector<FindingOverlap> overlaps;
};

}  // namespace perfdx::advisor
