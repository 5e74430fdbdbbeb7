// ulimit.*, tool.*, env.*: the limits, tools and environment variables a
// training job on this host starts with.
#include <unistd.h>

#include <charconv>

#include <fmt/format.h>

#include "perfdx/host/doctor_checks.h"

namespace perfdx::host::doctor {
namespace {

constexpr const char* kGetrlimitDoc = "https://man7.org/linux/man-pages/man2/getrlimit.2.html";
constexpr const char* kNcclEnvDoc =
    "https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html";
constexpr const char* kTorchMultiprocessingDoc =
    "https://pytorch.org/docs/stable/multiprocessing.html";
constexpr const char* kCudaAllocDoc =
    "https://pytorch.org/docs/stable/notes/"
    "cuda.html#optimizing-memory-usage-with-pytorch-cuda-alloc-conf";
constexpr const char* kCudaAsyncDoc =
    "https://pytorch.org/docs/stable/notes/cuda.html#asynchronous-execution";
constexpr const char* kNpuAllocDoc =
    "https://www.hiascend.com/document/detail/zh/Pytorch/710/comref/Envvariables/Envir_012.html";
constexpr const char* kTaskQueueDoc =
    "https://www.hiascend.com/document/detail/zh/Pytorch/710/comref/Envvariables/Envir_007.html";
constexpr const char* kAscendBlockingDoc =
    "https://www.hiascend.com/document/detail/zh/Pytorch/710/comref/Envvariables/Envir_006.html";
constexpr const char* kAffinityConfDoc =
    "https://www.hiascend.com/doc_center/source/zh/Pytorch/700/ptmoddevg/Frameworkfeatures/"
    "featuresguide_00010.html";
constexpr const char* kTuningGuideDoc =
    "https://pytorch.org/tutorials/recipes/recipes/tuning_guide.html";
constexpr const char* kNumactlDoc =
    "https://manpages.ubuntu.com/manpages/oracular/man8/numactl.8.html";
constexpr const char* kNvidiaSmiDoc = "https://docs.nvidia.com/deploy/nvidia-smi/index.html";

constexpr int64_t kMinOpenFiles = 65536;

std::string LimitText(int64_t v, bool bytes) {
  if (v < 0) return "unlimited";
  if (!bytes) return std::to_string(v);
  if (v % (1 << 20) == 0) return fmt::format("{} MiB", v >> 20);
  if (v % 1024 == 0) return fmt::format("{} KiB", v >> 10);
  return fmt::format("{} bytes", v);
}

const std::string* Env(const DoctorInput& in, const std::string& name) {
  auto it = in.env.find(name);
  return it == in.env.end() ? nullptr : &it->second;
}

Check MemlockCheck(const DoctorInput& in) {
  if (!in.limits) {
    return Unknown("ulimit.memlock", "locked-memory limit", "no proc/self/limits under this root");
  }
  const auto& l = *in.limits;
  Check c = MakeCheck("ulimit.memlock", "locked-memory limit (ulimit -l)");
  c.value =
      fmt::format("{} (hard {})", LimitText(l.memlock_soft, true), LimitText(l.memlock_hard, true));
  c.recommended = "unlimited";
  c.source = kGetrlimitDoc;
  c.why =
      "RDMA (InfiniBand/RoCE) and pinned host memory lock pages: a small RLIMIT_MEMLOCK makes "
      "memory registration fail or fall back to slower paths";
  if (l.memlock_soft < 0) {
    c.level = Level::kOk;
    return c;
  }
  const bool matters = HasRdmaNic(in.topology) || !in.topology.Accelerators().empty();
  c.level = matters ? Level::kWarning : Level::kInfo;
  c.fix = l.memlock_hard < 0
              ? "ulimit -l unlimited"
              : "echo '* - memlock unlimited' | sudo tee -a /etc/security/limits.conf  # then log "
                "in again; containers: docker run --ulimit memlock=-1";
  return c;
}

Check NofileCheck(const DoctorInput& in) {
  if (!in.limits) {
    return Unknown("ulimit.nofile", "open-files limit", "no proc/self/limits under this root");
  }
  const auto& l = *in.limits;
  Check c = MakeCheck("ulimit.nofile", "open-files limit (ulimit -n)");
  c.value =
      fmt::format("{} (hard {})", LimitText(l.nofile_soft, false), LimitText(l.nofile_hard, false));
  c.recommended = fmt::format("at least {}", kMinOpenFiles);
  c.source = kTorchMultiprocessingDoc;
  c.why =
      "DataLoader workers share tensors through file descriptors (the file_descriptor sharing "
      "strategy): many workers and prefetched batches run into a small limit ('Too many open "
      "files')";
  if (l.nofile_soft < 0 || l.nofile_soft >= kMinOpenFiles) {
    c.level = Level::kOk;
    return c;
  }
  c.level = in.topology.Accelerators().empty() ? Level::kInfo : Level::kWarning;
  c.fix = l.nofile_hard < 0 || l.nofile_hard >= kMinOpenFiles
              ? fmt::format("ulimit -n {}", kMinOpenFiles)
              : fmt::format("echo '* - nofile {}' | sudo tee -a /etc/security/limits.conf",
                            kMinOpenFiles);
  return c;
}

Check ToolCheck(const DoctorInput& in, const std::string& tool, bool needed,
                const std::string& need, const std::string& purpose, const std::string& source,
                const std::string& install) {
  Check c = MakeCheck("tool." + tool, tool);
  c.source = source;
  const std::string* path = Env(in, "PATH");
  std::string found;
  if (path != nullptr) {
    std::string_view rest = *path;
    while (found.empty()) {
      const size_t colon = std::min(rest.find(':'), rest.size());
      const std::string dir(rest.substr(0, colon));
      if (!dir.empty()) {
        const std::string candidate = dir + "/" + tool;
        const std::string real = in.root.Path(candidate);
        if (in.root.Exists(candidate) && access(real.c_str(), X_OK) == 0) found = candidate;
      }
      if (colon >= rest.size()) break;
      rest.remove_prefix(colon + 1);
    }
  }
  if (!found.empty()) {
    c.level = Level::kOk;
    c.value = found;
    return c;
  }
  c.value = path == nullptr ? "not found (PATH is unset)" : "not on PATH";
  if (!needed) {
    c.level = Level::kOk;
    c.value += ": " + need;
    return c;
  }
  c.level = Level::kInfo;
  c.why = purpose;
  c.fix = install;
  return c;
}

// A whole number from 1; 0 when not one.
int64_t PositiveInt(const std::string& s) {
  int64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && end == s.data() + s.size() && v > 0 ? v : 0;
}

Check AllocConfCheck(const DoctorInput& in, const std::string& name, bool applies,
                     const std::string& platform, const std::string& source) {
  Check c = MakeCheck("env." + name, name);
  c.source = source;
  const std::string* v = Env(in, name);
  c.value = v == nullptr ? "unset" : *v;
  c.recommended = "expandable_segments:True";
  if (!applies) {
    c.level = Level::kOk;
    c.value += ": no " + platform + " here";
    return c;
  }
  if (v != nullptr && v->find("expandable_segments:True") != std::string::npos) {
    c.level = Level::kOk;
    return c;
  }
  c.level = Level::kInfo;
  c.why =
      "expandable segments let the caching allocator grow a segment instead of reserving new "
      "blocks: less fragmentation, fewer out-of-memory errors with free memory left";
  c.fix = v == nullptr || v->empty() ? "export " + name + "=expandable_segments:True"
                                     : "export " + name + "=" + *v + ",expandable_segments:True";
  return c;
}

Check TaskQueueCheck(const DoctorInput& in, bool ascend) {
  Check c = MakeCheck("env.TASK_QUEUE_ENABLE", "TASK_QUEUE_ENABLE (torch_npu)");
  c.source = kTaskQueueDoc;
  const std::string* v = Env(in, "TASK_QUEUE_ENABLE");
  c.value = v == nullptr ? "unset (torch_npu's default is 1)" : *v;
  c.recommended = "2";
  if (!ascend) {
    c.level = Level::kOk;
    c.value += ": no Ascend NPU here";
    return c;
  }
  const std::string mode = v == nullptr ? "1" : *v;
  c.why =
      "the task queue moves operator launches to a second thread; level 2 also moves the "
      "workspace work there and balances the two (level 1 is the default, 0 turns it off)";
  c.fix = "export TASK_QUEUE_ENABLE=2";
  if (mode == "2") {
    c.level = Level::kOk;
    c.fix.clear();
  } else if (mode == "1") {
    c.level = Level::kInfo;
  } else if (mode == "0") {
    c.level = Level::kWarning;
  } else {
    c.level = Level::kWarning;
    c.why = "TASK_QUEUE_ENABLE takes 0, 1 or 2; " + c.why;
  }
  return c;
}

Check LaunchBlockingCheck(const DoctorInput& in, const std::string& name, bool applies,
                          const std::string& source, const std::string& what) {
  Check c = MakeCheck("env." + name, name);
  c.source = source;
  const std::string* v = Env(in, name);
  c.value = v == nullptr ? "unset" : *v;
  c.recommended = "unset (or 0) outside debugging";
  if (v != nullptr && *v == "1" && applies) {
    c.level = Level::kWarning;
    c.why = what;
    c.fix = "unset " + name;
  } else {
    c.level = Level::kOk;
  }
  return c;
}

Check AffinityConfCheck(const DoctorInput& in, bool ascend) {
  Check c = MakeCheck("env.CPU_AFFINITY_CONF", "CPU_AFFINITY_CONF (torch_npu)");
  c.source = kAffinityConfDoc;
  const std::string* v = Env(in, "CPU_AFFINITY_CONF");
  c.value = v == nullptr ? "unset (torch_npu binds nothing)" : *v;
  c.recommended = "2 (or 1), or start each rank with perfdx bind";
  if (!ascend) {
    c.level = Level::kOk;
    c.value += ": no Ascend NPU here";
    return c;
  }
  // CPU_AFFINITY_CONF=<mode>[,npuN:a-b...]: mode 0 (off), 1 (the process on
  // its NPU's range), 2 (hot threads on fixed cores of that range).
  const std::string mode = v == nullptr ? "" : v->substr(0, v->find(','));
  c.why =
      "torch_npu binds its threads to the CPUs of each NPU's range (mode 1), and in mode 2 its "
      "launch threads to fixed cores of it, apart from data-loader workers: fewer migrations and "
      "no cross-node memory traffic for the launch path";
  if (mode == "1" || mode == "2") {
    c.level = Level::kOk;
  } else if (mode.empty() || mode == "0") {
    c.level = Level::kInfo;
    c.fix = "export CPU_AFFINITY_CONF=2  # or: perfdx bind --policy split -- CMD";
  } else {
    c.level = Level::kWarning;
    c.why = "mode " + mode + " does not exist (0, 1 or 2); " + c.why;
    c.fix = "export CPU_AFFINITY_CONF=2";
  }
  return c;
}

Check FamilyCheck(const DoctorInput& in, const std::string& prefix, bool applies) {
  Check c = MakeCheck("env." + prefix + "_", prefix + "_* variables");
  std::string list;
  for (const auto& [name, value] : in.env) {
    if (!name.starts_with(prefix + "_")) continue;
    list += (list.empty() ? "" : ", ") + name + "=" + value;
  }
  c.value = list.empty() ? "none set" : list;
  c.level = list.empty() ? Level::kOk : Level::kInfo;
  if (prefix == "NCCL") {
    c.source = kNcclEnvDoc;
    std::vector<std::string> off;
    for (const char* name : {"NCCL_P2P_DISABLE", "NCCL_SHM_DISABLE", "NCCL_IB_DISABLE"}) {
      const std::string* v = Env(in, name);
      if (v == nullptr || *v != "1") continue;
      if (std::string(name) == "NCCL_IB_DISABLE" && !HasRdmaNic(in.topology)) continue;
      off.push_back(name);
    }
    if (!off.empty() && applies) {
      c.level = Level::kWarning;
      std::string names;
      for (const auto& n : off) names += (names.empty() ? "" : " ") + n;
      c.why = names +
              "=1 turns off a transport this machine has (NVLink/PCIe peer-to-peer, "
              "shared memory, InfiniBand/RoCE): collectives fall back to slower paths";
      c.fix = "unset " + names;
      c.recommended = "unset, unless working around a known fault";
    } else {
      c.why = "the NCCL settings the job inherits";
    }
  } else {
    c.why = "the HCCL settings the job inherits";
    c.source =
        "https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/envvar/"
        "envref_07_0079.html";
    if (const std::string* algo = Env(in, "HCCL_ALGO"); algo != nullptr && applies) {
      c.why =
          "a fixed HCCL_ALGO turns off HCCL's own choice of algorithm by product, server count "
          "and data size";
      c.recommended = "HCCL_ALGO unset unless a measurement shows the fixed algorithm faster";
      c.fix = "unset HCCL_ALGO";
    }
  }
  return c;
}

Check ThreadsCheck(const DoctorInput& in, const std::string& name) {
  Check c = MakeCheck("env." + name, name);
  c.source = kTuningGuideDoc;
  const int per_rank = CpusPerRank(in.topology);
  const std::string* v = Env(in, name);
  c.value = v == nullptr ? "unset" : *v;
  c.recommended =
      fmt::format("at most {} (the CPUs each rank gets from perfdx bind --policy cores)", per_rank);
  const bool accelerators = !in.topology.Accelerators().empty();
  if (v == nullptr) {
    c.level = accelerators ? Level::kInfo : Level::kOk;
    c.why =
        "unset, each rank's thread pool starts one thread per CPU it may use (torchrun sets 1 "
        "when it starts several ranks): set it to the CPUs a rank has";
    if (accelerators) c.fix = fmt::format("export {}={}", name, per_rank);
    return c;
  }
  const int64_t n = PositiveInt(*v);
  if (n == 0) {
    c.level = Level::kWarning;
    c.why = "not a whole number from 1";
    c.fix = fmt::format("export {}={}", name, per_rank);
  } else if (per_rank > 0 && n > per_rank) {
    c.level = Level::kWarning;
    c.why = fmt::format(
        "{} threads per rank on {} CPUs per rank: the threads of one rank preempt each other "
        "(oversubscription)",
        n, per_rank);
    c.fix = fmt::format("export {}={}", name, per_rank);
  } else {
    c.level = Level::kOk;
  }
  return c;
}

}  // namespace

void AddLimitChecks(const DoctorInput& input, std::vector<Check>* out) {
  out->push_back(MemlockCheck(input));
  out->push_back(NofileCheck(input));
}

void AddToolChecks(const DoctorInput& input, std::vector<Check>* out) {
  const bool ascend = input.topology.HasAscend();
  const bool nvidia = input.topology.HasNvidia();
  out->push_back(ToolCheck(input, "npu-smi", ascend, "no Ascend NPU here",
                           "npu-smi info -t topo shows each NPU's CPU affinity and links",
                           kAffinityConfDoc,
                           "installed with the Ascend driver (Ascend/driver/tools)"));
  out->push_back(ToolCheck(input, "nvidia-smi", nvidia, "no NVIDIA GPU here",
                           "nvidia-smi topo -m shows each GPU's CPU and NUMA affinity and links",
                           kNvidiaSmiDoc, "installed with the NVIDIA driver"));
  const bool multi_node = input.topology.nodes.size() > 1;
  out->push_back(ToolCheck(input, "numactl", multi_node, "one NUMA node",
                           "numactl --hardware shows the nodes and their distances; perfdx bind "
                           "--print writes numactl lines",
                           kNumactlDoc,
                           "sudo apt-get install numactl  # or: sudo dnf install numactl"));
}

void AddEnvChecks(const DoctorInput& input, std::vector<Check>* out) {
  const bool ascend = input.topology.HasAscend();
  const bool nvidia = input.topology.HasNvidia();
  out->push_back(
      AllocConfCheck(input, "PYTORCH_NPU_ALLOC_CONF", ascend, "Ascend NPU", kNpuAllocDoc));
  out->push_back(
      AllocConfCheck(input, "PYTORCH_CUDA_ALLOC_CONF", nvidia, "NVIDIA GPU", kCudaAllocDoc));
  out->push_back(TaskQueueCheck(input, ascend));
  out->push_back(AffinityConfCheck(input, ascend));
  out->push_back(LaunchBlockingCheck(
      input, "ASCEND_LAUNCH_BLOCKING", ascend, kAscendBlockingDoc,
      "1 runs every operator synchronously and turns the task queue off: the host waits for "
      "each kernel"));
  out->push_back(LaunchBlockingCheck(
      input, "CUDA_LAUNCH_BLOCKING", nvidia, kCudaAsyncDoc,
      "1 makes every kernel launch synchronous: the host waits for each kernel"));
  out->push_back(FamilyCheck(input, "HCCL", ascend));
  out->push_back(FamilyCheck(input, "NCCL", nvidia));
  out->push_back(ThreadsCheck(input, "OMP_NUM_THREADS"));
  out->push_back(ThreadsCheck(input, "MKL_NUM_THREADS"));
}

}  // namespace perfdx::host::doctor
