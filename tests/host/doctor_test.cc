// perfdx doctor on the fixture trees (tests/data/host/README.md) and on this
// machine. Each level and value is worked out by hand from the machine's
// description; the environment is given, never this process's.
#include "perfdx/host/doctor.h"

#include <gtest/gtest.h>

#include "host_fixtures.h"

namespace perfdx::host {
namespace {

DoctorReport Doctor(const std::string& machine, std::map<std::string, std::string> env = {}) {
  if (!env.count("PATH")) env["PATH"] = "/usr/local/bin:/usr/bin:/bin";
  return RunDoctor(MakeDoctorInput(SysRoot(FixturePath(machine)), std::move(env)));
}

const Check& Find(const DoctorReport& report, const std::string& id) {
  for (const auto& c : report.checks) {
    if (c.id == id) return c;
  }
  static const Check kMissing{"missing"};
  ADD_FAILURE() << "no check " << id;
  return kMissing;
}

bool Has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(HostDoctor, ParsesProcSelfLimits) {
  const auto limits = ParseProcLimits(
      "Limit                     Soft Limit           Hard Limit           Units     \n"
      "Max open files            1024                 524288               files     \n"
      "Max locked memory         8388608              unlimited            bytes     \n");
  ASSERT_TRUE(limits.has_value());
  EXPECT_EQ(limits->nofile_soft, 1024);
  EXPECT_EQ(limits->nofile_hard, 524288);
  EXPECT_EQ(limits->memlock_soft, 8388608);
  EXPECT_EQ(limits->memlock_hard, -1);
  EXPECT_FALSE(ParseProcLimits("Max open files  many  1024  files\n").has_value());
  EXPECT_FALSE(ParseProcLimits("").has_value());
}

TEST(HostDoctor, KunpengHost) {
  const DoctorReport r = Doctor("kunpeng920_8npu");
  EXPECT_EQ(Find(r, "cpu.model").value, "HiSilicon Kunpeng 920 (TaiShan v110)");
  EXPECT_EQ(Find(r, "cpu.topology").value, "2 packages, 128 cores, 128 CPUs online (0-127)");
  EXPECT_EQ(Find(r, "cpu.smt").value, "off");
  const Check& governor = Find(r, "cpu.governor");
  EXPECT_EQ(governor.level, Level::kWarning);
  EXPECT_TRUE(Has(governor.value, "ondemand on 128 of 128 CPUs")) << governor.value;
  EXPECT_EQ(governor.fix,
            "echo performance | sudo tee /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor");
  EXPECT_EQ(Find(r, "cpu.frequency").level, Level::kInfo);  // not capped
  EXPECT_EQ(Find(r, "cpu.isolated").value, "none");
  EXPECT_EQ(Find(r, "cpu.nohz_full").value, "none");  // "(null)"
  EXPECT_EQ(Find(r, "numa.balancing").level, Level::kWarning);
  EXPECT_EQ(Find(r, "numa.balancing").fix, "sudo sysctl -w kernel.numa_balancing=0");
  EXPECT_EQ(Find(r, "mm.thp").value, "always");
  EXPECT_EQ(Find(r, "mm.thp").level, Level::kOk);
  EXPECT_EQ(Find(r, "mem.swap").value, "no swap");
  EXPECT_TRUE(Has(Find(r, "accel.0000:c1:00.0").value,
                  "6 Ascend 910 at 0000:c1:00.0, NUMA node 3, local CPUs 96-127"));
  EXPECT_EQ(Find(r, "accel.ascend_driver").level, Level::kOk);
  // IRQs: NPU 6's on node 0 (warning), NPU 7's on every CPU (info), NPU 0's
  // on CPU 0, rank 0's main-thread core under --policy split (info).
  const Check& c1 = Find(r, "irq.0000:c1:00.0");
  EXPECT_EQ(c1.level, Level::kWarning);
  EXPECT_EQ(c1.fix,
            "for irq in 224 225 226 227; do echo 96-127 | sudo tee "
            "/proc/irq/$irq/smp_affinity_list; done");
  EXPECT_EQ(Find(r, "irq.0000:c2:00.0").level, Level::kInfo);
  EXPECT_TRUE(Has(Find(r, "irq.0000:c2:00.0").value, "4 spread beyond it"));
  EXPECT_EQ(Find(r, "irq.0000:01:00.0").level, Level::kInfo);
  EXPECT_TRUE(Has(Find(r, "irq.0000:01:00.0").value, "IRQs 200-203 on CPU 0 (rank 0)"));
  EXPECT_EQ(Find(r, "irq.0000:41:00.0").level, Level::kInfo);  // CPU 32: rank 2's main core
  EXPECT_EQ(Find(r, "irq.0000:7d:00.0").level, Level::kOk);    // hns3 on CPUs 10-13
  EXPECT_EQ(Find(r, "ulimit.memlock").level, Level::kWarning);
  EXPECT_EQ(Find(r, "ulimit.memlock").value, "64 KiB (hard 64 KiB)");
  const Check& nofile = Find(r, "ulimit.nofile");
  EXPECT_EQ(nofile.level, Level::kWarning);
  EXPECT_EQ(nofile.fix, "echo '* - nofile 65536' | sudo tee -a /etc/security/limits.conf");
  EXPECT_EQ(Find(r, "tool.npu-smi").value, "/usr/local/bin/npu-smi");
  EXPECT_EQ(Find(r, "tool.numactl").level, Level::kInfo);  // 4 nodes, no numactl
  EXPECT_EQ(Find(r, "env.TASK_QUEUE_ENABLE").level, Level::kInfo);
  EXPECT_EQ(Find(r, "env.CPU_AFFINITY_CONF").level, Level::kInfo);
  EXPECT_EQ(Find(r, "env.PYTORCH_NPU_ALLOC_CONF").fix,
            "export PYTORCH_NPU_ALLOC_CONF=expandable_segments:True");
  // 16 CPUs per rank: 32 per node, two NPUs per node.
  EXPECT_EQ(Find(r, "env.OMP_NUM_THREADS").fix, "export OMP_NUM_THREADS=16");
  // governor, numa.balancing, irq c1, memlock, nofile.
  EXPECT_EQ(r.Count(Level::kWarning), 5);
  EXPECT_EQ(r.Count(Level::kCritical), 0);
  EXPECT_EQ(r.Unknown(), 0);
  EXPECT_EQ(r.Worst(), Level::kWarning);
}

TEST(HostDoctor, AscendEnvironment) {
  DoctorReport r =
      Doctor("kunpeng920_8npu", {{"TASK_QUEUE_ENABLE", "0"},
                                 {"CPU_AFFINITY_CONF", "3"},
                                 {"PYTORCH_NPU_ALLOC_CONF", "expandable_segments:True"},
                                 {"OMP_NUM_THREADS", "32"},
                                 {"MKL_NUM_THREADS", "16"},
                                 {"ASCEND_LAUNCH_BLOCKING", "1"},
                                 {"HCCL_ALGO", "level0:NA;level1:ring"},
                                 {"HCCL_CONNECT_TIMEOUT", "1200"}});
  EXPECT_EQ(Find(r, "env.TASK_QUEUE_ENABLE").level, Level::kWarning);
  EXPECT_EQ(Find(r, "env.TASK_QUEUE_ENABLE").fix, "export TASK_QUEUE_ENABLE=2");
  EXPECT_EQ(Find(r, "env.CPU_AFFINITY_CONF").level, Level::kWarning);  // no mode 3
  EXPECT_EQ(Find(r, "env.PYTORCH_NPU_ALLOC_CONF").level, Level::kOk);
  EXPECT_EQ(Find(r, "env.OMP_NUM_THREADS").level, Level::kWarning);  // 32 > 16
  EXPECT_EQ(Find(r, "env.MKL_NUM_THREADS").level, Level::kOk);
  EXPECT_EQ(Find(r, "env.ASCEND_LAUNCH_BLOCKING").level, Level::kWarning);
  const Check& hccl = Find(r, "env.HCCL_");
  EXPECT_EQ(hccl.value, "HCCL_ALGO=level0:NA;level1:ring, HCCL_CONNECT_TIMEOUT=1200");
  EXPECT_EQ(hccl.fix, "unset HCCL_ALGO");
  r = Doctor("kunpeng920_8npu", {{"TASK_QUEUE_ENABLE", "2"}, {"CPU_AFFINITY_CONF", "1,npu0:0-15"}});
  EXPECT_EQ(Find(r, "env.TASK_QUEUE_ENABLE").level, Level::kOk);
  EXPECT_EQ(Find(r, "env.CPU_AFFINITY_CONF").level, Level::kOk);
}

TEST(HostDoctor, X86GpuHost) {
  const DoctorReport r = Doctor("x86_8gpu_mlx");
  EXPECT_EQ(Find(r, "cpu.model").value, "Intel(R) Xeon(R) Platinum 8358 CPU @ 2.60GHz");
  EXPECT_EQ(Find(r, "cpu.topology").value, "2 packages, 64 cores, 128 CPUs online (0-127)");
  EXPECT_EQ(Find(r, "cpu.smt").value, "on, 2 threads per core");
  EXPECT_EQ(Find(r, "cpu.governor").level, Level::kWarning);
  const Check& freq = Find(r, "cpu.frequency");
  EXPECT_EQ(freq.level, Level::kWarning);
  EXPECT_TRUE(Has(freq.value, "lowered on CPUs 96-127")) << freq.value;
  EXPECT_EQ(Find(r, "numa.balancing").level, Level::kOk);
  EXPECT_EQ(Find(r, "mm.thp").value, "never");
  EXPECT_EQ(Find(r, "mm.thp").level, Level::kInfo);
  EXPECT_TRUE(Has(Find(r, "accel.0000:bd:00.0").value,
                  "7 NVIDIA A100-SXM4-80GB at 0000:bd:00.0, NUMA node 1"));
  // GPU 4's IRQ on CPU 3 (node 0), NIC ba's on CPUs 0-3 (node 0): warnings.
  EXPECT_EQ(Find(r, "irq.0000:87:00.0").level, Level::kWarning);
  EXPECT_EQ(Find(r, "irq.0000:87:00.0").fix,
            "for irq in 104; do echo 32-63,96-127 | sudo tee /proc/irq/$irq/smp_affinity_list; "
            "done");
  EXPECT_EQ(Find(r, "irq.0000:ba:00.0").level, Level::kWarning);
  EXPECT_EQ(Find(r, "irq.0000:0f:00.0").level, Level::kOk);    // CPU 9, not a main core
  EXPECT_EQ(Find(r, "irq.0000:07:00.0").level, Level::kInfo);  // CPU 0, rank 0's main core
  EXPECT_EQ(Find(r, "irq.0000:8d:00.0").level, Level::kInfo);  // CPU 40, rank 5's main core
  EXPECT_EQ(Find(r, "irq.0000:90:00.0").level, Level::kInfo);  // every CPU
  EXPECT_EQ(Find(r, "ulimit.memlock").level, Level::kOk);
  EXPECT_EQ(Find(r, "tool.nvidia-smi").value, "/usr/bin/nvidia-smi");
  EXPECT_EQ(Find(r, "tool.numactl").value, "/usr/bin/numactl");
  EXPECT_EQ(Find(r, "env.TASK_QUEUE_ENABLE").level, Level::kOk);       // no Ascend here
  for (const auto& c : r.checks) EXPECT_NE(c.id, "irq.0000:c4:00.0");  // the NVSwitch
  // governor, frequency, irq 87, irq ba.
  EXPECT_EQ(r.Count(Level::kWarning), 4);
  EXPECT_EQ(r.Count(Level::kCritical), 0);
}

TEST(HostDoctor, NcclVariables) {
  const DoctorReport r =
      Doctor("x86_8gpu_mlx", {{"NCCL_IB_DISABLE", "1"},
                              {"NCCL_DEBUG", "INFO"},
                              {"CUDA_LAUNCH_BLOCKING", "1"},
                              {"PYTORCH_CUDA_ALLOC_CONF", "max_split_size_mb:128"}});
  const Check& nccl = Find(r, "env.NCCL_");
  EXPECT_EQ(nccl.level, Level::kWarning);  // the machine has ConnectX InfiniBand
  EXPECT_EQ(nccl.fix, "unset NCCL_IB_DISABLE");
  EXPECT_EQ(Find(r, "env.CUDA_LAUNCH_BLOCKING").level, Level::kWarning);
  EXPECT_EQ(Find(r, "env.PYTORCH_CUDA_ALLOC_CONF").fix,
            "export PYTORCH_CUDA_ALLOC_CONF=max_split_size_mb:128,expandable_segments:True");
}

TEST(HostDoctor, Workstation) {
  const DoctorReport r = Doctor("workstation_1gpu");
  EXPECT_EQ(Find(r, "cpu.model").value, "AMD Ryzen 9 7950X 16-Core Processor");
  EXPECT_EQ(Find(r, "cpu.governor").level, Level::kOk);
  EXPECT_EQ(Find(r, "cpu.nohz_full").known, false);            // no such file on this kernel
  EXPECT_EQ(Find(r, "numa.balancing").level, Level::kOk);      // 1, but one node
  EXPECT_EQ(Find(r, "mem.available").level, Level::kWarning);  // 2.9 of 62.5 GiB
  EXPECT_EQ(Find(r, "mem.swap").value, "8.0 GiB of swap, 1.0 GiB in use");
  EXPECT_EQ(Find(r, "mem.swap").level, Level::kInfo);
  EXPECT_EQ(Find(r, "accel.0000:01:00.0").level, Level::kOk);  // numa_node -1 on one node
  EXPECT_EQ(Find(r, "irq.0000:01:00.0").level, Level::kOk);
  EXPECT_EQ(Find(r, "ulimit.memlock").level, Level::kWarning);
  EXPECT_EQ(Find(r, "ulimit.nofile").fix, "ulimit -n 65536");  // hard limit 524288
  EXPECT_EQ(Find(r, "tool.numactl").level, Level::kOk);        // one node
  EXPECT_EQ(Find(r, "env.OMP_NUM_THREADS").fix, "export OMP_NUM_THREADS=32");
  EXPECT_EQ(r.Count(Level::kWarning), 3);
  EXPECT_EQ(r.Unknown(), 1);
  for (const auto& c : r.checks) EXPECT_NE(c.id, "accel.0000:01:00.1");  // the HDMI audio
}

TEST(HostDoctor, GpuWithoutItsDriverIsCritical) {
  DoctorInput in = MakeDoctorInput(SysRoot(FixturePath("x86_8gpu_mlx")), {});
  in.topology.devices[0].driver_info = false;  // 0000:07:00.0
  const DoctorReport r = RunDoctor(in);
  EXPECT_EQ(Find(r, "accel.0000:07:00.0").level, Level::kCritical);
  EXPECT_EQ(r.Worst(), Level::kCritical);
}

TEST(HostDoctor, AnEmptyRootIsUnknownNeverACrash) {
  const DoctorReport r = Doctor("does-not-exist");
  EXPECT_GT(r.Unknown(), 10);
  EXPECT_EQ(Find(r, "cpu.governor").known, false);
  EXPECT_EQ(Find(r, "ulimit.memlock").known, false);
  EXPECT_EQ(r.Count(Level::kCritical), 0);
}

TEST(HostDoctor, EveryNonOkCheckSaysWhyWithASource) {
  for (const char* machine : {"kunpeng920_8npu", "x86_8gpu_mlx", "workstation_1gpu"}) {
    for (const auto& c : Doctor(machine).checks) {
      if (c.level == Level::kOk || !c.known) continue;
      EXPECT_FALSE(c.why.empty()) << machine << " " << c.id;
      if (c.level >= Level::kWarning) {
        EXPECT_TRUE(c.source.starts_with("https://")) << machine << " " << c.id;
        EXPECT_FALSE(c.fix.empty()) << machine << " " << c.id << " " << c.value;
      }
    }
  }
}

// This machine, live: runs without root, each family present, limits known
// (getrlimit), the same ids as anywhere.
TEST(HostDoctor, ThisMachine) {
  const DoctorReport r = RunDoctor(MakeDoctorInput(SysRoot("/"), ProcessEnvironment()));
  for (const char* id :
       {"cpu.model", "cpu.topology", "cpu.governor", "numa.balancing", "mm.thp", "mem.available",
        "mem.swap", "ulimit.memlock", "ulimit.nofile", "tool.numactl", "env.OMP_NUM_THREADS"}) {
    Find(r, id);
  }
  EXPECT_TRUE(Find(r, "cpu.topology").known);
  EXPECT_TRUE(Find(r, "ulimit.memlock").known);
  EXPECT_TRUE(Find(r, "mem.available").known);
  EXPECT_EQ(r.root, "/");
}

}  // namespace
}  // namespace perfdx::host
