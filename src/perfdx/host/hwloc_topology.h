// The live system's topology from hwloc (Debian libhwloc-dev): CPUs, cores,
// packages, NUMA nodes and the PCI devices with their locality, as hwloc
// sees them (cgroup-restricted CPUs left out). What hwloc does not report —
// interrupts, the NVIDIA driver's model and UUID, /dev/davinciN — comes from
// the sysfs reading of "/" (topology.h).
#pragma once

#include "perfdx/base/status.h"
#include "perfdx/host/topology.h"

namespace perfdx::host {

Result<HostTopology> ReadHwlocTopology();

}  // namespace perfdx::host
