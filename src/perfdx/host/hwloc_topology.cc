#include "perfdx/host/hwloc_topology.h"

#include <hwloc.h>

#include <algorithm>
#include <memory>

#include <fmt/format.h>

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
  // PCI devices are filtered out by default; keep those that matter
  // (GPUs, NICs, accelerators), not bridges.
  hwloc_topology_set_io_types_filter(raw, HWLOC_TYPE_FILTER_KEEP_IMPORTANT);
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

  for (hwloc_obj_t pci = hwloc_get_next_pcidev(raw, nullptr); pci != nullptr;
       pci = hwloc_get_next_pcidev(raw, pci)) {
    const auto& attr = pci->attr->pcidev;
    const uint32_t class_code = static_cast<uint32_t>(attr.class_id) << 8;
    const auto kind = ClassifyPciDevice(attr.vendor_id, class_code);
    if (!kind) continue;
    PciDevice d;
    d.address =
        fmt::format("{:04x}:{:02x}:{:02x}.{:01x}", attr.domain, attr.bus, attr.dev, attr.func);
    d.vendor = attr.vendor_id;
    d.device = attr.device_id;
    d.class_code = class_code;
    d.kind = *kind;
    if (hwloc_obj_t local = hwloc_get_non_io_ancestor_obj(raw, pci)) {
      d.local_cpus = Ids(local->cpuset);
      const auto nodes = Ids(local->nodeset);
      // One node: the device's; the whole machine of several: none, as
      // sysfs reports -1.
      if (nodes.size() == 1 && node_count > 1) d.numa_node = nodes.front();
    }
    // The files hold what hwloc does not (prog-if, IRQs, driver info).
    for (const auto& f : files.devices) {
      if (f.address != d.address) continue;
      d.class_code = f.class_code;
      d.irqs = f.irqs;
      d.model = f.model;
      d.uuid = f.uuid;
      d.driver_info = f.driver_info;
      d.net_names = f.net_names;
      if (node_count == 1) d.numa_node = f.numa_node;
    }
    t.devices.push_back(std::move(d));
  }
  std::sort(t.devices.begin(), t.devices.end(),
            [](const PciDevice& a, const PciDevice& b) { return a.address < b.address; });

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
