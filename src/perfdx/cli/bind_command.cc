#include "perfdx/cli/bind_command.h"

#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

#include <fmt/format.h>

#include "perfdx/cli/common.h"
#include "perfdx/cli/terminal.h"
#include "perfdx/host/bind_apply.h"
#include "perfdx/host/bind_plan.h"
#include "perfdx/host/cpu_list.h"
#include "perfdx/host/hwloc_topology.h"
#include "perfdx/io/output_file.h"
#include "perfdx/report/bind_plan_report.h"

namespace perfdx::cli {
namespace {

// A launcher's ranks per machine and local ranks are at most this many.
constexpr int64_t kMaxLocalRanks = 65536;

// Exit codes of a command that could not be started, as env(1) and the
// shells use them.
constexpr int kExitCannotRun = 126;
constexpr int kExitNotFound = 127;

struct BindOptions {
  int64_t local_rank = -1;
  int64_t nproc = -1;
  std::string policy = "cores";
  bool membind = false;
  std::string sysroot;
  bool print = false;
  bool json = false;
  bool verbose = false;
  std::string output;
  std::vector<std::string> command;
};

// The first of `names` that is set: its name and whole-number value;
// {"", -1} when none is; an error when the value is not a number in range.
Result<std::pair<std::string, int64_t>> FromEnvironment(const std::vector<const char*>& names,
                                                        int64_t min) {
  for (const char* name : names) {
    const char* value = std::getenv(name);
    if (value == nullptr || *value == '\0') continue;
    const std::string_view text(value);
    int64_t v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size() || v < min || v >= kMaxLocalRanks) {
      return InvalidInput(fmt::format("{}={}: expected a whole number from {} to {}", name, text,
                                      min, kMaxLocalRanks - 1));
    }
    return std::make_pair(std::string(name), v);
  }
  return std::make_pair(std::string(), int64_t{-1});
}

int RunBind(BindOptions options) {
  if (!options.sysroot.empty() && !options.print) {
    return ReportError(InvalidInput(
        "--sysroot plans another machine's binding: use it with --print (nothing is run)"));
  }
  if (options.json && !options.print) return ReportError(InvalidInput("--json needs --print"));
  if (!options.print && options.command.empty()) {
    return ReportError(InvalidInput("nothing to run: perfdx bind [flags] -- CMD [ARGS...]"));
  }
  if (options.nproc < 0) {
    auto env = FromEnvironment(
        {"LOCAL_WORLD_SIZE", "SLURM_NTASKS_PER_NODE", "OMPI_COMM_WORLD_LOCAL_SIZE"}, 1);
    if (!env.ok()) return ReportError(env.status());
    options.nproc = env->second;
  }
  if (options.nproc < 0) {
    return ReportError(InvalidInput(
        "--nproc-per-node not given, and none of LOCAL_WORLD_SIZE, SLURM_NTASKS_PER_NODE, "
        "OMPI_COMM_WORLD_LOCAL_SIZE is set"));
  }
  if (options.local_rank < 0 && !options.print) {
    auto env = FromEnvironment({"LOCAL_RANK", "SLURM_LOCALID", "OMPI_COMM_WORLD_LOCAL_RANK"}, 0);
    if (!env.ok()) return ReportError(env.status());
    options.local_rank = env->second;
    if (options.local_rank < 0) {
      return ReportError(
          InvalidInput("--local-rank not given, and none of LOCAL_RANK, SLURM_LOCALID, "
                       "OMPI_COMM_WORLD_LOCAL_RANK is set"));
    }
  }
  if (options.local_rank >= options.nproc) {
    return ReportError(InvalidInput(fmt::format("local rank {} is not below --nproc-per-node {}",
                                                options.local_rank, options.nproc)));
  }

  host::HostTopology topology;
  std::string topology_note;
  if (!options.sysroot.empty()) {
    std::error_code ec;
    if (!std::filesystem::is_directory(options.sysroot, ec)) {
      return ReportError(NotFound(fmt::format("{}: not a folder (--sysroot)", options.sysroot)));
    }
    topology = host::ReadSysfsTopology(host::SysRoot(options.sysroot));
  } else if (auto live = host::ReadHwlocTopology(); live.ok()) {
    topology = std::move(*live);
  } else {
    topology = host::ReadSysfsTopology(host::SysRoot("/"));
    topology_note =
        fmt::format("hwloc failed ({}); the topology is read from /sys", live.status().message());
  }
  if (topology.cpus.empty()) {
    return ReportError(NotFound(
        fmt::format("no CPU found under {}", options.sysroot.empty() ? "/" : options.sysroot)));
  }

  host::BindRequest request;
  request.nproc = static_cast<int>(options.nproc);
  request.policy = options.policy == "numa"    ? host::BindPolicy::kNuma
                   : options.policy == "split" ? host::BindPolicy::kSplit
                                               : host::BindPolicy::kCores;
  request.membind = options.membind;
  for (const char* name :
       {"CUDA_VISIBLE_DEVICES", "ASCEND_RT_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER"}) {
    if (const char* v = std::getenv(name)) request.env[name] = v;
  }
  auto plan = host::MakeBindPlan(topology, request);
  if (!plan.ok()) return ReportError(plan.status());
  if (!topology_note.empty()) plan->notes.push_back(topology_note);

  if (options.print) {
    const std::string text = options.json
                                 ? report::RenderBindPlanJson(*plan)
                                 : report::RenderBindPlanText(
                                       *plan, TextWidth(ReadTerminal(), options.output.empty() ||
                                                                            options.output == "-"));
    if (Status s = io::WriteOutputFile(options.output, text); !s.ok()) return ReportError(s);
    return kExitOk;
  }

  const host::RankBinding& rank = plan->ranks[static_cast<size_t>(options.local_rank)];
  if (Status s = host::ApplyBinding(rank, options.membind); !s.ok()) return ReportError(s);
  // What the rank was given, for its own threads (split: the main thread's
  // core and the workers').
  setenv("PERFDX_BIND_CPUS", host::FormatCpuList(rank.cpus).c_str(), 1);
  if (plan->policy == host::BindPolicy::kSplit) {
    setenv("PERFDX_BIND_MAIN_CPUS", host::FormatCpuList(rank.main_cpus).c_str(), 1);
    setenv("PERFDX_BIND_WORKER_CPUS", host::FormatCpuList(rank.worker_cpus).c_str(), 1);
  }
  if (options.verbose) {
    std::fprintf(
        stderr, "perfdx bind: local rank %lld: CPUs %s, memory %s\n",
        static_cast<long long>(options.local_rank), host::FormatCpuList(rank.cpus).c_str(),
        rank.mem_node < 0
            ? "no policy"
            : fmt::format("{} node {}", options.membind ? "bind" : "preferred", rank.mem_node)
                  .c_str());
  }
  std::vector<char*> argv;
  for (auto& arg : options.command) argv.push_back(arg.data());
  argv.push_back(nullptr);
  std::fflush(nullptr);
  execvp(argv[0], argv.data());
  const int err = errno;
  std::fprintf(stderr, "perfdx: error: %s: %s\n", options.command.front().c_str(),
               std::strerror(err));
  return err == ENOENT ? kExitNotFound : kExitCannotRun;
}

}  // namespace

