#!/usr/bin/env python3
"""Writes the host fixture trees (tests/data/host/<machine>/) in the exact
formats of the kernel's sysfs and procfs files. README.md says which real
layout each one follows; the tests' expected values are worked out by hand
from that description, not from these files.

Usage: python3 tests/data/host/make_fixtures.py OUT   (writes OUT/<machine>/)

CTest runs it first (the fixture `host_fixtures`, into build/<preset>/host_fixtures)
and hands the folder to the tests as $PERFDX_HOST_FIXTURES: the trees are
thousands of small files, so they are made, not committed.
"""
import os
import shutil

import sys

OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))


def cpulist(ids):
    ids = sorted(set(ids))
    out, i = [], 0
    while i < len(ids):
        j = i
        while j + 1 < len(ids) and ids[j + 1] == ids[j] + 1:
            j += 1
        out.append(str(ids[i]) if i == j else f"{ids[i]}-{ids[j]}")
        i = j + 1
    return ",".join(out)


class Tree:
    def __init__(self, name):
        self.root = os.path.join(OUT, name)
        shutil.rmtree(self.root, ignore_errors=True)
        os.makedirs(self.root)

    def write(self, path, text, mode=0o644):
        full = os.path.join(self.root, path.lstrip("/"))
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w") as f:
            f.write(text)
        os.chmod(full, mode)

    def link(self, path, target):
        full = os.path.join(self.root, path.lstrip("/"))
        os.makedirs(os.path.dirname(full), exist_ok=True)
        os.symlink(target, full)


def write_cpus(t, cpus, governor, driver, cur_khz, max_khz, hw_max_khz, smt_active=None):
    """cpus: {id: (package, core_id, siblings)}; max_khz: {id: scaling_max_freq}."""
    ids = sorted(cpus)
    base = "/sys/devices/system/cpu"
    t.write(f"{base}/online", cpulist(ids) + "\n")
    t.write(f"{base}/possible", cpulist(ids) + "\n")
    t.write(f"{base}/present", cpulist(ids) + "\n")
    for i in ids:
        package, core, siblings = cpus[i]
        t.write(f"{base}/cpu{i}/topology/physical_package_id", f"{package}\n")
        t.write(f"{base}/cpu{i}/topology/core_id", f"{core}\n")
        t.write(f"{base}/cpu{i}/topology/thread_siblings_list", cpulist(siblings) + "\n")
        t.write(f"{base}/cpu{i}/online", "1\n")
        if governor is None:
            continue
        # cpuN/cpufreq is a link to cpufreq/policyN (one policy per CPU).
        t.link(f"{base}/cpu{i}/cpufreq", f"../cpufreq/policy{i}")
        p = f"{base}/cpufreq/policy{i}"
        t.write(f"{p}/scaling_governor", governor + "\n")
        t.write(f"{p}/scaling_driver", driver + "\n")
        t.write(f"{p}/scaling_cur_freq", f"{cur_khz}\n")
        t.write(f"{p}/scaling_max_freq", f"{max_khz[i]}\n")
        t.write(f"{p}/cpuinfo_max_freq", f"{hw_max_khz}\n")
        t.write(f"{p}/affected_cpus", f"{i}\n")
    if smt_active is not None:
        t.write(f"{base}/smt/active", f"{smt_active}\n")
        t.write(f"{base}/smt/control", "on\n" if smt_active else "off\n")


def write_nodes(t, nodes):
    """nodes: {id: (cpus, mem_total_kb)}."""
    base = "/sys/devices/system/node"
    t.write(f"{base}/online", cpulist(nodes) + "\n")
    t.write(f"{base}/possible", cpulist(nodes) + "\n")
    for n, (cpus, kb) in nodes.items():
        t.write(f"{base}/node{n}/cpulist", cpulist(cpus) + "\n")
        free = kb * 9 // 10
        t.write(f"{base}/node{n}/meminfo",
                f"Node {n} MemTotal:       {kb:>9} kB\n"
                f"Node {n} MemFree:        {free:>9} kB\n"
                f"Node {n} MemUsed:        {kb - free:>9} kB\n"
                f"Node {n} Active:         {kb // 50:>9} kB\n"
                f"Node {n} HugePages_Total:     0\n"
                f"Node {n} HugePages_Free:      0\n")


