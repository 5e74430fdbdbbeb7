#include "perfdx/advisor/advisor.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <set>

#include <fmt/format.h>

#include "perfdx/advisor/fix_targets.h"
#include "perfdx/advisor/rule.h"
#include "perfdx/advisor/rules/rule_util.h"
#include "perfdx/base/run_beside.h"

namespace perfdx::advisor {

namespace {
constexpr double kCriticalGainShare = 0.05;
// A prediction counts as beyond its finding's bound only past this (or 1%).
constexpr int64_t kBoundToleranceNs = 1000;
constexpr double kWarningGainShare = 0.01;
// Names quoted in a title are cut to this many characters (kernel names run
// to hundreds).
constexpr size_t kNamedContributors = 3;

void ReplaceAll(std::string* s, std::string_view from, std::string_view to) {
  for (size_t at = s->find(from); at != std::string::npos; at = s->find(from, at + to.size())) {
    s->replace(at, from.size(), to);
  }
}

// A per-step gain needs complete steps; without them the numbers the rules
// computed are over the whole trace, and a share of "the step" is a share of
// the trace. Say so instead of quoting them as per-step savings.
void NoPerStepGain(int64_t steps, Finding* f) {
  f->gain.total_ns = f->gain.ns_per_step * std::max<int64_t>(1, steps);
  f->gain.ns_per_step = 0;
  f->gain.share = 0;
  f->gain.basis = std::string(kNoCompleteStep);
  ReplaceAll(&f->title, " per step", " in the trace");
  ReplaceAll(&f->title, " of the step", " of the trace");
  ReplaceAll(&f->title, " of step time", " of the trace");
  f->title += " (no complete step in the trace: no per-step gain)";
}

// A gain never exceeds the step time it is a part of.
void ClampGain(int64_t step_ns, Finding* f) {
  f->gain.ns_per_step = std::clamp<int64_t>(f->gain.ns_per_step, 0, std::max<int64_t>(step_ns, 0));
  f->gain.share = ShareOf(f->gain.ns_per_step, step_ns);
}

// The severity the replay allows: a fix predicted to buy less than 5% (1%)
// of the step is not critical (a warning), whatever the bound said; one
// within the model's error buys nothing it can show. Only lowers: a
// prediction beyond the bound leaves the rule's severity as it is.
void CapSeverityByPrediction(const analysis::ReplayCheck& check, Finding* f) {
  if (!GainIsPredicted(*f) || !check.reliable()) return;
  const analysis::Prediction& p = f->prediction;
  // What the fix buys once the host no longer holds the step counts too:
  // the work it removes is real, the host only hides it for now.
  const double share = std::max(p.within_model_error ? 0 : p.gain_share,
                                p.has_beyond_host ? p.beyond_host_gain_share : 0);
  Severity allowed = Severity::kInfo;
  if (share >= kCriticalGainShare) {
    allowed = Severity::kCritical;
  } else if (share >= kWarningGainShare) {
    allowed = Severity::kWarning;
  }
  f->severity = std::min(f->severity, allowed);
}

// Findings that rest on the same kernels or operators count that time once.
// A finding whose kernels all belong to another finding is that finding (a
// fusion candidate made of layout conversions is the layout finding): it is
// dropped, and the finding it belongs to notes it. Of two findings sharing
// some kernels, the one with the smaller gain keeps the share of its gain
// that the shared kernels do not account for (by count of kernels).
void MergeSameKernels(std::vector<Finding>* findings) {
  std::vector<std::set<std::string>> sets;
  for (const Finding& f : *findings) sets.emplace_back(f.rests_on.begin(), f.rests_on.end());
  std::vector<bool> dropped(findings->size(), false);
  for (size_t j = 0; j < findings->size(); ++j) {
    if (sets[j].empty()) continue;
    for (size_t i = 0; i < findings->size() && !dropped[j]; ++i) {
      if (i == j || dropped[i] || sets[i].empty()) continue;
      const bool subset =
          std::includes(sets[i].begin(), sets[i].end(), sets[j].begin(), sets[j].end());
      // Equal sets: the earlier rule keeps the finding.
      if (subset && (sets[i] != sets[j] || i < j)) {
        Finding& keep = (*findings)[i];
        keep.evidence.details.emplace_back("includes_" + (*findings)[j].rule, 1.0);
        dropped[j] = true;
      }
    }
  }
  for (size_t j = 0; j < findings->size(); ++j) {
    if (dropped[j] || sets[j].empty()) continue;
    for (size_t i = 0; i < findings->size(); ++i) {
      if (i == j || dropped[i] || sets[i].empty()) continue;
      Finding& a = (*findings)[i];
      Finding& b = (*findings)[j];
      if (a.gain.ns_per_step < b.gain.ns_per_step ||
          (a.gain.ns_per_step == b.gain.ns_per_step && i > j))
        continue;
      size_t shared = 0;
      for (const std::string& k : sets[j]) shared += sets[i].count(k);
      if (shared == 0) continue;
      const double kept = 1.0 - static_cast<double>(shared) / static_cast<double>(sets[j].size());
      b.gain.ns_per_step = static_cast<int64_t>(static_cast<double>(b.gain.ns_per_step) * kept);
      b.gain.share *= kept;
    }
  }
  size_t k = 0;
  std::erase_if(*findings, [&](const Finding&) { return dropped[k++]; });
}

// The text names what a kernel- or operator-based finding rests on.
void NameContributors(Finding* f) {
  if (f->rests_on.empty() || f->evidence.contributors.empty()) return;
  std::string names;
  size_t n = 0;
  for (const Contributor& c : f->evidence.contributors) {
    if (n == kNamedContributors) break;
    const std::string shown = ShortName(c.name);
    if (f->title.find(shown) != std::string::npos || f->title.find(c.name) != std::string::npos)
      return;
    names += fmt::format("{}{}", n ? ", " : "", shown);
    ++n;
  }
  f->title += fmt::format("; top: {}", names);
}

// Two fixes overlap when replayed together they buy less than their two
// predictions added, by more than the model's error (or 1% of the sum):
// they free the same time (two findings on the same waits), and the report
// must not let a reader add them. The largest predicted gains only, each
// pair one more replay.
constexpr size_t kOverlapCheckedFindings = 6;

void FindOverlaps(const analysis::RankAnalysis& analysis, std::vector<Finding>* findings,
                  unsigned threads) {
  std::vector<Finding*> predicted;
  for (Finding& f : *findings) {
    if (f.what_if && f.prediction.available && !f.prediction.within_model_error &&
        f.prediction.gain_ns_per_step > 0) {
      predicted.push_back(&f);
    }
  }
  std::stable_sort(predicted.begin(), predicted.end(), [](const Finding* a, const Finding* b) {
    return a->prediction.gain_ns_per_step > b->prediction.gain_ns_per_step;
  });
  if (predicted.size() > kOverlapCheckedFindings) predicted.resize(kOverlapCheckedFindings);
  const analysis::ReplayCheck& check = analysis.replay;
  // The model's error in ns. A replay far off on hostile times puts it past
  // int64 (the kineto_analyze fuzzer: 3.3e28), where the cast is undefined:
  // saturated, every pair is then within the error.
  const double error = check.median_abs_error * static_cast<double>(check.run.measured_mean_ns);
  constexpr double kMaxNs = 9.2e18;  // under INT64_MAX, exactly representable
  const int64_t error_ns = !(error > 0)      ? 0
                           : error >= kMaxNs ? std::numeric_limits<int64_t>::max()
                                             : static_cast<int64_t>(error);
  // The pairs' replays on the threads given, read in the pairs' order.
  struct Pair {
    Finding* a;
    Finding* b;
    analysis::Prediction both;
  };
  std::vector<Pair> pairs;
  for (size_t i = 0; i < predicted.size(); ++i) {
    for (size_t j = i + 1; j < predicted.size(); ++j) pairs.push_back({predicted[i], predicted[j]});
  }
  std::vector<std::function<void()>> replays;
  for (Pair& pair : pairs) {
    replays.emplace_back([&analysis, &check, &pair] {
      pair.both = analysis::Predict(analysis.replay_graph, analysis.timeline.steps, check,
                                    analysis::Combined(*pair.a->what_if, *pair.b->what_if));
    });
  }
  base::RunEach(threads, replays);
  for (const auto& [a, b, both] : pairs) {
    if (!both.available) continue;
    const int64_t sum = a->prediction.gain_ns_per_step + b->prediction.gain_ns_per_step;
    const int64_t tolerance = std::max({error_ns, sum / 100, kBoundToleranceNs});
    if (sum - both.gain_ns_per_step <= tolerance) continue;
    a->overlaps.push_back({b->rule, b->title, both.gain_ns_per_step, sum});
    b->overlaps.push_back({a->rule, a->title, both.gain_ns_per_step, sum});
  }
  for (Finding* f : predicted) {
    std::stable_sort(f->overlaps.begin(), f->overlaps.end(), [](const auto& x, const auto& y) {
      return x.sum_gain_ns_per_step - x.combined_gain_ns_per_step >
             y.sum_gain_ns_per_step - y.combined_gain_ns_per_step;
    });
  }
}

}  // namespace

analysis::WhatIf ScopedToRank(analysis::WhatIf fix, const analysis::RankAnalysis& analysis,
                              const Thresholds& thresholds) {
  if (fix.remove_launch_overhead) {
    const std::vector<std::pair<int64_t, int64_t>> kept =
        NonDispatchHostNs(RuleContext{analysis, thresholds});
    fix.kept_host_ns.insert(fix.kept_host_ns.end(), kept.begin(), kept.end());
  }
  return fix;
}

bool GainIsPredicted(const Finding& f) {
  return f.prediction.available && !f.prediction.one_remedy;
}

int64_t RankingGainNs(const Finding& f) {
  return GainIsPredicted(f) ? f.prediction.gain_ns_per_step : f.gain.ns_per_step;
}

Severity SeverityFor(const Band& band, double value, double gain_share) {
  const HealthStatus status = Evaluate(band, value);
  if (status == HealthStatus::kAbnormal && gain_share >= kCriticalGainShare)
    return Severity::kCritical;
  if (status != HealthStatus::kHealthy && gain_share >= kWarningGainShare)
    return Severity::kWarning;
  return Severity::kInfo;
}

void FinishClusterFinding(const cluster::RankSummary& rank, Finding* f) {
  model::RankInfo info;
  info.rank = rank.rank;
  info.path = rank.path;
  info.runtime = rank.runtime;
  info.distributed_backend = rank.distributed_backend;
  if (f->path.empty()) f->path = info.path;
  KeepFixesFor(TargetsFor(info.runtime), RankTags(info), f);
  ClampGain(rank.gain_step_ns, f);
  if (!rank.complete_steps) NoPerStepGain(static_cast<int64_t>(rank.steps.size()), f);
}

void FinishFindings(const analysis::RankAnalysis& analysis, const Thresholds& thresholds,
                    std::vector<Finding>* findings, unsigned threads) {
  const model::RankInfo& info = analysis.info();
  const std::vector<FixTarget> targets = TargetsFor(info.runtime);
  std::vector<std::string> rank_tags = RankTags(info);
  if (analysis.layout.python_stacks) rank_tags.emplace_back("python_stacks");
  // The Ascend profile's recorded settings: a knob already set is no fix.
  if (const auto tq = analysis.ascend_profile.env_variables.find("TASK_QUEUE_ENABLE");
      tq != analysis.ascend_profile.env_variables.end() && tq->second == "2") {
    rank_tags.emplace_back("task_queue_2");
  }
  const bool complete = analysis.complete_steps;
  const int64_t step_ns = GainStepNs(analysis);
  for (Finding& f : *findings) {
    if (!f.rank) f.rank = info.rank;
    if (f.path.empty()) f.path = info.path;
    KeepFixesFor(targets, rank_tags, &f);
    ClampGain(step_ns, &f);
  }
  MergeSameKernels(findings);
  for (Finding& f : *findings) {
    NameContributors(&f);
    if (!complete) NoPerStepGain(static_cast<int64_t>(analysis.steps.size()), &f);
  }
  // The replays, each finding's its own, on the threads given (1 GB trace:
  // 0.03 s of predictions and 0.04 s of pairs on one thread). The host's
  // dispatch and data loading removed is what a device-side fix's gain
  // beyond the host is measured against: replayed once per rank, if needed.
  std::vector<Finding*> replayed;
  bool device_side = false;
  for (Finding& f : *findings) {
    if (!f.what_if) continue;
    replayed.push_back(&f);
    device_side = device_side || analysis::DeviceSideOnly(*f.what_if);
  }
  analysis::Prediction host_only;
  std::vector<std::function<void()>> replays;
  const analysis::WhatIf host_removed =
      device_side ? ScopedToRank(analysis::HostRemoved(), analysis, thresholds)
                  : analysis::WhatIf{};
  if (device_side) {
    replays.emplace_back([&] {
      host_only = analysis::Predict(analysis.replay_graph, analysis.timeline.steps, analysis.replay,
                                    host_removed);
    });
  }
  for (Finding* f : replayed) {
    replays.emplace_back([&analysis, f] {
      f->prediction = analysis::Predict(analysis.replay_graph, analysis.timeline.steps,
                                        analysis.replay, *f->what_if, f->what_if_low);
      // Beyond rounding: the replay's integer means differ by a few ns.
      f->prediction.beyond_upper_bound =
          f->prediction.available &&
          f->prediction.gain_ns_per_step >
              f->gain.ns_per_step + std::max<int64_t>(kBoundToleranceNs, f->gain.ns_per_step / 100);
      f->prediction.one_remedy = f->what_if_one_remedy;
    });
  }
  base::RunEach(threads, replays);
  replays.clear();
  for (Finding* f : replayed) {
    if (!analysis::DeviceSideOnly(*f->what_if) || !f->prediction.available) continue;
    replays.emplace_back([&analysis, &host_removed, &host_only, f] {
      analysis::PredictBeyondHost(analysis.replay_graph, analysis.timeline.steps, analysis.replay,
                                  *f->what_if, host_removed, host_only, &f->prediction);
    });
  }
  base::RunEach(threads, replays);
  for (Finding* f : replayed) CapSeverityByPrediction(analysis.replay, f);
  FindOverlaps(analysis, findings, threads);
}

std::vector<Finding> RunAdvisor(const analysis::RankAnalysis& analysis,
                                const Thresholds& thresholds, unsigned threads) {
  const RuleContext context{analysis, thresholds};
  std::vector<Finding> findings;
  for (const Rule* rule : AllRules()) rule->Evaluate(context, &findings);
  FinishFindings(analysis, thresholds, &findings, threads);
  std::stable_sort(findings.begin(), findings.end(), [](const Finding& a, const Finding& b) {
    if (RankingGainNs(a) != RankingGainNs(b)) return RankingGainNs(a) > RankingGainNs(b);
    return a.severity > b.severity;
  });
  return findings;
}

}  // namespace perfdx::advisor
