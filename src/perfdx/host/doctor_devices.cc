// accel.*, irq.*: each accelerator with its PCI address, NUMA node and local
// CPUs; the interrupts of the accelerators and network cards and whether
// they land on the device's own node.
#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "perfdx/host/bind_plan.h"
#include "perfdx/host/cpu_list.h"
#include "perfdx/host/doctor_checks.h"

namespace perfdx::host::doctor {
namespace {

constexpr const char* kPciSysfsDoc = "https://docs.kernel.org/PCI/sysfs-pci.html";
constexpr const char* kIrqAffinityDoc = "https://docs.kernel.org/core-api/irq/irq-affinity.html";
constexpr const char* kAffinityConfDoc =
    "https://www.hiascend.com/doc_center/source/zh/Pytorch/700/ptmoddevg/Frameworkfeatures/"
    "featuresguide_00010.html";
constexpr const char* kNvidiaTopoDoc = "https://docs.nvidia.com/deploy/nvidia-smi/index.html";

// Ascend device ids (PCI device id of vendor 0x19e5, class 0x1200).
std::string AscendName(uint32_t device) {
  switch (device) {
    case 0xd100:
      return "Ascend 310";
    case 0xd500:
      return "Ascend 310P";
    case 0xd801:
      return "Ascend 910";
    case 0xd802:
      return "Ascend 910B";
    default:
      return fmt::format("Ascend NPU (device 0x{:04x})", device);
  }
}

std::string DeviceName(const PciDevice& d) {
  switch (d.kind) {
    case DeviceKind::kNvidiaGpu:
      return d.model.empty() ? fmt::format("NVIDIA GPU (device 0x{:04x})", d.device) : d.model;
    case DeviceKind::kAscendNpu:
      return AscendName(d.device);
    case DeviceKind::kNic:
      return fmt::format("network card {:04x}:{:04x}{}", d.vendor, d.device,
                         d.net_names.empty() ? "" : " (" + d.net_names + ")");
  }
  return {};
}

std::string Locality(const PciDevice& d) {
  return fmt::format("NUMA node {}, local CPUs {}", d.numa_node,
                     d.local_cpus ? FormatCpuList(*d.local_cpus) : "unknown");
}

Check AcceleratorCheck(const DoctorInput& in, const PciDevice& d, int index) {
  Check c = MakeCheck("accel." + d.address,
                      d.kind == DeviceKind::kNvidiaGpu ? "NVIDIA GPU" : "Ascend NPU");
  c.value = fmt::format("{} {} at {}, {}", index, DeviceName(d), d.address, Locality(d));
  c.level = Level::kOk;
  c.source = kPciSysfsDoc;
  const bool multi_node = in.topology.nodes.size() > 1;
  if (d.kind == DeviceKind::kNvidiaGpu && !d.driver_info) {
    c.level = Level::kCritical;
    c.why = "no /proc/driver/nvidia/gpus/" + d.address +
            "/information: the NVIDIA driver has not bound this GPU";
    c.recommended = "the NVIDIA driver loaded (nvidia-smi lists the GPU)";
    c.source = kNvidiaTopoDoc;
    c.fix = "sudo modprobe nvidia";
  } else if (multi_node && d.numa_node < 0) {
    c.level = Level::kWarning;
    c.why =
        "the firmware reports no NUMA node for this device (numa_node -1) on a machine of "
        "several: the rank cannot be placed next to it (in a VM, expose the host's NUMA "
        "topology; on bare metal, check the BIOS's NUMA setting)";
    c.recommended = "the NUMA node of the socket the device hangs off";
  } else {
    c.why = "the rank that drives this device belongs on these CPUs (perfdx bind)";
  }
  return c;
}

Check AscendDriverCheck(const DoctorInput& in) {
  const size_t pci = in.topology.Accelerators(DeviceKind::kAscendNpu).size();
  const size_t dev = in.topology.davinci.size();
  Check c = MakeCheck("accel.ascend_driver", "Ascend driver devices");
  c.value = fmt::format("{} /dev/davinciN ({}) for {} Ascend NPUs on PCI", dev,
                        dev == 0 ? "none" : FormatCpuList(in.topology.davinci), pci);
  c.recommended = "one /dev/davinciN per NPU";
  c.source = kAffinityConfDoc;
  if (dev == 0) {
    c.level = Level::kCritical;
    c.why = "no /dev/davinciN: the Ascend driver is not loaded (or the container has no devices)";
    c.fix = "npu-smi info";
  } else if (pci > 0 && dev < pci) {
    c.level = Level::kWarning;
    c.why = "fewer driver devices than NPUs on PCI: some NPUs are not usable here";
    c.fix = "npu-smi info";
  } else {
    c.level = Level::kOk;
  }
  return c;
}

// The cores `perfdx bind --policy split` keeps for the ranks' main threads
// (one rank per accelerator), each with its rank.
std::map<int, int> MainThreadCpus(const HostTopology& t) {
  std::map<int, int> out;
  BindRequest request;
  request.nproc = std::max<int>(1, static_cast<int>(t.Accelerators().size()));
  request.policy = BindPolicy::kSplit;
  auto plan = MakeBindPlan(t, request);
  if (!plan.ok()) return out;
  for (const auto& r : plan->ranks) {
    for (int cpu : r.main_cpus) out.emplace(cpu, r.local_rank);
  }
  return out;
}

Check IrqCheck(const DoctorInput& in, const PciDevice& d, const std::map<int, int>& main_cpus) {
  Check c = MakeCheck("irq." + d.address, "interrupts of " + DeviceName(d));
  c.source = kIrqAffinityDoc;
  if (d.irqs.empty()) {
    c = Unknown(c.id, c.title, "no msi_irqs/ or irq for " + d.address + " (no driver bound?)");
    c.source = kIrqAffinityDoc;
    return c;
  }
  const auto local = DeviceCpus(in.topology, d);
  std::vector<int> remote;
  std::vector<int> spread;
  std::vector<int> unreadable;
  std::map<int, std::vector<int>> on_main;  // main-thread CPU -> its IRQs
  for (const auto& irq : d.irqs) {
    if (!irq.affinity) {
      unreadable.push_back(irq.number);
      continue;
    }
    if (irq.affinity->size() == 1) {
      if (main_cpus.count(irq.affinity->front())) {
        on_main[irq.affinity->front()].push_back(irq.number);
      }
    }
    if (!local || in.topology.nodes.size() <= 1) continue;
    if (Intersect(*irq.affinity, *local).empty()) {
      remote.push_back(irq.number);
    } else if (!IsSubset(*irq.affinity, *local)) {
      spread.push_back(irq.number);
    }
  }
  const size_t n = d.irqs.size();
  c.value = fmt::format("{} IRQ{} ({})", n, n == 1 ? "" : "s", [&] {
    std::vector<int> numbers;
    for (const auto& irq : d.irqs) numbers.push_back(irq.number);
    return FormatCpuList(numbers);
  }());
  if (!local || in.topology.nodes.size() <= 1) {
    c.level = unreadable.size() == n ? Level::kInfo : Level::kOk;
    c.known = unreadable.size() < n;
    c.value += in.topology.nodes.size() <= 1 ? ", one NUMA node: every CPU is local"
                                             : ", the device's node is unknown";
  } else {
    const size_t on_node = n - remote.size() - spread.size() - unreadable.size();
    // A device without a node (numa_node -1) is measured against its local_cpulist.
    const std::string where = d.numa_node >= 0 ? fmt::format("node {}'s CPUs", d.numa_node)
                                               : std::string("its local CPUs");
    c.value += fmt::format(": {} on {} {}", on_node, where, FormatCpuList(*local));
    if (!spread.empty()) c.value += fmt::format(", {} spread beyond it", spread.size());
    if (!remote.empty()) {
      c.value += fmt::format(", {} only on other nodes ({})", remote.size(), FormatCpuList(remote));
    }
    if (!unreadable.empty()) c.value += fmt::format(", {} unreadable", unreadable.size());
    c.recommended = fmt::format("every IRQ on {} ({})", where, FormatCpuList(*local));
    std::vector<int> to_move = remote;
    to_move.insert(to_move.end(), spread.begin(), spread.end());
    std::sort(to_move.begin(), to_move.end());
    c.level = !remote.empty() ? Level::kWarning : !spread.empty() ? Level::kInfo : Level::kOk;
    if (!to_move.empty()) {
      std::string list;
      for (int irq : to_move) list += (list.empty() ? "" : " ") + std::to_string(irq);
      c.fix =
          fmt::format("for irq in {}; do echo {} | sudo tee /proc/irq/$irq/smp_affinity_list; done",
                      list, FormatCpuList(*local));
      c.why =
          "an interrupt served on another node reads the device's completions across the socket "
          "interconnect and wakes a thread far from its memory; irqbalance, when it runs, "
          "moves IRQs back (stop it: sudo systemctl stop irqbalance)";
    }
  }
  if (!on_main.empty()) {
    std::string list;
    for (const auto& [cpu, numbers] : on_main) {
      list += fmt::format("{}IRQ{} {} on CPU {} (rank {})", list.empty() ? "" : ", ",
                          numbers.size() == 1 ? "" : "s", FormatCpuList(numbers), cpu,
                          main_cpus.at(cpu));
    }
    c.value += "; on the main-thread core perfdx bind --policy split gives a rank: " + list;
    if (c.level == Level::kOk) c.level = Level::kInfo;
    if (c.why.empty()) {
      c.why =
          "an interrupt on a rank's main-thread core preempts the thread that launches the "
          "device's work";
    }
  }
  return c;
}

}  // namespace

void AddDeviceChecks(const DoctorInput& input, std::vector<Check>* out) {
  const auto& t = input.topology;
  const auto gpus = t.Accelerators(DeviceKind::kNvidiaGpu);
  const auto npus = t.Accelerators(DeviceKind::kAscendNpu);
  if (gpus.empty() && npus.empty() && t.davinci.empty()) {
    Check c = MakeCheck("accel.devices", "accelerators");
    c.level = Level::kInfo;
    c.value =
        "no NVIDIA GPU (vendor 0x10de) or Ascend NPU (vendor 0x19e5) on PCI, no /dev/davinci*";
    c.why = "perfdx bind falls back to splitting the CPUs by local rank";
    c.source = kPciSysfsDoc;
    out->push_back(std::move(c));
  }
  for (size_t i = 0; i < gpus.size(); ++i)
    out->push_back(AcceleratorCheck(input, *gpus[i], static_cast<int>(i)));
  for (size_t i = 0; i < npus.size(); ++i)
    out->push_back(AcceleratorCheck(input, *npus[i], static_cast<int>(i)));
  if (!npus.empty() || !t.davinci.empty()) out->push_back(AscendDriverCheck(input));
  const auto main_cpus = MainThreadCpus(t);
  for (const auto& d : t.devices) out->push_back(IrqCheck(input, d, main_cpus));
}

}  // namespace perfdx::host::doctor
