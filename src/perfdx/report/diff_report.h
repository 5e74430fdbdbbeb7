// `perfdx diff`: text and JSON renderings of a DiffResult.
//
// JSON (keys other tools read):
//   {"base": {"label", "steps"}, "new": {"label", "steps"},
//    "added": [names], "removed": [names],
//    "changed": [{"name", "kind", "base_ns", "new_ns", "base_count", "new_count",
//                 "delta_ns_per_step"}],
//    "added_items": [{...same keys...}], "removed_items": [...], "unchanged": N,
//    "items_complete": bool,
//    "metrics": {key: {"base", "new", "delta", "relative"}},
//    "phases": {phase: {"base_ns_per_step", "new_ns_per_step", "delta_ns_per_step"}},
//    "notes": [...]}
// Names are operators and kernels (and runtime calls, annotations, ...: the
// inventory of baseline/inventory.h); lists are sorted by impact per step.
#pragma once

#include <cstddef>
#include <string>

#include "perfdx/baseline/compare/diff.h"

namespace perfdx::report {

std::string RenderDiffJson(const baseline::DiffResult& diff);
// `top`: rows per list (added, removed, changed). Laid out to `width`
// columns (40 at the least) as the analyze report is.
std::string RenderDiffText(const baseline::DiffResult& diff, size_t top = 15, int width = 100);

}  // namespace perfdx::report
