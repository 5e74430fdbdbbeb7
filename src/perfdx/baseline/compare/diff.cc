#include "perfdx/baseline/compare/diff.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <unordered_map>

#include "perfdx/baseline/compare/workload.h"
#include "perfdx/baseline/record/trace_run.h"

namespace perfdx::baseline {

std::optional<double> ValueDelta::delta() const {
  if (!base || !current) return std::nullopt;
  return *current - *base;
}

std::optional<double> ValueDelta::relative() const {
  if (!base || !current || *base == 0) return std::nullopt;
  return (*current - *base) / *base;
}

namespace {

constexpr std::string_view kPhasePrefix = "phase_";
constexpr std::string_view kPhaseSuffix = "_ns";

std::optional<double> Find(const std::map<std::string, double>& m, const std::string& key) {
  auto it = m.find(key);
  return it == m.end() ? std::nullopt : std::optional<double>(it->second);
}

// The order a reader scans: the step time, throughput, then the health shares.
std::vector<std::string> MetricOrder(const RunRecord& base, const RunRecord& current) {
  std::vector<std::string> order = {"step_time_median_ns",
                                    "step_time_mean_ns",
                                    "step_time_p90_ns",
                                    "step_time_min_ns",
                                    "step_time_max_ns",
                                    "step_time_cv",
                                    "steps",
                                    "throughput_median"};
  for (std::string_view h : HealthMetricNames()) order.emplace_back(h);
  std::set<std::string> rest;
  for (const RunRecord* r : {&base, &current}) {
    for (const auto& [key, value] : r->metrics) {
      if (key.starts_with(kPhasePrefix)) continue;
      if (std::find(order.begin(), order.end(), key) == order.end()) rest.insert(key);
    }
  }
  order.insert(order.end(), rest.begin(), rest.end());
  return order;
}

double PerStep(int64_t ns, size_t steps) {
  return static_cast<double>(ns) / static_cast<double>(std::max<size_t>(steps, 1));
}

}  // namespace

DiffResult DiffRuns(const RunRecord& base, const RunRecord& current) {
  DiffResult out;
  out.base_label = base.Label();
  out.new_label = current.Label();
  out.base_steps = base.steps.size();
  out.new_steps = current.steps.size();

  for (const std::string& key : MetricOrder(base, current)) {
    ValueDelta d{key, Find(base.metrics, key), Find(current.metrics, key)};
    if (d.base || d.current) out.metrics.push_back(std::move(d));
  }
  std::set<std::string> phases;
  for (const RunRecord* r : {&base, &current}) {
    for (const auto& [key, value] : r->metrics) {
      if (key.starts_with(kPhasePrefix) && key.ends_with(kPhaseSuffix)) phases.insert(key);
    }
  }
  for (const std::string& key : phases) {
    const std::string phase =
        key.substr(kPhasePrefix.size(), key.size() - kPhasePrefix.size() - kPhaseSuffix.size());
    out.phases.push_back(ValueDelta{phase, Find(base.metrics, key), Find(current.metrics, key)});
  }

  if (auto why = WhyNotSameWorkload(base, current)) out.notes.push_back(std::move(*why));
  out.items_complete = base.items_complete && current.items_complete;
  if (!out.items_complete) {
    out.notes.push_back(
        "one side lists only its top operators and kernels (an analyze report, or a step log "
        "without "
        "any): added and removed names are not reported; diff traces or saved trace runs for them");
  }
  std::unordered_map<std::string, const RunItem*> in_new;
  for (const RunItem& i : current.items) in_new.emplace(i.name, &i);
  std::unordered_map<std::string, const RunItem*> in_base;
  for (const RunItem& i : base.items) in_base.emplace(i.name, &i);

  for (const RunItem& b : base.items) {
    auto it = in_new.find(b.name);
    ItemDelta d{b.name, b.kind, b.count, 0, b.total_ns, 0, PerStep(b.total_ns, out.base_steps), 0};
    if (it == in_new.end()) {
      if (out.items_complete) out.removed.push_back(std::move(d));
      continue;
    }
    const RunItem& n = *it->second;
    d.new_count = n.count;
    d.new_ns = n.total_ns;
    d.new_ns_per_step = PerStep(n.total_ns, out.new_steps);
    if (d.base_count == d.new_count && d.base_ns == d.new_ns) {
      ++out.unchanged;
    } else {
      out.changed.push_back(std::move(d));
    }
  }
  if (out.items_complete) {
    for (const RunItem& n : current.items) {
      if (in_base.contains(n.name)) continue;
      out.added.push_back(ItemDelta{n.name, n.kind, 0, n.count, 0, n.total_ns, 0,
                                    PerStep(n.total_ns, out.new_steps)});
    }
  }

  auto by_impact = [](auto impact) {
    return [impact](const ItemDelta& a, const ItemDelta& b) {
      const double ia = impact(a);
      const double ib = impact(b);
      return ia != ib ? ia > ib : a.name < b.name;
    };
  };
  std::sort(out.added.begin(), out.added.end(),
            by_impact([](const ItemDelta& d) { return d.new_ns_per_step; }));
  std::sort(out.removed.begin(), out.removed.end(),
            by_impact([](const ItemDelta& d) { return d.base_ns_per_step; }));
  std::sort(out.changed.begin(), out.changed.end(),
            by_impact([](const ItemDelta& d) { return std::fabs(d.delta_ns_per_step()); }));
  return out;
}

}  // namespace perfdx::baseline
