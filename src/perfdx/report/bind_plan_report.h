// `perfdx bind --print`'s output: the plan host::MakeBindPlan made, every
// rank with its equivalent command lines, as text or JSON. The JSON form is a
// contract (keys other tools read; docs/host.md):
//   {"schema_version", "report": "bind_plan", "perfdx_version", "policy",
//    "membind", "fallback", "visible_variable", "ranks": [{"local_rank",
//    "device_index", "device": {"address", "kind", "model", "numa_node"} | null,
//    "cpus", "main_cpus", "worker_cpus", "mem_node", "mem_policy", "taskset",
//    "numactl"}], "cpu_affinity_conf", "notes"}
#pragma once

#include <string>

#include "perfdx/host/bind_plan.h"

namespace perfdx::report {

// Raised when a key is removed, renamed or changes meaning.
inline constexpr int kBindPlanSchemaVersion = 1;

// Wrapped to `width` columns (40 at the least) as the analyze report is:
// the ranks as a table (the device shortened, then the split's main and
// worker CPUs left out, when it is too wide), each command cut only where it
// still pastes (WrapCode).
std::string RenderBindPlanText(const host::BindPlan& plan, int width = 100);
std::string RenderBindPlanJson(const host::BindPlan& plan);

}  // namespace perfdx::report
