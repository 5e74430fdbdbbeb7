#include "perfdx/host/hwloc_topology.h"

#include <hwloc.h>

#include <algorithm>
#include <memory>

namespace perfdx::host {
namespace {

struct TopologyCloser {
  void operator()(hwloc_topology* t) const { hwloc_topology_destroy(t); }
};

std::vector<int> Ids(hwloc_const_bitmap_t set) {
  std::vector<int> ids;
  if (set == nullptr) return ids;
  int id = -1;
  while ((id = hwloc_bitmap_next(set, id)) != -1) ids.push_back(id);
  return ids;
}

}  // namespace

Result<HostTopology> ReadHwlocTopology() {
  hwloc_topology_t raw = nullptr;
  if (hwloc_topology_init(&raw) != 0) return Internal("hwloc_topology_init failed");
  std::unique_ptr<hwloc_topology, TopologyCloser> topo(raw);
  // I/O objects stay filtered out (hwloc's default): see the devices below.
  if (hwloc_topology_load(raw) != 0) return IoError("hwloc could not read this machine's topology");

  // Interrupts, driver files and /dev come from the files hwloc does not read.
  const HostTopology files = ReadSysfsTopology(SysRoot("/"));
  HostTopology t;
  t.source = "hwloc";
  t.davinci = files.davinci;

  const int pu_count = hwloc_get_nbobjs_by_type(raw, HWLOC_OBJ_PU);
  for (int i = 0; i < pu_count; ++i) {
    hwloc_obj_t pu = hwloc_get_obj_by_type(raw, HWLOC_OBJ_PU, static_cast<unsigned>(i));
    Cpu c;
    c.id = static_cast<int>(pu->os_index);
    if (hwloc_obj_t core = hwloc_get_ancestor_obj_by_type(raw, HWLOC_OBJ_CORE, pu)) {
      c.core = core->os_index == HWLOC_UNKNOWN_INDEX ? -1 : static_cast<int>(core->os_index);
      c.siblings = Ids(core->cpuset);
    } else {
      c.siblings = {c.id};
    }
    if (hwloc_obj_t package = hwloc_get_ancestor_obj_by_type(raw, HWLOC_OBJ_PACKAGE, pu)) {
      c.package =
          package->os_index == HWLOC_UNKNOWN_INDEX ? -1 : static_cast<int>(package->os_index);
    }
    t.cpus.push_back(std::move(c));
  }
  std::sort(t.cpus.begin(), t.cpus.end(), [](const Cpu& a, const Cpu& b) { return a.id < b.id; });

  const int node_count = hwloc_get_nbobjs_by_type(raw, HWLOC_OBJ_NUMANODE);
  for (int i = 0; i < node_count; ++i) {
    hwloc_obj_t obj = hwloc_get_obj_by_type(raw, HWLOC_OBJ_NUMANODE, static_cast<unsigned>(i));
    NumaNode n;
    n.id = static_cast<int>(obj->os_index);
    n.cpus = Ids(obj->cpuset);
    n.mem_total_kb = static_cast<int64_t>(obj->attr->numanode.local_memory / 1024);
    for (int cpu : n.cpus) {
      for (auto& c : t.cpus) {
        if (c.id == cpu) c.node = n.id;
      }
    }
    t.nodes.push_back(std::move(n));
  }
  std::sort(t.nodes.begin(), t.nodes.end(),
            [](const NumaNode& a, const NumaNode& b) { return a.id < b.id; });

  // Accelerators and NICs come from sysfs, which holds all hwloc would say of
  // them (NUMA node, local CPUs) and what it does not (prog-if, IRQs, driver
  // files). hwloc's PCI discovery (libpciaccess) leaks at every load.
  t.devices = files.devices;

  // hwloc leaves out the CPUs this process may not use (cgroup cpuset).
  hwloc_bitmap_t allowed = hwloc_bitmap_alloc();
  if (allowed != nullptr && hwloc_get_cpubind(raw, allowed, HWLOC_CPUBIND_PROCESS) == 0) {
    t.allowed_cpus = Ids(allowed);
  } else {
    t.allowed_cpus = t.OnlineCpuIds();
  }
  if (allowed != nullptr) hwloc_bitmap_free(allowed);
  if (t.cpus.empty()) return IoError("hwloc found no CPUs on this machine");
  return t;
}

}  // namespace perfdx::host