def write_pci(t, address, vendor, device, klass, numa_node, local_cpus, msi=(), irq=0, net=()):
    dev_dir = f"/sys/devices/pci{address[:4]}:{address[5:7]}/{address}"
    t.link(f"/sys/bus/pci/devices/{address}", f"../../../devices/pci{address[:4]}:{address[5:7]}/{address}")
    t.write(f"{dev_dir}/vendor", f"0x{vendor:04x}\n")
    t.write(f"{dev_dir}/device", f"0x{device:04x}\n")
    t.write(f"{dev_dir}/class", f"0x{klass:06x}\n")
    t.write(f"{dev_dir}/numa_node", f"{numa_node}\n")
    t.write(f"{dev_dir}/local_cpulist", cpulist(local_cpus) + "\n")
    t.write(f"{dev_dir}/irq", f"{irq}\n")
    for n in msi:
        t.write(f"{dev_dir}/msi_irqs/{n}", "msix\n")
    for name in net:
        t.write(f"{dev_dir}/net/{name}/operstate", "up\n")


def write_interrupts(t, cpu_ids, irqs, chip, arm):
    """irqs: [(number, {cpu: count}, hwirq, name, affinity)] -> /proc/interrupts and
    /proc/irq/N/smp_affinity_list."""
    width = max(3, len(str(max(n for n, *_ in irqs))))
    lines = [" " * (width + 8) + "".join(f"CPU{c:<8}" for c in cpu_ids)]
    for number, counts, hwirq, name, affinity in irqs:
        cols = "".join(f"{counts.get(c, 0):>10} " for c in cpu_ids)
        kind = "Edge" if arm else "-edge"
        lines.append(f"{number:>{width}}: {cols} {chip} {hwirq}{' ' if arm else ''}{kind}      {name}")
        t.write(f"/proc/irq/{number}/smp_affinity_list", cpulist(affinity) + "\n")
    cols = "".join(f"{0:>10} " for c in cpu_ids)
    lines.append(f"{'NMI':>{width}}: {cols} Non-maskable interrupts")
    lines.append(f"{'ERR':>{width}}:          0")
    t.write("/proc/interrupts", "\n".join(lines) + "\n")


def write_meminfo(t, total, free, available, swap_total, swap_free):
    t.write("/proc/meminfo",
            f"MemTotal:       {total:>8} kB\n"
            f"MemFree:        {free:>8} kB\n"
            f"MemAvailable:   {available:>8} kB\n"
            f"Buffers:        {1024:>8} kB\n"
            f"Cached:         {available - free:>8} kB\n"
            f"SwapCached:     {0:>8} kB\n"
            f"SwapTotal:      {swap_total:>8} kB\n"
            f"SwapFree:       {swap_free:>8} kB\n"
            f"HugePages_Total:       0\n"
            f"Hugepagesize:       2048 kB\n")


def write_limits(t, memlock, nofile):
    rows = [("Max cpu time", "unlimited", "unlimited", "seconds"),
            ("Max file size", "unlimited", "unlimited", "bytes"),
            ("Max data size", "unlimited", "unlimited", "bytes"),
            ("Max stack size", "8388608", "unlimited", "bytes"),
            ("Max core file size", "0", "unlimited", "bytes"),
            ("Max resident set", "unlimited", "unlimited", "bytes"),
            ("Max processes", "2062531", "2062531", "processes"),
            ("Max open files", nofile[0], nofile[1], "files"),
            ("Max locked memory", memlock[0], memlock[1], "bytes"),
            ("Max address space", "unlimited", "unlimited", "bytes"),
            ("Max file locks", "unlimited", "unlimited", "locks"),
            ("Max pending signals", "2062531", "2062531", "signals"),
            ("Max msgqueue size", "819200", "819200", "bytes"),
            ("Max nice priority", "0", "0", ""),
            ("Max realtime priority", "0", "0", ""),
            ("Max realtime timeout", "unlimited", "unlimited", "us")]
    text = f"{'Limit':<26}{'Soft Limit':<21}{'Hard Limit':<21}{'Units':<10}\n"
    for name, soft, hard, units in rows:
        text += f"{name:<26}{soft:<21}{hard:<21}{units:<10}\n"
    t.write("/proc/self/limits", text)


