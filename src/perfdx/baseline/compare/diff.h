// `perfdx diff BASE NEW`: what moved between two runs — every metric, each
// step phase, and each operator and kernel by name, with the names that
// appeared and vanished (as HTA's TraceDiff lists them), sorted by impact.
//
// Impact is per step (total / number of steps of that run), so runs of
// different lengths compare fairly: |new/step - base/step| for a changed
// name, new/step for an added one, base/step for a removed one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "perfdx/baseline/record/run_record.h"

namespace perfdx::baseline {

struct ValueDelta {
  std::string name;
  std::optional<double> base;
  std::optional<double> current;
  // new - base, and (new - base) / base; absent when a side is missing.
  std::optional<double> delta() const;
  std::optional<double> relative() const;
};

struct ItemDelta {
  std::string name;
  std::string kind;  // run_record.h RunItem::kind
  uint64_t base_count = 0;
  uint64_t new_count = 0;
  int64_t base_ns = 0;
  int64_t new_ns = 0;
  double base_ns_per_step = 0;
  double new_ns_per_step = 0;
  double delta_ns_per_step() const { return new_ns_per_step - base_ns_per_step; }
};

struct DiffResult {
  std::string base_label;
  std::string new_label;
  size_t base_steps = 0;
  size_t new_steps = 0;
  std::vector<ValueDelta> metrics;  // step time first, then health, then the rest
  std::vector<ValueDelta> phases;   // mean ns per step, by phase name
  std::vector<ItemDelta> added;     // in the new run only, by new time per step
  std::vector<ItemDelta> removed;   // in the base run only, by base time per step
  std::vector<ItemDelta> changed;   // in both, count or time differ; by |delta per step|
  size_t unchanged = 0;             // in both with equal count and time
  // False when either side lists only its top operators and kernels (an
  // analyze report): then added/removed stay empty, as a name missing from
  // a top-50 list may just have dropped out of it.
  bool items_complete = true;
  std::vector<std::string> notes;
};

DiffResult DiffRuns(const RunRecord& base, const RunRecord& current);

}  // namespace perfdx::baseline
