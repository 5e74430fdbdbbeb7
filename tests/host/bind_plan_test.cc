// Binding plans on the fixture trees; each expected CPU list is worked out by
// hand from the machine's layout (tests/data/host/README.md).
#include "perfdx/host/bind_plan.h"

#include <gtest/gtest.h>

#include "host_fixtures.h"
#include "perfdx/host/cpu_list.h"

namespace perfdx::host {
namespace {

const HostTopology& Kunpeng() {
  static const HostTopology t = ReadSysfsTopology(SysRoot(FixturePath("kunpeng920_8npu")));
  return t;
}
const HostTopology& X86() {
  static const HostTopology t = ReadSysfsTopology(SysRoot(FixturePath("x86_8gpu_mlx")));
  return t;
}
const HostTopology& Workstation() {
  static const HostTopology t = ReadSysfsTopology(SysRoot(FixturePath("workstation_1gpu")));
  return t;
}

BindPlan Plan(const HostTopology& t, int nproc, BindPolicy policy,
              std::map<std::string, std::string> env = {}) {
  BindRequest request;
  request.nproc = nproc;
  request.policy = policy;
  request.env = std::move(env);
  auto plan = MakeBindPlan(t, request);
  EXPECT_TRUE(plan.ok()) << plan.status().message();
  return plan.ok() ? *plan : BindPlan{};
}

std::vector<std::string> CpuLists(const BindPlan& plan) {
  std::vector<std::string> out;
  for (const auto& r : plan.ranks) out.push_back(FormatCpuList(r.cpus));
  return out;
}

// Kunpeng: 4 nodes of 32 cores, NPUs 2 per node: 16 cores per rank.
TEST(HostBindPlan, KunpengCoresSplitsEachNodeBetweenItsTwoNpus) {
  const BindPlan plan = Plan(Kunpeng(), 8, BindPolicy::kCores);
  EXPECT_FALSE(plan.fallback);
  EXPECT_EQ(plan.visible_variable, "ASCEND_RT_VISIBLE_DEVICES");
  EXPECT_EQ(CpuLists(plan), (std::vector<std::string>{"0-15", "16-31", "32-47", "48-63", "64-79",
                                                      "80-95", "96-111", "112-127"}));
  for (const auto& r : plan.ranks) {
    EXPECT_EQ(r.mem_node, r.local_rank / 2);
    EXPECT_EQ(r.device_index, r.local_rank);
  }
  EXPECT_EQ(plan.ranks[6].device->address, "0000:c1:00.0");
  EXPECT_EQ(CpuAffinityConf(plan),
            "CPU_AFFINITY_CONF=1,npu0:0-15,npu1:16-31,npu2:32-47,npu3:48-63,npu4:64-79,"
            "npu5:80-95,npu6:96-111,npu7:112-127");
  EXPECT_EQ(TasksetLine(plan.ranks[3]), "taskset -c 48-63 CMD");
  EXPECT_EQ(NumactlLine(plan.ranks[3], false), "numactl --physcpubind=48-63 --preferred=1 CMD");
  EXPECT_EQ(NumactlLine(plan.ranks[3], true), "numactl --physcpubind=48-63 --membind=1 CMD");
}

TEST(HostBindPlan, KunpengSplitKeepsTheFirstCoreForTheMainThread) {
  const BindPlan plan = Plan(Kunpeng(), 8, BindPolicy::kSplit);
  EXPECT_EQ(FormatCpuList(plan.ranks[5].cpus), "80-95");
  EXPECT_EQ(FormatCpuList(plan.ranks[5].main_cpus), "80");
  EXPECT_EQ(FormatCpuList(plan.ranks[5].worker_cpus), "81-95");
  EXPECT_EQ(CpuAffinityConf(plan),
            "CPU_AFFINITY_CONF=2,npu0:0-15,npu1:16-31,npu2:32-47,npu3:48-63,npu4:64-79,"
            "npu5:80-95,npu6:96-111,npu7:112-127");
}

TEST(HostBindPlan, KunpengNumaGivesTheWholeNode) {
  const BindPlan plan = Plan(Kunpeng(), 8, BindPolicy::kNuma);
  EXPECT_EQ(CpuLists(plan), (std::vector<std::string>{"0-31", "0-31", "32-63", "32-63", "64-95",
                                                      "64-95", "96-127", "96-127"}));
  EXPECT_EQ(CpuAffinityConf(plan),
            "CPU_AFFINITY_CONF=1,npu0:0-31,npu1:0-31,npu2:32-63,npu3:32-63,npu4:64-95,"
            "npu5:64-95,npu6:96-127,npu7:96-127");
}

TEST(HostBindPlan, KunpengVisibleDevicesPickAndOrderTheNpus) {
  // NPUs 4-7 sit on nodes 2 and 3; their logical numbers are 0-3.
  const BindPlan plan =
      Plan(Kunpeng(), 4, BindPolicy::kCores, {{"ASCEND_RT_VISIBLE_DEVICES", "4,5,6,7"}});
  EXPECT_EQ(CpuLists(plan), (std::vector<std::string>{"64-79", "80-95", "96-111", "112-127"}));
  EXPECT_EQ(plan.ranks[0].device->address, "0000:81:00.0");
  EXPECT_EQ(plan.ranks[0].device_index, 0);
  EXPECT_EQ(CpuAffinityConf(plan),
            "CPU_AFFINITY_CONF=1,npu0:64-79,npu1:80-95,npu2:96-111,npu3:112-127");
  // Reversed: rank 0 drives NPU 7 (node 3), alone there with rank 1 (NPU 6).
  const BindPlan reversed =
      Plan(Kunpeng(), 2, BindPolicy::kCores, {{"ASCEND_RT_VISIBLE_DEVICES", "7,6"}});
  EXPECT_EQ(CpuLists(reversed), (std::vector<std::string>{"96-111", "112-127"}));
  EXPECT_EQ(reversed.ranks[0].device->address, "0000:c2:00.0");
}

TEST(HostBindPlan, KunpengTwoRanksPerNpuShareTheNodeInRankOrder) {
  // 16 ranks on 8 NPUs: rank r drives NPU r mod 8; node 0 holds ranks 0, 1, 8, 9.
  const BindPlan plan = Plan(Kunpeng(), 16, BindPolicy::kCores);
  EXPECT_EQ(FormatCpuList(plan.ranks[0].cpus), "0-7");
  EXPECT_EQ(FormatCpuList(plan.ranks[1].cpus), "8-15");
  EXPECT_EQ(FormatCpuList(plan.ranks[8].cpus), "16-23");
  EXPECT_EQ(FormatCpuList(plan.ranks[9].cpus), "24-31");
  EXPECT_EQ(plan.ranks[9].device_index, 1);
  EXPECT_FALSE(plan.notes.empty());
}

// x86: 2 nodes of 32 cores (64 SMT CPUs), 4 GPUs per node: 8 cores per rank,
// each core with its sibling (i, i+64).
TEST(HostBindPlan, X86CoresKeepSmtSiblingsTogether) {
  const BindPlan plan = Plan(X86(), 8, BindPolicy::kCores);
  EXPECT_EQ(plan.visible_variable, "CUDA_VISIBLE_DEVICES");
  EXPECT_EQ(CpuLists(plan),
            (std::vector<std::string>{"0-7,64-71", "8-15,72-79", "16-23,80-87", "24-31,88-95",
                                      "32-39,96-103", "40-47,104-111", "48-55,112-119",
                                      "56-63,120-127"}));
  EXPECT_EQ(plan.ranks[4].mem_node, 1);
  EXPECT_EQ(CpuAffinityConf(plan), "");  // torch_npu's variable: not for NVIDIA
  const BindPlan split = Plan(X86(), 8, BindPolicy::kSplit);
  EXPECT_EQ(FormatCpuList(split.ranks[1].main_cpus), "8,72");
  EXPECT_EQ(FormatCpuList(split.ranks[1].worker_cpus), "9-15,73-79");
}

TEST(HostBindPlan, X86VisibleDevicesByUuidAndIndex) {
  // GPU 5 (0000:90:00.0, node 1) by UUID, then GPU 0 (node 0): each alone on its node.
  const BindPlan plan =
      Plan(X86(), 2, BindPolicy::kCores,
           {{"CUDA_VISIBLE_DEVICES", "GPU-4f7cb5a4-1bd8-7e3b-2a3f-2e84e1f0a3c5,0"},
            {"CUDA_DEVICE_ORDER", "PCI_BUS_ID"}});
  EXPECT_EQ(plan.ranks[0].device->address, "0000:90:00.0");
  EXPECT_EQ(CpuLists(plan), (std::vector<std::string>{"32-63,96-127", "0-31,64-95"}));
  EXPECT_EQ(plan.ranks[0].mem_node, 1);
  EXPECT_TRUE(plan.notes.empty());  // PCI_BUS_ID: nothing assumed
}

TEST(HostBindPlan, X86BadVisibleDevicesAreErrors) {
  BindRequest request;
  request.nproc = 1;
  for (const char* bad : {"8", "GPU-ffff", "MIG-4f7cb5a4-1bd8-7e3b-2a3f-2e84e1f0a3c1", "x"}) {
    request.env = {{"CUDA_VISIBLE_DEVICES", bad}};
    auto plan = MakeBindPlan(X86(), request);
    ASSERT_FALSE(plan.ok()) << bad;
    EXPECT_EQ(plan.status().code(), StatusCode::kInvalidInput);
    EXPECT_NE(plan.status().message().find("CUDA_VISIBLE_DEVICES"), std::string::npos);
  }
}

TEST(HostBindPlan, X86NoVisibleDeviceFallsBackToAnEvenSplit) {
  // 64 cores in order of their first CPU: rank 0 gets cores 0-31 (node 0).
  const BindPlan plan = Plan(X86(), 2, BindPolicy::kCores, {{"CUDA_VISIBLE_DEVICES", ""}});
  EXPECT_TRUE(plan.fallback);
  EXPECT_EQ(CpuLists(plan), (std::vector<std::string>{"0-31,64-95", "32-63,96-127"}));
  EXPECT_EQ(plan.ranks[0].mem_node, 0);
  EXPECT_EQ(plan.ranks[1].mem_node, 1);
  EXPECT_EQ(plan.ranks[0].device, nullptr);
}

// Workstation: one node, the GPU's numa_node is -1 (as on every one-node
// machine); two ranks on the one GPU split its 16 cores.
TEST(HostBindPlan, WorkstationOneNodeOneGpu) {
  const BindPlan one = Plan(Workstation(), 1, BindPolicy::kCores);
  EXPECT_EQ(FormatCpuList(one.ranks[0].cpus), "0-31");
  EXPECT_EQ(one.ranks[0].mem_node, 0);
  const BindPlan two = Plan(Workstation(), 2, BindPolicy::kCores);
  EXPECT_EQ(CpuLists(two), (std::vector<std::string>{"0-7,16-23", "8-15,24-31"}));
  EXPECT_EQ(two.ranks[1].device_index, 0);
}

TEST(HostBindPlan, MoreRanksThanCoresShareCores) {
  // 40 ranks on the workstation's 16 cores (no accelerator visible).
  const BindPlan plan = Plan(Workstation(), 40, BindPolicy::kCores, {{"CUDA_VISIBLE_DEVICES", ""}});
  EXPECT_EQ(FormatCpuList(plan.ranks[0].cpus), "0,16");
  EXPECT_EQ(FormatCpuList(plan.ranks[16].cpus), "0,16");
  EXPECT_EQ(FormatCpuList(plan.ranks[17].cpus), "1,17");
}

TEST(HostBindPlan, RefusesNoRanksAndNoCpus) {
  BindRequest request;
  request.nproc = 0;
  EXPECT_FALSE(MakeBindPlan(X86(), request).ok());
  request.nproc = 1;
  EXPECT_FALSE(MakeBindPlan(HostTopology{}, request).ok());
}

}  // namespace
}  // namespace perfdx::host
