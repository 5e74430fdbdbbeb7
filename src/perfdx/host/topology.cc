#include "perfdx/host/topology.h"

#include <sched.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <string_view>

#include <fmt/format.h>

#include "perfdx/host/cpu_list.h"

namespace perfdx::host {
namespace {

constexpr uint32_t kVendorNvidia = 0x10de;
constexpr uint32_t kVendorHuawei = 0x19e5;

// Class and subclass (the top 16 of the 24 class bits) of each kind, per
// vendor; 0 as the vendor matches any vendor (PCI Code and ID Assignment
// Specification: 0x0200 Ethernet, 0x0207 InfiniBand, 0x0300 VGA, 0x0302 3D
// controller, 0x1200 processing accelerator).
struct PciKindRow {
  uint32_t vendor;
  uint32_t class_subclass;
  DeviceKind kind;
};
constexpr PciKindRow kPciKinds[] = {
    {kVendorNvidia, 0x0300, DeviceKind::kNvidiaGpu},
    {kVendorNvidia, 0x0302, DeviceKind::kNvidiaGpu},
    {kVendorHuawei, 0x1200, DeviceKind::kAscendNpu},
    {0, 0x0200, DeviceKind::kNic},
    {0, 0x0207, DeviceKind::kNic},
};

std::vector<std::string_view> Tokens(std::string_view line) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    size_t j = i;
    while (j < line.size() && line[j] != ' ' && line[j] != '\t') ++j;
    if (j > i) out.push_back(line.substr(i, j - i));
    i = j;
  }
  return out;
}

template <typename T>
bool ParseNumber(std::string_view s, T* out) {
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && end == s.data() + s.size();
}

std::optional<std::vector<int>> ReadCpuList(const SysRoot& root, std::string_view path) {
  auto text = root.Read(path);
  if (!text) return std::nullopt;
  auto ids = ParseCpuList(*text);
  if (!ids.ok()) return std::nullopt;
  return *ids;
}

// /proc/interrupts: a header of CPU columns (online CPUs only), then one line
// per IRQ: "  24:   0   5   PCI-MSI 1572864-edge   nvidia".
struct InterruptLine {
  std::string name;
  std::vector<int> serving_cpus;
  uint64_t count = 0;
};
std::map<int, InterruptLine> ReadInterrupts(const SysRoot& root) {
  std::map<int, InterruptLine> out;
  auto text = root.Read("/proc/interrupts");
  if (!text) return out;
  std::string_view rest = *text;
  std::vector<int> columns;
  bool header = true;
  while (!rest.empty()) {
    const size_t nl = std::min(rest.find('\n'), rest.size());
    const std::string_view line = rest.substr(0, nl);
    rest.remove_prefix(std::min(nl + 1, rest.size()));
    const auto tokens = Tokens(line);
    if (header) {
      for (auto t : tokens) columns.push_back(NumberedName(t, "CPU"));
      header = false;
      continue;
    }
    if (tokens.empty() || !tokens[0].ends_with(':')) continue;
    int irq = -1;
    if (!ParseNumber(tokens[0].substr(0, tokens[0].size() - 1), &irq)) continue;  // NMI:, LOC:
    InterruptLine entry;
    size_t t = 1;
    for (size_t c = 0; c < columns.size() && t < tokens.size(); ++c, ++t) {
      uint64_t n = 0;
      if (!ParseNumber(tokens[t], &n)) break;
      entry.count += n;
      if (n > 0 && columns[c] >= 0) entry.serving_cpus.push_back(columns[c]);
    }
    if (t < tokens.size()) entry.name = std::string(tokens.back());
    std::sort(entry.serving_cpus.begin(), entry.serving_cpus.end());
    out[irq] = std::move(entry);
  }
  return out;
}

// "Model:  NVIDIA A100-SXM4-80GB" lines of the driver's information file.
std::string InfoField(std::string_view text, std::string_view key) {
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t nl = std::min(text.find('\n', pos), text.size());
    std::string_view line = text.substr(pos, nl - pos);
    pos = nl + 1;
    if (!line.starts_with(key)) continue;
    line.remove_prefix(key.size());
    if (line.empty() || line.front() != ':') continue;
    line.remove_prefix(1);
    const auto tokens = Tokens(line);
    if (tokens.empty()) return {};
    return std::string(line.substr(
        static_cast<size_t>(tokens.front().data() - line.data()),
        static_cast<size_t>(tokens.back().data() + tokens.back().size() - tokens.front().data())));
  }
  return {};
}

