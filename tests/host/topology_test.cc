// The sysfs reader on the fixture trees (tests/data/host/README.md): every
// expected value is worked out from the machine's description there.
#include "perfdx/host/topology.h"

#include <gtest/gtest.h>

#include "host_fixtures.h"
#include "perfdx/host/cpu_list.h"
#include "perfdx/host/hwloc_topology.h"

namespace perfdx::host {
namespace {

std::vector<int> Range(int first, int last) {
  std::vector<int> v;
  for (int i = first; i <= last; ++i) v.push_back(i);
  return v;
}

std::vector<std::string> Addresses(const std::vector<const PciDevice*>& devices) {
  std::vector<std::string> out;
  for (const auto* d : devices) out.push_back(d->address);
  return out;
}

TEST(HostTopology, ClassifiesPciFunctionsByVendorAndClass) {
  EXPECT_EQ(ClassifyPciDevice(0x10de, 0x030200), DeviceKind::kNvidiaGpu);  // 3D controller
  EXPECT_EQ(ClassifyPciDevice(0x10de, 0x030000), DeviceKind::kNvidiaGpu);  // VGA
  EXPECT_EQ(ClassifyPciDevice(0x19e5, 0x120000), DeviceKind::kAscendNpu);
  EXPECT_EQ(ClassifyPciDevice(0x15b3, 0x020700), DeviceKind::kNic);  // ConnectX, InfiniBand
  EXPECT_EQ(ClassifyPciDevice(0x19e5, 0x020000), DeviceKind::kNic);  // hns3: Huawei, Ethernet
  EXPECT_EQ(ClassifyPciDevice(0x10de, 0x040300), std::nullopt);      // GPU's HDMI audio
  EXPECT_EQ(ClassifyPciDevice(0x10de, 0x068000), std::nullopt);      // NVSwitch
  EXPECT_EQ(ClassifyPciDevice(0x19e5, 0x060400), std::nullopt);      // Huawei root port
  EXPECT_EQ(ClassifyPciDevice(0x1002, 0x030000), std::nullopt);      // another vendor's GPU
}

TEST(HostTopology, Kunpeng920WithEightAscendNpus) {
  const HostTopology t = ReadSysfsTopology(SysRoot(FixturePath("kunpeng920_8npu")));
  ASSERT_EQ(t.cpus.size(), 128u);
  EXPECT_EQ(t.cpus[63].package, 0);
  EXPECT_EQ(t.cpus[64].package, 1);
  EXPECT_EQ(t.cpus[70].siblings, std::vector<int>{70});  // no SMT
  ASSERT_EQ(t.nodes.size(), 4u);
  for (int n = 0; n < 4; ++n) {
    EXPECT_EQ(t.nodes[n].cpus, Range(32 * n, 32 * n + 31)) << n;
    EXPECT_EQ(t.nodes[n].mem_total_kb, 132024320) << n;
  }
  EXPECT_EQ(t.cpus[95].node, 2);
  const auto npus = t.Accelerators(DeviceKind::kAscendNpu);
  EXPECT_EQ(Addresses(npus), (std::vector<std::string>{
                                 "0000:01:00.0", "0000:02:00.0", "0000:41:00.0", "0000:42:00.0",
                                 "0000:81:00.0", "0000:82:00.0", "0000:c1:00.0", "0000:c2:00.0"}));
  for (size_t k = 0; k < npus.size(); ++k) {
    EXPECT_EQ(npus[k]->numa_node, static_cast<int>(k / 2)) << k;
    EXPECT_EQ(npus[k]->device, 0xd801u);
    ASSERT_EQ(npus[k]->irqs.size(), 4u);
    EXPECT_EQ(npus[k]->irqs.front().number, 200 + 4 * static_cast<int>(k));
  }
  // NPU 6 (c1, node 3): its IRQs pinned to node 0's CPUs; NPU 7: every CPU.
  EXPECT_EQ(*npus[6]->irqs[0].affinity, Range(0, 31));
  EXPECT_EQ(*npus[7]->irqs[0].affinity, Range(0, 127));
  EXPECT_EQ(npus[6]->irqs[0].serving_cpus, std::vector<int>{0});
  EXPECT_EQ(npus[6]->irqs[0].count, 1000u + 224u);
  EXPECT_EQ(t.davinci, Range(0, 7));
  EXPECT_TRUE(t.HasAscend());
  EXPECT_FALSE(t.HasNvidia());
  // The hns3 NIC is a NIC, the root port nothing.
  const auto nics = t.Accelerators(DeviceKind::kNic);
  ASSERT_EQ(nics.size(), 1u);
  EXPECT_EQ(nics[0]->address, "0000:7d:00.0");
  EXPECT_EQ(nics[0]->net_names, "enp125s0f0");
  EXPECT_EQ(nics[0]->irqs[1].name, "hns3-0000:7d:00.0-TxRx-1");
  EXPECT_EQ(t.devices.size(), 9u);
  EXPECT_EQ(t.allowed_cpus, Range(0, 127));  // proc/self/status
}

TEST(HostTopology, X86WithEightNvidiaGpusAndConnectX) {
  const HostTopology t = ReadSysfsTopology(SysRoot(FixturePath("x86_8gpu_mlx")));
  ASSERT_EQ(t.cpus.size(), 128u);
  EXPECT_EQ(t.cpus[5].siblings, (std::vector<int>{5, 69}));
  EXPECT_EQ(t.cpus[100].siblings, (std::vector<int>{36, 100}));
  EXPECT_EQ(t.cpus[100].package, 1);
  ASSERT_EQ(t.nodes.size(), 2u);
  std::vector<int> node0 = Range(0, 31);
  for (int i = 64; i <= 95; ++i) node0.push_back(i);
  EXPECT_EQ(t.nodes[0].cpus, node0);
  EXPECT_EQ(t.cpus[70].node, 0);
  EXPECT_EQ(t.cpus[100].node, 1);
  const auto gpus = t.Accelerators(DeviceKind::kNvidiaGpu);
  ASSERT_EQ(gpus.size(), 8u);  // the NVSwitch (class 0x0680) is none of them
  EXPECT_EQ(gpus[4]->address, "0000:87:00.0");
  EXPECT_EQ(gpus[4]->numa_node, 1);
  EXPECT_EQ(gpus[0]->model, "NVIDIA A100-SXM4-80GB");
  EXPECT_EQ(gpus[5]->uuid, "GPU-4f7cb5a4-1bd8-7e3b-2a3f-2e84e1f0a3c5");
  EXPECT_TRUE(gpus[0]->driver_info);
  EXPECT_EQ(gpus[0]->irqs.size(), 1u);
  EXPECT_EQ(gpus[0]->irqs[0].name, "nvidia");
  EXPECT_EQ(gpus[0]->irqs[0].count, 123456u);
  const auto nics = t.Accelerators(DeviceKind::kNic);
  ASSERT_EQ(nics.size(), 4u);
  EXPECT_EQ(nics[3]->address, "0000:ba:00.0");
  EXPECT_EQ(nics[3]->irqs[2].name, "mlx5_comp1@pci:0000:ba:00.0");
  EXPECT_EQ(*nics[3]->irqs[2].affinity, std::vector<int>{2});
}

TEST(HostTopology, OneSocketWorkstation) {
  const HostTopology t = ReadSysfsTopology(SysRoot(FixturePath("workstation_1gpu")));
  ASSERT_EQ(t.cpus.size(), 32u);
  EXPECT_EQ(t.cpus[20].siblings, (std::vector<int>{4, 20}));
  ASSERT_EQ(t.nodes.size(), 1u);
  const auto gpus = t.Accelerators(DeviceKind::kNvidiaGpu);
  ASSERT_EQ(gpus.size(), 1u);  // not its audio function 01:00.1
  EXPECT_EQ(gpus[0]->numa_node, -1);
  EXPECT_EQ(gpus[0]->model, "NVIDIA GeForce RTX 4090");
  // One node: the device's CPUs are the node's.
  EXPECT_EQ(*DeviceCpus(t, *gpus[0]), Range(0, 31));
  EXPECT_EQ(t.Accelerators(DeviceKind::kNic).size(), 1u);
  EXPECT_EQ(t.allowed_cpus, Range(0, 31));  // no proc/self/status: all online CPUs
}

TEST(HostTopology, MissingFilesAreUnknownNeverAnError) {
  const HostTopology t = ReadSysfsTopology(SysRoot("tests/data/host/does-not-exist"));
  EXPECT_TRUE(t.cpus.empty());
  EXPECT_TRUE(t.nodes.empty());
  EXPECT_TRUE(t.devices.empty());
}

// This machine: hwloc and the sysfs reading of / agree on CPUs and nodes.
TEST(HostTopology, HwlocAgreesWithSysfsOnThisMachine) {
  auto live = ReadHwlocTopology();
  ASSERT_TRUE(live.ok()) << live.status().message();
  const HostTopology files = ReadSysfsTopology(SysRoot("/"));
  EXPECT_EQ(live->source, "hwloc");
  // hwloc leaves out CPUs this process may not use; sysfs lists all online.
  EXPECT_EQ(live->OnlineCpuIds(), files.allowed_cpus);
  for (const auto& cpu : live->cpus) {
    const Cpu* other = files.FindCpu(cpu.id);
    ASSERT_NE(other, nullptr) << cpu.id;
    EXPECT_EQ(cpu.package, other->package) << cpu.id;
    EXPECT_EQ(cpu.node, other->node) << cpu.id;
    EXPECT_EQ(cpu.siblings, Intersect(other->siblings, files.allowed_cpus)) << cpu.id;
  }
  ASSERT_EQ(live->nodes.size(), files.nodes.size());
  for (size_t i = 0; i < files.nodes.size(); ++i) {
    EXPECT_EQ(live->nodes[i].id, files.nodes[i].id);
    EXPECT_EQ(live->nodes[i].cpus, Intersect(files.nodes[i].cpus, files.allowed_cpus));
  }
}

}  // namespace
}  // namespace perfdx::host
