// numa.*, mm.*, mem.*: NUMA nodes and their memory, automatic NUMA
// balancing, transparent huge pages, memory and swap.
#include <charconv>
#include <string_view>

#include <fmt/format.h>

#include "perfdx/host/cpu_list.h"
#include "perfdx/host/doctor_checks.h"

namespace perfdx::host::doctor {
namespace {

constexpr const char* kNumaPolicyDoc =
    "https://docs.kernel.org/admin-guide/mm/numa_memory_policy.html";
constexpr const char* kSysctlKernelDoc = "https://docs.kernel.org/admin-guide/sysctl/kernel.html";
constexpr const char* kThpDoc = "https://docs.kernel.org/admin-guide/mm/transhuge.html";
constexpr const char* kProcDoc = "https://docs.kernel.org/filesystems/proc.html";
constexpr const char* kSysctlVmDoc = "https://docs.kernel.org/admin-guide/sysctl/vm.html";

// "MemTotal:       263921152 kB" in /proc/meminfo; -1 when absent.
int64_t MeminfoKb(std::string_view text, std::string_view key) {
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t nl = std::min(text.find('\n', pos), text.size());
    std::string_view line = text.substr(pos, nl - pos);
    pos = nl + 1;
    if (!line.starts_with(key) || line.size() <= key.size() || line[key.size()] != ':') continue;
    line.remove_prefix(key.size() + 1);
    while (!line.empty() && line.front() == ' ') line.remove_prefix(1);
    int64_t v = 0;
    const auto [end, ec] = std::from_chars(line.data(), line.data() + line.size(), v);
    if (ec == std::errc()) return v;
    (void)end;
  }
  return -1;
}

Check NodesCheck(const DoctorInput& in) {
  const auto& nodes = in.topology.nodes;
  if (nodes.empty()) {
    return Unknown("numa.nodes", "NUMA nodes", "no /sys/devices/system/node/node*");
  }
  Check c = MakeCheck("numa.nodes", "NUMA nodes");
  c.level = Level::kInfo;
  c.value = fmt::format("{} node{}", nodes.size(), nodes.size() == 1 ? "" : "s");
  for (const auto& n : nodes) {
    c.value +=
        fmt::format("; node{}: CPUs {}, {}", n.id, n.cpus.empty() ? "none" : FormatCpuList(n.cpus),
                    n.mem_total_kb < 0 ? "memory unknown" : GiB(n.mem_total_kb));
  }
  c.why =
      "memory on another node costs a hop across the socket interconnect; each accelerator sits "
      "on one node, and its rank's CPUs and memory belong there";
  c.source = kNumaPolicyDoc;
  return c;
}

Check BalancingCheck(const DoctorInput& in) {
  const auto v = in.root.ReadInt("/proc/sys/kernel/numa_balancing");
  if (!v) {
    return Unknown("numa.balancing", "automatic NUMA balancing",
                   "no /proc/sys/kernel/numa_balancing (a kernel without it)");
  }
  Check c = MakeCheck("numa.balancing", "automatic NUMA balancing");
  c.value = fmt::format("{} ({})", *v, *v == 0 ? "off" : "on");
  c.recommended = "0 with ranks bound to their nodes (perfdx bind)";
  c.source = kSysctlKernelDoc;
  c.why =
      "automatic NUMA balancing unmaps pages to sample where they are used and migrates them: "
      "page faults and copies a bound rank does not need";
  if (*v == 0) {
    c.level = Level::kOk;
  } else if (in.topology.nodes.size() <= 1) {
    c.level = Level::kOk;
    c.why = "one NUMA node: balancing has nothing to move";
  } else {
    c.level = Level::kWarning;
    c.fix = "sudo sysctl -w kernel.numa_balancing=0";
  }
  return c;
}

Check ThpCheck(const DoctorInput& in) {
  auto line = in.root.ReadLine("/sys/kernel/mm/transparent_hugepage/enabled");
  if (!line) {
    return Unknown("mm.thp", "transparent huge pages",
                   "no /sys/kernel/mm/transparent_hugepage/enabled");
  }
  // "always [madvise] never": the bracketed word is the setting.
  std::string mode = *line;
  const size_t open = line->find('[');
  const size_t close = line->find(']');
  if (open != std::string::npos && close != std::string::npos && close > open) {
    mode = line->substr(open + 1, close - open - 1);
  }
  Check c = MakeCheck("mm.thp", "transparent huge pages");
  c.value = mode;
  c.recommended = "madvise or always";
  c.source = kThpDoc;
  c.why =
      "huge pages cut TLB misses on the large host buffers of data loading and pinned "
      "staging memory; 'never' denies them even to allocators that ask (madvise)";
  if (mode == "never") {
    c.level = Level::kInfo;
    c.fix = "echo madvise | sudo tee /sys/kernel/mm/transparent_hugepage/enabled";
  } else {
    c.level = Level::kOk;
  }
  return c;
}

Check MemoryCheck(std::string_view meminfo) {
  const int64_t total = MeminfoKb(meminfo, "MemTotal");
  const int64_t available = MeminfoKb(meminfo, "MemAvailable");
  if (total <= 0) return Unknown("mem.available", "memory", "no MemTotal in /proc/meminfo");
  Check c = MakeCheck("mem.available", "memory");
  c.value = fmt::format("{} total", GiB(total));
  if (available >= 0) c.value += fmt::format(", {} available", GiB(available));
  c.recommended = "at least 10% of memory available";
  c.source = kProcDoc;
  c.why = "MemAvailable estimates what can be allocated without swapping";
  c.level = Level::kOk;
  if (available >= 0 && available * 10 < total) {
    c.level = Level::kWarning;
    c.why +=
        "; under 10% left, page cache for the data set is evicted and allocations stall: find "
        "what holds the memory";
    c.fix = "ps -eo pid,rss,comm --sort=-rss | head";
  }
  return c;
}

Check SwapCheck(std::string_view meminfo) {
  const int64_t total = MeminfoKb(meminfo, "SwapTotal");
  const int64_t free = MeminfoKb(meminfo, "SwapFree");
  if (total < 0 || free < 0) return Unknown("mem.swap", "swap", "no SwapTotal in /proc/meminfo");
  Check c = MakeCheck("mem.swap", "swap");
  c.source = kSysctlVmDoc;
  c.recommended = "no swap in use on a training node";
  if (total == 0) {
    c.level = Level::kOk;
    c.value = "no swap";
    return c;
  }
  const int64_t used = total - free;
  c.value = fmt::format("{} of swap, {} in use", GiB(total), GiB(used));
  if (used > 0) {
    c.level = Level::kInfo;
    c.why =
        "pages are on swap: a rank whose pages were swapped out stalls on each fault; "
        "vm.swappiness sets how readily the kernel swaps";
    c.fix = "sudo sysctl -w vm.swappiness=1";
  } else {
    c.level = Level::kOk;
  }
  return c;
}

}  // namespace

void AddMemoryChecks(const DoctorInput& input, std::vector<Check>* out) {
  out->push_back(NodesCheck(input));
  out->push_back(BalancingCheck(input));
  out->push_back(ThpCheck(input));
  const auto meminfo = input.root.Read("/proc/meminfo");
  if (!meminfo) {
    out->push_back(Unknown("mem.available", "memory", "no /proc/meminfo"));
    out->push_back(Unknown("mem.swap", "swap", "no /proc/meminfo"));
    return;
  }
  out->push_back(MemoryCheck(*meminfo));
  out->push_back(SwapCheck(*meminfo));
}

}  // namespace perfdx::host::doctor