void ReadDevice(const SysRoot& root, const std::string& address,
                const std::map<int, InterruptLine>& interrupts, std::vector<PciDevice>* out) {
  const std::string dir = "/sys/bus/pci/devices/" + address;
  const auto vendor = root.ReadHex(dir + "/vendor");
  const auto class_code = root.ReadHex(dir + "/class");
  if (!vendor || !class_code) return;
  const auto kind =
      ClassifyPciDevice(static_cast<uint32_t>(*vendor), static_cast<uint32_t>(*class_code));
  if (!kind) return;
  PciDevice d;
  d.address = address;
  d.vendor = static_cast<uint32_t>(*vendor);
  d.device = static_cast<uint32_t>(root.ReadHex(dir + "/device").value_or(0));
  d.class_code = static_cast<uint32_t>(*class_code);
  d.kind = *kind;
  d.numa_node = static_cast<int>(root.ReadInt(dir + "/numa_node").value_or(-1));
  d.local_cpus = ReadCpuList(root, dir + "/local_cpulist");
  std::vector<int> numbers;
  for (const auto& name : root.List(dir + "/msi_irqs")) {
    int n = -1;
    if (ParseNumber(std::string_view(name), &n)) numbers.push_back(n);
  }
  if (numbers.empty()) {
    // Legacy INTx: the one line in `irq` (0 when the device has none).
    if (auto irq = root.ReadInt(dir + "/irq"); irq && *irq > 0) {
      numbers.push_back(static_cast<int>(*irq));
    }
  }
  std::sort(numbers.begin(), numbers.end());
  for (int n : numbers) {
    Irq irq;
    irq.number = n;
    irq.affinity = ReadCpuList(root, fmt::format("/proc/irq/{}/smp_affinity_list", n));
    if (auto it = interrupts.find(n); it != interrupts.end()) {
      irq.name = it->second.name;
      irq.serving_cpus = it->second.serving_cpus;
      irq.count = it->second.count;
    }
    d.irqs.push_back(std::move(irq));
  }
  if (d.kind == DeviceKind::kNvidiaGpu) {
    if (auto info = root.Read("/proc/driver/nvidia/gpus/" + address + "/information")) {
      d.driver_info = true;
      d.model = InfoField(*info, "Model");
      d.uuid = InfoField(*info, "GPU UUID");
    }
  }
  if (d.kind == DeviceKind::kNic) {
    for (const auto& name : root.List(dir + "/net")) {
      if (!d.net_names.empty()) d.net_names += ',';
      d.net_names += name;
    }
  }
  out->push_back(std::move(d));
}

}  // namespace

std::string_view DeviceKindName(DeviceKind kind) {
  switch (kind) {
    case DeviceKind::kNvidiaGpu:
      return "nvidia_gpu";
    case DeviceKind::kAscendNpu:
      return "ascend_npu";
    case DeviceKind::kNic:
      return "nic";
  }
  return "nic";
}

std::optional<DeviceKind> ClassifyPciDevice(uint32_t vendor, uint32_t class_code) {
  const uint32_t class_subclass = (class_code >> 8) & 0xffff;
  for (const auto& row : kPciKinds) {
    if ((row.vendor == 0 || row.vendor == vendor) && row.class_subclass == class_subclass) {
      return row.kind;
    }
  }
  return std::nullopt;
}

std::vector<int> HostTopology::OnlineCpuIds() const {
  std::vector<int> ids;
  ids.reserve(cpus.size());
  for (const auto& c : cpus) ids.push_back(c.id);
  return ids;
}

const Cpu* HostTopology::FindCpu(int id) const {
  auto it =
      std::lower_bound(cpus.begin(), cpus.end(), id, [](const Cpu& c, int v) { return c.id < v; });
  return it != cpus.end() && it->id == id ? &*it : nullptr;
}

const NumaNode* HostTopology::FindNode(int id) const {
  for (const auto& n : nodes) {
    if (n.id == id) return &n;
  }
  return nullptr;
}

std::vector<const PciDevice*> HostTopology::Accelerators(DeviceKind kind) const {
  std::vector<const PciDevice*> out;
  for (const auto& d : devices) {
    if (d.kind == kind) out.push_back(&d);
  }
  return out;
}

std::vector<const PciDevice*> HostTopology::Accelerators() const {
  auto gpus = Accelerators(DeviceKind::kNvidiaGpu);
  return gpus.empty() ? Accelerators(DeviceKind::kAscendNpu) : gpus;
}

bool HostTopology::HasAscend() const {
  return !davinci.empty() || !Accelerators(DeviceKind::kAscendNpu).empty();
}

