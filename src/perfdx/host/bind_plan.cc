#include "perfdx/host/bind_plan.h"

#include <algorithm>
#include <charconv>
#include <set>

#include <fmt/format.h>

#include "perfdx/host/cpu_list.h"

namespace perfdx::host {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// The devices the ranks see, in the order they number them: the visible-
// devices variable's entries (indices in PCI bus order, or NVIDIA GPU UUIDs),
// or every device of the kind when it is unset.
Result<std::vector<int>> VisibleDevices(const std::vector<const PciDevice*>& devices,
                                        const std::string& variable,
                                        const std::map<std::string, std::string>& env,
                                        std::vector<std::string>* notes) {
  std::vector<int> order;
  auto it = env.find(variable);
  if (it == env.end()) {
    for (size_t i = 0; i < devices.size(); ++i) order.push_back(static_cast<int>(i));
    return order;
  }
  std::string_view rest = it->second;
  if (Trim(rest).empty()) {
    notes->push_back(fmt::format("{} is empty: no device is visible", variable));
    return order;
  }
  while (true) {
    const size_t comma = std::min(rest.find(','), rest.size());
    const std::string_view entry = Trim(rest.substr(0, comma));
    int index = -1;
    const auto [end, ec] = std::from_chars(entry.data(), entry.data() + entry.size(), index);
    if (ec == std::errc() && end == entry.data() + entry.size()) {
      if (index < 0 || index >= static_cast<int>(devices.size())) {
        return InvalidInput(fmt::format("{}={}: device {} does not exist ({} on this machine)",
                                        variable, it->second, entry, devices.size()));
      }
    } else if (entry.starts_with("GPU-")) {
      for (size_t i = 0; i < devices.size(); ++i) {
        // CUDA accepts a unique prefix of the UUID.
        if (!devices[i]->uuid.empty() && devices[i]->uuid.starts_with(entry)) {
          index = static_cast<int>(i);
          break;
        }
      }
      if (index < 0) {
        return InvalidInput(
            fmt::format("{}={}: no GPU has the UUID {}", variable, it->second, entry));
      }
    } else {
      return InvalidInput(fmt::format(
          "{}={}: \"{}\" is neither a device index nor a GPU UUID (MIG instances are not "
          "supported)",
          variable, it->second, entry));
    }
    order.push_back(index);
    if (comma >= rest.size()) break;
    rest.remove_prefix(comma + 1);
  }
  return order;
}

// The physical cores among `cpus`: each core's CPUs (its SMT threads),
// ordered by their first id.
std::vector<std::vector<int>> CoresOf(const HostTopology& topology, const std::vector<int>& cpus) {
  std::vector<std::vector<int>> cores;
  std::set<int> seen;
  for (int id : cpus) {
    if (seen.count(id)) continue;
    const Cpu* cpu = topology.FindCpu(id);
    std::vector<int> core = cpu ? Intersect(cpu->siblings, cpus) : std::vector<int>{id};
    if (core.empty() || !std::binary_search(core.begin(), core.end(), id)) core = {id};
    for (int c : core) seen.insert(c);
    cores.push_back(std::move(core));
  }
  std::sort(cores.begin(), cores.end());
  return cores;
}

std::vector<int> Join(const std::vector<std::vector<int>>& cores, size_t first, size_t count) {
  std::vector<int> out;
  for (size_t i = first; i < first + count && i < cores.size(); ++i) {
    out.insert(out.end(), cores[i].begin(), cores[i].end());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The one NUMA node holding all of `cpus`, else -1.
int NodeOf(const HostTopology& topology, const std::vector<int>& cpus) {
  int node = -1;
  for (int id : cpus) {
    const Cpu* cpu = topology.FindCpu(id);
    if (cpu == nullptr || cpu->node < 0 || (node >= 0 && cpu->node != node)) return -1;
    node = cpu->node;
  }
  return node;
}

// Splits a pool of CPUs between the ranks that share it (in rank order).
void SplitPool(const HostTopology& topology, const std::vector<int>& pool,
               const std::vector<int>& ranks, BindPolicy policy, BindPlan* plan) {
  const auto cores = CoresOf(topology, pool);
  const size_t n = cores.size();
  const size_t g = ranks.size();
  if (policy != BindPolicy::kNuma && n < g) {
    plan->notes.push_back(fmt::format("CPUs {}: {} cores for {} ranks; ranks share cores",
                                      FormatCpuList(pool), n, g));
  }
  const size_t base = g == 0 ? 0 : n / g;
  const size_t extra = g == 0 ? 0 : n % g;
  size_t next = 0;
  for (size_t j = 0; j < g; ++j) {
    RankBinding& r = plan->ranks[static_cast<size_t>(ranks[j])];
    std::vector<std::vector<int>> share;
    if (policy == BindPolicy::kNuma) {
      share = cores;
    } else if (n < g) {
      share = {cores[j % n]};
    } else {
      const size_t count = base + (j < extra ? 1 : 0);
      share.assign(cores.begin() + static_cast<std::ptrdiff_t>(next),
                   cores.begin() + static_cast<std::ptrdiff_t>(next + count));
      next += count;
    }
    r.cpus = Join(share, 0, share.size());
    if (policy == BindPolicy::kSplit) {
      r.main_cpus = share.front();
      r.worker_cpus = share.size() > 1 ? Join(share, 1, share.size() - 1) : share.front();
    }
  }
  if (policy == BindPolicy::kSplit && n <= g) {
    plan->notes.push_back(
        "a rank with a single core has no worker cores apart from its main thread's core");
  }
}

}  // namespace

std::string_view BindPolicyName(BindPolicy policy) {
  switch (policy) {
    case BindPolicy::kNuma:
      return "numa";
    case BindPolicy::kCores:
      return "cores";
    case BindPolicy::kSplit:
      return "split";
  }
  return "cores";
}

Result<BindPlan> MakeBindPlan(const HostTopology& topology, const BindRequest& request) {
  if (request.nproc < 1) return InvalidInput("--nproc-per-node must be at least 1");
  BindPlan plan;
  plan.policy = request.policy;
  plan.membind = request.membind;
  const std::vector<int> allowed = topology.allowed_cpus;
  if (allowed.empty()) return InvalidInput("no CPU found that this process may run on");
  plan.ranks.resize(static_cast<size_t>(request.nproc));
  for (int i = 0; i < request.nproc; ++i) plan.ranks[static_cast<size_t>(i)].local_rank = i;

  const auto devices = topology.Accelerators();
  std::vector<int> visible;
  if (!devices.empty()) {
    const bool nvidia = devices.front()->kind == DeviceKind::kNvidiaGpu;
    plan.visible_variable = nvidia ? "CUDA_VISIBLE_DEVICES" : "ASCEND_RT_VISIBLE_DEVICES";
    PERFDX_ASSIGN_OR_RETURN(
        visible, VisibleDevices(devices, plan.visible_variable, request.env, &plan.notes));
    if (nvidia) {
      auto order = request.env.find("CUDA_DEVICE_ORDER");
      if (order == request.env.end() || order->second != "PCI_BUS_ID") {
        plan.notes.push_back(
            "devices are matched in PCI bus order; CUDA numbers them fastest first unless "
            "CUDA_DEVICE_ORDER=PCI_BUS_ID (the same order on a machine of identical GPUs)");
      }
    }
  }

  if (visible.empty()) {
    plan.fallback = true;
    plan.notes.push_back(fmt::format(
        "no accelerator {}: the {} CPUs this process may use are split evenly by local rank",
        devices.empty() ? "found" : "visible", allowed.size()));
    std::vector<int> ranks(static_cast<size_t>(request.nproc));
    for (int i = 0; i < request.nproc; ++i) ranks[static_cast<size_t>(i)] = i;
    SplitPool(topology, allowed, ranks,
              request.policy == BindPolicy::kNuma ? BindPolicy::kCores : request.policy, &plan);
    if (request.policy == BindPolicy::kNuma) {
      plan.notes.push_back("without an accelerator, --policy numa splits cores as --policy cores");
    }
    for (auto& r : plan.ranks) r.mem_node = NodeOf(topology, r.cpus);
    return plan;
  }

  if (request.nproc > static_cast<int>(visible.size())) {
    plan.notes.push_back(
        fmt::format("{} ranks on {} visible devices: rank N drives device N mod {}", request.nproc,
                    visible.size(), visible.size()));
  }
  // Ranks grouped by the CPUs of their device's node: the ranks of one node
  // split its cores.
  std::map<std::vector<int>, std::vector<int>> groups;
  for (auto& r : plan.ranks) {
    r.device_index = r.local_rank % static_cast<int>(visible.size());
    r.device = devices[static_cast<size_t>(visible[static_cast<size_t>(r.device_index)])];
    std::vector<int> pool;
    if (auto cpus = DeviceCpus(topology, *r.device)) pool = Intersect(*cpus, allowed);
    if (pool.empty()) {
      plan.notes.push_back(fmt::format(
          "{}: its NUMA node's CPUs are unknown or not allowed to this process; rank {} uses "
          "all allowed CPUs",
          r.device->address, r.local_rank));
      pool = allowed;
    }
    groups[pool].push_back(r.local_rank);
  }
  for (const auto& [pool, ranks] : groups) SplitPool(topology, pool, ranks, request.policy, &plan);
  for (auto& r : plan.ranks) {
    int node = r.device->numa_node;
    if (node < 0 && topology.nodes.size() == 1) node = topology.nodes.front().id;  // one node: -1
    const NumaNode* n = topology.FindNode(node);
    if (n == nullptr) {
      plan.notes.push_back(fmt::format(
          "{}: the firmware reports no NUMA node (numa_node -1); rank {} gets no memory policy",
          r.device->address, r.local_rank));
      continue;
    }
    if (n->mem_total_kb == 0) {
      plan.notes.push_back(
          fmt::format("node {} has no memory; rank {} gets no memory policy", node, r.local_rank));
      continue;
    }
    r.mem_node = node;
  }
  return plan;
}

std::string TasksetLine(const RankBinding& rank) {
  return fmt::format("taskset -c {} CMD", FormatCpuList(rank.cpus));
}

std::string NumactlLine(const RankBinding& rank, bool membind) {
  if (rank.mem_node < 0)
    return fmt::format("numactl --physcpubind={} CMD", FormatCpuList(rank.cpus));
  return fmt::format("numactl --physcpubind={} --{}={} CMD", FormatCpuList(rank.cpus),
                     membind ? "membind" : "preferred", rank.mem_node);
}

std::string CpuAffinityConf(const BindPlan& plan) {
  if (plan.fallback || plan.ranks.empty() || plan.ranks.front().device == nullptr ||
      plan.ranks.front().device->kind != DeviceKind::kAscendNpu) {
    return {};
  }
  // Mode 2 keeps torch_npu's hot threads on the first cores of each range,
  // the rest for other threads; mode 1 binds the process to the range.
  std::string line = fmt::format("CPU_AFFINITY_CONF={}", plan.policy == BindPolicy::kSplit ? 2 : 1);
  std::set<int> written;
  for (const auto& r : plan.ranks) {
    if (!written.insert(r.device_index).second) continue;
    // npuN:a-b takes one closed range of CPU ids.
    if (!IsContiguous(r.cpus))
      return fmt::format("CPU_AFFINITY_CONF={}", plan.policy == BindPolicy::kSplit ? 2 : 1);
    line += fmt::format(",npu{}:{}-{}", r.device_index, r.cpus.front(), r.cpus.back());
  }
  return line;
}

}  // namespace perfdx::host