void RegisterBindCommand(CLI::App& app, int* exit_code) {
  auto options = std::make_shared<BindOptions>();
  CLI::App* command = app.add_subcommand(
      "bind",
      "start a rank on the CPUs and memory of its accelerator's NUMA node, then exec CMD "
      "(--print: the plan of every rank)");
  command
      ->add_option("--local-rank", options->local_rank,
                   "this rank on the machine (default: LOCAL_RANK, SLURM_LOCALID, "
                   "OMPI_COMM_WORLD_LOCAL_RANK)")
      ->check(WholeNumber("--local-rank", 0, kMaxLocalRanks - 1));
  command
      ->add_option("--nproc-per-node", options->nproc,
                   "ranks on this machine (default: LOCAL_WORLD_SIZE, SLURM_NTASKS_PER_NODE, "
                   "OMPI_COMM_WORLD_LOCAL_SIZE)")
      ->check(WholeNumber("--nproc-per-node", 1, kMaxLocalRanks - 1));
  command
      ->add_option("--policy", options->policy,
                   "numa: the whole node; cores: the node's cores split between its ranks; "
                   "split: as cores, the first core for the main thread")
      ->check(CLI::IsMember({"numa", "cores", "split"}))
      ->capture_default_str();
  command->add_flag("--membind", options->membind,
                    "allocate only on the node (MPOL_BIND) instead of preferring it");
  command->add_option("--sysroot", options->sysroot,
                      "plan from the sysfs files under this folder (with --print)");
  command->add_flag("--print", options->print,
                    "print the plan of every rank and the equivalent taskset, numactl and "
                    "CPU_AFFINITY_CONF lines; run nothing");
  command->add_flag("--json", options->json, "with --print: machine-readable output");
  command->add_flag("-v,--verbose", options->verbose, "one line on stderr with the binding");
  AddOutputOption(command, &options->output);
  command->add_option("command", options->command, "the command to run, after --");
  command->callback([options, exit_code] { *exit_code = RunBind(*options); });
}

}  // namespace perfdx::cli