bool HostTopology::HasNvidia() const {
  return !Accelerators(DeviceKind::kNvidiaGpu).empty();
}

HostTopology ReadSysfsTopology(const SysRoot& root) {
  HostTopology t;
  t.source = "sysfs";
  std::vector<int> online;
  if (auto ids = ReadCpuList(root, "/sys/devices/system/cpu/online")) {
    online = *ids;
  } else {
    for (const auto& name : root.List("/sys/devices/system/cpu")) {
      if (int n = NumberedName(name, "cpu"); n >= 0) online.push_back(n);
    }
    std::sort(online.begin(), online.end());
  }
  for (int id : online) {
    Cpu c;
    c.id = id;
    const std::string dir = fmt::format("/sys/devices/system/cpu/cpu{}/topology", id);
    c.package = static_cast<int>(root.ReadInt(dir + "/physical_package_id").value_or(-1));
    c.core = static_cast<int>(root.ReadInt(dir + "/core_id").value_or(-1));
    c.siblings = ReadCpuList(root, dir + "/thread_siblings_list").value_or(std::vector<int>{id});
    t.cpus.push_back(std::move(c));
  }
  std::vector<int> node_ids;
  for (const auto& name : root.List("/sys/devices/system/node")) {
    if (int n = NumberedName(name, "node"); n >= 0) node_ids.push_back(n);
  }
  std::sort(node_ids.begin(), node_ids.end());
  for (int id : node_ids) {
    NumaNode n;
    n.id = id;
    const std::string dir = fmt::format("/sys/devices/system/node/node{}", id);
    n.cpus = Intersect(ReadCpuList(root, dir + "/cpulist").value_or(std::vector<int>{}), online);
    if (auto meminfo = root.Read(dir + "/meminfo")) {
      // "Node 0 MemTotal:       263921152 kB"
      const size_t at = meminfo->find("MemTotal:");
      if (at != std::string::npos) {
        const auto tokens = Tokens(std::string_view(*meminfo).substr(at + 9, 40));
        int64_t kb = 0;
        if (!tokens.empty() && ParseNumber(tokens[0], &kb)) n.mem_total_kb = kb;
      }
    }
    for (int cpu : n.cpus) {
      for (auto& c : t.cpus) {
        if (c.id == cpu) c.node = id;
      }
    }
    t.nodes.push_back(std::move(n));
  }
  const auto interrupts = ReadInterrupts(root);
  for (const auto& address : root.List("/sys/bus/pci/devices")) {
    ReadDevice(root, address, interrupts, &t.devices);
  }
  for (const auto& name : root.List("/dev")) {
    if (int n = NumberedName(name, "davinci"); n >= 0) t.davinci.push_back(n);
  }
  std::sort(t.davinci.begin(), t.davinci.end());

  t.allowed_cpus = online;
  if (root.live()) {
    // CPU_ALLOC: a fixed cpu_set_t holds 1024 CPUs, fewer than large hosts have.
    const int max_cpu = online.empty() ? 0 : online.back();
    cpu_set_t* set = CPU_ALLOC(max_cpu + 1);
    const size_t bytes = CPU_ALLOC_SIZE(max_cpu + 1);
    if (set != nullptr && sched_getaffinity(0, bytes, set) == 0) {
      std::vector<int> allowed;
      for (int id : online) {
        if (CPU_ISSET_S(id, bytes, set)) allowed.push_back(id);
      }
      if (!allowed.empty()) t.allowed_cpus = allowed;
    }
    if (set != nullptr) CPU_FREE(set);
  } else if (auto status = root.Read("/proc/self/status")) {
    const size_t at = status->find("Cpus_allowed_list:");
    if (at != std::string::npos) {
      std::string_view line = std::string_view(*status).substr(at + 18);
      line = line.substr(0, line.find('\n'));
      if (auto ids = ParseCpuList(line); ids.ok() && !Intersect(*ids, online).empty()) {
        t.allowed_cpus = Intersect(*ids, online);
      }
    }
  }
  return t;
}

std::optional<std::vector<int>> DeviceCpus(const HostTopology& topology, const PciDevice& device) {
  if (const NumaNode* node = topology.FindNode(device.numa_node); node && !node->cpus.empty()) {
    return node->cpus;
  }
  if (device.local_cpus && !device.local_cpus->empty()) {
    return Intersect(*device.local_cpus, topology.OnlineCpuIds());
  }
  return std::nullopt;
}

}  // namespace perfdx::host
