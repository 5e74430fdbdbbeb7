// Applies one rank's binding to the calling process before it execs the
// rank's command: both survive execve and are inherited by every thread and
// child the command starts.
#pragma once

#include "perfdx/base/status.h"
#include "perfdx/host/bind_plan.h"

namespace perfdx::host {

// sched_setaffinity(2) to rank.cpus, then set_mempolicy(2): MPOL_BIND
// (`membind`) or MPOL_PREFERRED to rank.mem_node; no memory policy when
// mem_node is -1. An error names the call and the OS's reason.
Status ApplyBinding(const RankBinding& rank, bool membind);

}  // namespace perfdx::host
