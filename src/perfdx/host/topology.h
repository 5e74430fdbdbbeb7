// The machine as perfdx host needs it: online CPUs with their core, package
// and NUMA node; NUMA nodes with their CPUs and memory; the accelerators
// (NVIDIA GPUs, Ascend NPUs) and network cards on PCI with their NUMA node,
// local CPUs and interrupts. Read from sysfs/procfs under a SysRoot
// (ReadSysfsTopology), or for the live system from hwloc
// (ReadHwlocTopology, hwloc_topology.h). docs/host.md lists the files.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "perfdx/host/sysroot.h"

namespace perfdx::host {

enum class DeviceKind { kNvidiaGpu, kAscendNpu, kNic };
std::string_view DeviceKindName(DeviceKind kind);  // "nvidia_gpu", "ascend_npu", "nic"

// What a PCI function is, from its vendor and class alone (one table,
// topology.cc): NVIDIA (0x10de) VGA 0x0300 or 3D controller 0x0302; Huawei
// (0x19e5) processing accelerator 0x1200 (Ascend 910/310); any vendor's
// Ethernet 0x0200 or InfiniBand 0x0207 controller. Everything else (NVIDIA's
// audio function 0x0403, NVSwitch 0x0680, bridges) is nullopt.
std::optional<DeviceKind> ClassifyPciDevice(uint32_t vendor, uint32_t class_code);

struct Cpu {
  int id = -1;
  int package = -1;           // topology/physical_package_id
  int core = -1;              // topology/core_id (unique within its package)
  int node = -1;              // the NUMA node whose cpulist holds it
  std::vector<int> siblings;  // topology/thread_siblings_list (itself included)
};

struct NumaNode {
  int id = -1;
  std::vector<int> cpus;
  int64_t mem_total_kb = -1;  // node*/meminfo "MemTotal"; -1 unknown
};

// One interrupt of a device: from msi_irqs/ (or the legacy `irq` file), its
// smp_affinity_list and its line in /proc/interrupts.
struct Irq {
  int number = -1;
  std::string name;                          // the last column of /proc/interrupts
  std::optional<std::vector<int>> affinity;  // smp_affinity_list; nullopt unreadable
  std::vector<int> serving_cpus;             // CPUs whose count is not zero
  uint64_t count = 0;                        // all CPUs together
};

struct PciDevice {
  std::string address;  // "0000:1b:00.0", the folder name under /sys/bus/pci/devices
  uint32_t vendor = 0;
  uint32_t device = 0;
  uint32_t class_code = 0;  // 24 bits: class, subclass, prog-if
  DeviceKind kind = DeviceKind::kNic;
  int numa_node = -1;                          // numa_node; -1 when the firmware reports none
  std::optional<std::vector<int>> local_cpus;  // local_cpulist
  std::vector<Irq> irqs;
  std::string model;         // NVIDIA: "Model:" of /proc/driver/nvidia/gpus/<addr>/information
  std::string uuid;          // NVIDIA: "GPU UUID:"
  bool driver_info = false;  // NVIDIA: that information file exists (the driver is loaded)
  std::string net_names;     // NIC: its interfaces (net/ folder), "ens1f0,ens1f1"
};

struct HostTopology {
  std::string source;              // "sysfs" or "hwloc"
  std::vector<Cpu> cpus;           // online CPUs, ascending id
  std::vector<NumaNode> nodes;     // ascending id
  std::vector<PciDevice> devices;  // accelerators and NICs, ascending PCI address
  std::vector<int> davinci;        // N of each /dev/davinciN (Ascend driver device files)
  // CPUs this process may run on: sched_getaffinity live, the fixture's
  // /proc/self/status Cpus_allowed_list under a root, else all online CPUs.
  std::vector<int> allowed_cpus;

  std::vector<int> OnlineCpuIds() const;
  const Cpu* FindCpu(int id) const;
  const NumaNode* FindNode(int id) const;
  // Accelerators of one kind in PCI bus order: the order nvidia-smi and
  // npu-smi number them (CUDA_DEVICE_ORDER=PCI_BUS_ID).
  std::vector<const PciDevice*> Accelerators(DeviceKind kind) const;
  // NVIDIA GPUs when any, else Ascend NPUs; empty when neither.
  std::vector<const PciDevice*> Accelerators() const;
  bool HasAscend() const;  // an Ascend NPU on PCI or a /dev/davinciN
  bool HasNvidia() const;
};

// Reads the topology from the files under `root`; a missing file leaves its
// field unknown (never an error: doctor reports what it could read).
HostTopology ReadSysfsTopology(const SysRoot& root);

// The device's CPUs for binding: its NUMA node's CPUs when it has a node,
// else its local_cpulist, else nullopt.
std::optional<std::vector<int>> DeviceCpus(const HostTopology& topology, const PciDevice& device);

}  // namespace perfdx::host