def write_common(t, numa_balancing, thp, isolated="", nohz_full="(null)"):
    if numa_balancing is not None:
        t.write("/proc/sys/kernel/numa_balancing", f"{numa_balancing}\n")
    t.write("/sys/kernel/mm/transparent_hugepage/enabled", thp + "\n")
    t.write("/sys/devices/system/cpu/isolated", isolated + "\n")
    if nohz_full is not None:
        t.write("/sys/devices/system/cpu/nohz_full", nohz_full + "\n")


def nvidia_information(model, irq, uuid, address, minor):
    return (f"Model: \t\t {model}\n"
            f"IRQ:   \t\t {irq}\n"
            f"GPU UUID: \t {uuid}\n"
            f"Video BIOS: \t 92.00.45.00.03\n"
            f"Bus Type: \t PCIe\n"
            f"DMA Size: \t 47 bits\n"
            f"DMA Mask: \t 0x7fffffffffff\n"
            f"Bus Location: \t {address}\n"
            f"Device Minor: \t {minor}\n"
            f"GPU Excluded:\t No\n")


def kunpeng():
    t = Tree("kunpeng920_8npu")
    cpus = {i: (i // 64, i % 64, [i]) for i in range(128)}
    write_cpus(t, cpus, "ondemand", "cppc_cpufreq", 2600000, {i: 2600000 for i in range(128)}, 2600000)
    nodes = {n: (list(range(32 * n, 32 * n + 32)), 132024320) for n in range(4)}
    write_nodes(t, nodes)
    entry = ("processor\t: {i}\nBogoMIPS\t: 200.00\n"
             "Features\t: fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid "
             "asimdrdm jscvt fcma dcpop asimddp asimdfhm\n"
             "CPU implementer\t: 0x48\nCPU architecture: 8\nCPU variant\t: 0x1\n"
             "CPU part\t: 0xd01\nCPU revision\t: 0\n\n")
    t.write("/proc/cpuinfo", "".join(entry.format(i=i) for i in range(128)))
    write_common(t, 1, "[always] madvise never")
    # 8 Ascend 910 (0xd801), two per NUMA node, in PCI bus order.
    npus = ["0000:01:00.0", "0000:02:00.0", "0000:41:00.0", "0000:42:00.0",
            "0000:81:00.0", "0000:82:00.0", "0000:c1:00.0", "0000:c2:00.0"]
    irqs = []
    for k, address in enumerate(npus):
        node = k // 2
        local = nodes[node][0]
        msi = [200 + 4 * k + j for j in range(4)]
        write_pci(t, address, 0x19e5, 0xd801, 0x120000, node, local, msi, irq=0)
        if k == 6:
            affinity = nodes[0][0]          # on node 0, the NPU is on node 3
        elif k == 7:
            affinity = list(range(128))     # every CPU
        else:
            affinity = local[:1]
        for n in msi:
            irqs.append((n, {affinity[0]: 1000 + n}, 524288 + n, f"devdrv-{address}", affinity))
        t.write(f"/dev/davinci{k}", "")
    t.write("/dev/davinci_manager", "")
    t.write("/dev/devmm_svm", "")
    t.write("/dev/hisi_hdc", "")
    # A Huawei PCIe root port (class 0x0604) and an hns3 NIC (Huawei vendor, Ethernet class).
    write_pci(t, "0000:00:00.0", 0x19e5, 0xa120, 0x060400, 0, nodes[0][0])
    write_pci(t, "0000:7d:00.0", 0x19e5, 0xa222, 0x020000, 0, nodes[0][0],
              [300, 301, 302, 303], net=["enp125s0f0"])
    for n in (300, 301, 302, 303):
        irqs.append((n, {n - 290: 500}, 1572864 + n, f"hns3-0000:7d:00.0-TxRx-{n - 300}", [n - 290]))
    write_interrupts(t, list(range(128)), irqs, "ITS-MSI", arm=True)
    write_meminfo(t, 528097280, 480000000, 500000000, 0, 0)
    write_limits(t, ("65536", "65536"), ("1024", "4096"))
    t.write("/proc/self/status", "Name:\tcat\nState:\tR (running)\nCpus_allowed:\tffffffff,ffffffff,ffffffff,ffffffff\n"
            "Cpus_allowed_list:\t0-127\nMems_allowed:\t00000000,0000000f\nMems_allowed_list:\t0-3\n")
    t.write("/usr/local/bin/npu-smi", "#!/bin/sh\n", 0o755)


def x86_gpu():
    t = Tree("x86_8gpu_mlx")
    cpus = {}
    for i in range(128):
        package = (i % 64) // 32
        first = i % 64
        cpus[i] = (package, first % 32, [first, first + 64])
    max_khz = {i: (2600000 if i >= 96 else 3400000) for i in range(128)}
    write_cpus(t, cpus, "powersave", "intel_pstate", 2000000, max_khz, 3400000, smt_active=1)
    nodes = {0: (list(range(0, 32)) + list(range(64, 96)), 527958000),
             1: (list(range(32, 64)) + list(range(96, 128)), 528475000)}
    write_nodes(t, nodes)
    entry = ("processor\t: {i}\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 106\n"
             "model name\t: Intel(R) Xeon(R) Platinum 8358 CPU @ 2.60GHz\nstepping\t: 6\n"
             "cpu MHz\t\t: 2000.000\ncache size\t: 49152 KB\nphysical id\t: {p}\nsiblings\t: 64\n"
             "core id\t\t: {c}\ncpu cores\t: 32\napicid\t\t: {a}\nflags\t\t: fpu vme de pse tsc msr "
             "pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush dts acpi mmx fxsr sse sse2 ss "
             "ht tm pbe syscall nx pdpe1gb rdtscp lm constant_tsc avx512f\n\n")
    t.write("/proc/cpuinfo", "".join(entry.format(i=i, p=cpus[i][0], c=cpus[i][1], a=i * 2) for i in range(128)))
    write_common(t, 0, "always madvise [never]")
    gpus = ["0000:07:00.0", "0000:0f:00.0", "0000:47:00.0", "0000:4e:00.0",
            "0000:87:00.0", "0000:90:00.0", "0000:b7:00.0", "0000:bd:00.0"]
    gpu_irq_affinity = [[0], [9], [17], [25], [3], list(range(128)), list(range(128)), list(range(128))]
    irqs = []
    for k, address in enumerate(gpus):
        node = k // 4
        irq = 100 + k
        write_pci(t, address, 0x10de, 0x20b2, 0x030200, node, nodes[node][0], [irq], irq=16)
        uuid = f"GPU-4f7cb5a4-1bd8-7e3b-2a3f-2e84e1f0a3c{k}"
        t.write(f"/proc/driver/nvidia/gpus/{address}/information",
                nvidia_information("NVIDIA A100-SXM4-80GB", irq, uuid, address, k))
        aff = gpu_irq_affinity[k]
        irqs.append((irq, {aff[0]: 123456}, 1572864 + k, "nvidia", aff))
    # An NVSwitch (NVIDIA, class 0x0680: not a GPU).
    write_pci(t, "0000:c4:00.0", 0x10de, 0x1af1, 0x068000, 1, nodes[1][0])
    # 4 ConnectX-6 (Mellanox 0x15b3:0x101b, InfiniBand class 0x0207), two per node.
    nics = [("0000:0c:00.0", 0, 110, [10, 11, 12, 13], "ibp12s0"),
            ("0000:4b:00.0", 0, 120, [20, 21, 22, 23], "ibp75s0"),
            ("0000:8d:00.0", 1, 130, [40, 41, 42, 43], "ibp141s0"),
            ("0000:ba:00.0", 1, 140, [0, 1, 2, 3], "ibp186s0")]
    for address, node, first, cpus_for_irqs, net in nics:
        msi = [first + j for j in range(4)]
        write_pci(t, address, 0x15b3, 0x101b, 0x020700, node, nodes[node][0], msi, irq=17, net=[net])
        for j, n in enumerate(msi):
            name = "mlx5_async0@pci:" + address if j == 0 else f"mlx5_comp{j - 1}@pci:{address}"
            irqs.append((n, {cpus_for_irqs[j]: 777}, 2097152 + n, name, [cpus_for_irqs[j]]))
    write_interrupts(t, list(range(128)), irqs, "IR-PCI-MSI", arm=False)
    write_meminfo(t, 1056433000, 1000000000, 1020000000, 0, 0)
    write_limits(t, ("unlimited", "unlimited"), ("1048576", "1048576"))
    t.write("/proc/self/status", "Name:\tcat\nCpus_allowed_list:\t0-127\nMems_allowed_list:\t0-1\n")
    t.write("/usr/bin/nvidia-smi", "#!/bin/sh\n", 0o755)
    t.write("/usr/bin/numactl", "#!/bin/sh\n", 0o755)


def workstation():
    t = Tree("workstation_1gpu")
    cpus = {i: (0, i % 16, [i % 16, i % 16 + 16]) for i in range(32)}
    write_cpus(t, cpus, "performance", "amd-pstate-epp", 4500000, {i: 5881000 for i in range(32)},
               5881000, smt_active=1)
    write_nodes(t, {0: (list(range(32)), 65536000)})
    entry = ("processor\t: {i}\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 97\n"
             "model name\t: AMD Ryzen 9 7950X 16-Core Processor\nstepping\t: 2\n"
             "physical id\t: 0\nsiblings\t: 32\ncore id\t\t: {c}\ncpu cores\t: 16\n\n")
    t.write("/proc/cpuinfo", "".join(entry.format(i=i, c=i % 16) for i in range(32)))
    write_common(t, 1, "always [madvise] never", isolated="", nohz_full=None)
    # RTX 4090 (0x2684, VGA class) and its HDMI audio function (0x0403: not a GPU).
    write_pci(t, "0000:01:00.0", 0x10de, 0x2684, 0x030000, -1, list(range(32)), [130], irq=16)
    write_pci(t, "0000:01:00.1", 0x10de, 0x22ba, 0x040300, -1, list(range(32)), [131], irq=17)
    t.write("/proc/driver/nvidia/gpus/0000:01:00.0/information",
            nvidia_information("NVIDIA GeForce RTX 4090", 130,
                               "GPU-0e3a2c1d-9b8f-4a7e-8d6c-5b4a3f2e1d0c", "0000:01:00.0", 0))
    # Intel I225-V 2.5GbE (0x8086:0x15f3, Ethernet class).
    write_pci(t, "0000:0a:00.0", 0x8086, 0x15f3, 0x020000, -1, list(range(32)), [140, 141],
              irq=18, net=["enp10s0"])
    irqs = [(130, {4: 99999}, 524288, "nvidia", list(range(32))),
            (131, {}, 524289, "snd_hda_intel:card1", list(range(32))),
            (140, {7: 10}, 5242880, "enp10s0", [7]),
            (141, {8: 5000}, 5242881, "enp10s0-TxRx-0", [8])]
    write_interrupts(t, list(range(32)), irqs, "PCI-MSIX-0000:01:00.0", arm=False)
    write_meminfo(t, 65536000, 1000000, 3000000, 8388604, 7340028)
    write_limits(t, ("8388608", "8388608"), ("1024", "524288"))
    t.write("/usr/bin/nvidia-smi", "#!/bin/sh\n", 0o755)


if __name__ == "__main__":
    kunpeng()
    x86_gpu()
    workstation()
