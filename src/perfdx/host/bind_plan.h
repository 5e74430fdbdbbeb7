// perfdx bind's plan: for each local rank, the accelerator it drives, the
// CPUs it may run on and its memory policy (docs/host.md, "Binding"). A pure
// function of the topology and the request: bind_apply.h applies one rank's.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "perfdx/base/status.h"
#include "perfdx/host/topology.h"

namespace perfdx::host {

enum class BindPolicy {
  kNuma,   // every CPU of the accelerator's NUMA node (numactl --cpunodebind)
  kCores,  // the node's physical cores split between the ranks on that node
  kSplit,  // as cores, the first core of each share kept for the main thread
};
std::string_view BindPolicyName(BindPolicy policy);

struct BindRequest {
  int nproc = 1;  // ranks on this machine (--nproc-per-node)
  BindPolicy policy = BindPolicy::kCores;
  bool membind = false;  // MPOL_BIND (strict) instead of MPOL_PREFERRED
  // The environment the ranks start in: CUDA_VISIBLE_DEVICES /
  // ASCEND_RT_VISIBLE_DEVICES pick and order the devices.
  std::map<std::string, std::string> env;
};

struct RankBinding {
  int local_rank = 0;
  int device_index = -1;  // the device's index in visible order (what torch calls it); -1 none
  const PciDevice* device = nullptr;  // into the topology; nullptr in the fallback
  std::vector<int> cpus;              // the affinity the rank starts with
  std::vector<int> main_cpus;         // split: the main thread's core (its SMT threads)
  std::vector<int> worker_cpus;       // split: the rest
  int mem_node = -1;                  // the memory policy's node; -1: no memory policy
};

struct BindPlan {
  BindPolicy policy = BindPolicy::kCores;
  bool membind = false;
  bool fallback = false;           // no accelerator: the machine's cores split by rank
  std::string visible_variable;    // "CUDA_VISIBLE_DEVICES", "ASCEND_RT_VISIBLE_DEVICES" or ""
  std::vector<std::string> notes;  // what the plan had to assume, one sentence each
  std::vector<RankBinding> ranks;  // one per local rank, 0..nproc-1
};

// Errors (kInvalidInput): nproc < 1, a visible-devices entry that names no
// device, no CPU this process may use.
Result<BindPlan> MakeBindPlan(const HostTopology& topology, const BindRequest& request);

// The equivalent command lines for one rank (docs/host.md): taskset,
// numactl; and for the whole job torch_npu's CPU_AFFINITY_CONF ("" when
// the plan's ranges cannot be written in it).
std::string TasksetLine(const RankBinding& rank);
std::string NumactlLine(const RankBinding& rank, bool membind);
std::string CpuAffinityConf(const BindPlan& plan);

// perfdx bind --print renders the plan: report/bind_plan_report.h.

}  // namespace perfdx::host
