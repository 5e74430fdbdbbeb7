// cpu.*: model, topology, SMT, frequency governor and limits, isolated and
// nohz_full CPUs.
#include <algorithm>
#include <charconv>
#include <map>
#include <set>

#include <fmt/format.h>

#include "perfdx/host/cpu_list.h"
#include "perfdx/host/doctor_checks.h"

namespace perfdx::host::doctor {
namespace {

constexpr const char* kCpufreqDoc = "https://docs.kernel.org/admin-guide/pm/cpufreq.html";
constexpr const char* kTopologyDoc = "https://docs.kernel.org/admin-guide/cputopology.html";
constexpr const char* kParamsDoc = "https://docs.kernel.org/admin-guide/kernel-parameters.html";

// Arm CPUs name no model in /proc/cpuinfo: the implementer and part codes do
// (the MIDR fields; the codes lscpu's table holds).
struct ArmPart {
  unsigned implementer;
  unsigned part;
  const char* name;
};
constexpr ArmPart kArmParts[] = {
    {0x48, 0xd01, "HiSilicon Kunpeng 920 (TaiShan v110)"},
    {0x48, 0xd02, "HiSilicon TaiShan v120"},
    {0x41, 0xd0c, "Arm Neoverse N1"},
    {0x41, 0xd40, "Arm Neoverse V1"},
    {0x41, 0xd49, "Arm Neoverse N2"},
    {0x41, 0xd4f, "Arm Neoverse V2"},
};

std::string CpuinfoField(std::string_view text, std::string_view key) {
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t nl = std::min(text.find('\n', pos), text.size());
    std::string_view line = text.substr(pos, nl - pos);
    pos = nl + 1;
    if (!line.starts_with(key)) continue;
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    std::string_view name = line.substr(0, colon);
    while (!name.empty() && (name.back() == ' ' || name.back() == '\t')) name.remove_suffix(1);
    if (name != key) continue;
    std::string_view v = line.substr(colon + 1);
    while (!v.empty() && v.front() == ' ') v.remove_prefix(1);
    return std::string(v);
  }
  return {};
}

unsigned ParseHex(std::string_view s) {
  if (s.starts_with("0x")) s.remove_prefix(2);
  unsigned v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v, 16);
  return ec == std::errc() && end == s.data() + s.size() ? v : ~0u;
}

Check ModelCheck(const DoctorInput& in) {
  auto text = in.root.Read("/proc/cpuinfo");
  if (!text) return Unknown("cpu.model", "CPU model", "no /proc/cpuinfo");
  Check c = MakeCheck("cpu.model", "CPU model");
  c.level = Level::kInfo;
  c.value = CpuinfoField(*text, "model name");
  if (c.value.empty()) {
    const std::string implementer = CpuinfoField(*text, "CPU implementer");
    const std::string part = CpuinfoField(*text, "CPU part");
    if (!implementer.empty() && !part.empty()) {
      const unsigned impl = ParseHex(implementer);
      const unsigned p = ParseHex(part);
      c.value = fmt::format("Arm CPU implementer {} part {}", implementer, part);
      for (const auto& row : kArmParts) {
        if (row.implementer == impl && row.part == p) c.value = row.name;
      }
    }
  }
  if (c.value.empty()) return Unknown("cpu.model", "CPU model", "no model in /proc/cpuinfo");
  c.why = "the CPU the ranks' host threads run on";
  return c;
}

Check TopologyCheck(const DoctorInput& in) {
  const auto& t = in.topology;
  if (t.cpus.empty()) return Unknown("cpu.topology", "CPU topology", "no /sys/devices/system/cpu");
  std::set<int> packages;
  std::set<std::pair<int, int>> cores;
  for (const auto& cpu : t.cpus) {
    packages.insert(cpu.package);
    cores.insert({cpu.package, cpu.siblings.empty() ? cpu.id : cpu.siblings.front()});
  }
  Check c = MakeCheck("cpu.topology", "CPU topology");
  c.level = Level::kInfo;
  c.value = fmt::format("{} package{}, {} cores, {} CPUs online ({})", packages.size(),
                        packages.size() == 1 ? "" : "s", cores.size(), t.cpus.size(),
                        FormatCpuList(t.OnlineCpuIds()));
  if (t.allowed_cpus.size() != t.cpus.size()) {
    c.value += fmt::format("; this process may use {}", FormatCpuList(t.allowed_cpus));
  }
  c.why = "sockets, cores and SMT threads from topology/ of each CPU";
  c.source = kTopologyDoc;
  return c;
}

Check SmtCheck(const DoctorInput& in) {
  const auto& t = in.topology;
  size_t threads = 1;
  for (const auto& cpu : t.cpus) threads = std::max(threads, cpu.siblings.size());
  const auto active = in.root.ReadInt("/sys/devices/system/cpu/smt/active");
  if (t.cpus.empty() && !active) return Unknown("cpu.smt", "SMT", "no CPU topology");
  Check c = MakeCheck("cpu.smt", "SMT (hyper-threading)");
  c.level = Level::kInfo;
  const bool on = active ? *active == 1 : threads > 1;
  c.value = on ? fmt::format("on, {} threads per core", threads) : "off";
  c.recommended = "either; bind each rank to whole cores (perfdx bind --policy cores)";
  c.why =
      "SMT threads of one core share its execution units: two ranks' main threads on one core "
      "slow each other down; perfdx bind gives each rank whole cores";
  c.source = kTopologyDoc;
  return c;
}

Check GovernorCheck(const DoctorInput& in) {
  std::map<std::string, std::vector<int>> by_governor;
  std::string driver;
  for (const auto& cpu : in.topology.cpus) {
    const std::string dir = fmt::format("/sys/devices/system/cpu/cpu{}/cpufreq", cpu.id);
    if (auto g = in.root.ReadLine(dir + "/scaling_governor")) by_governor[*g].push_back(cpu.id);
    if (driver.empty()) driver = in.root.ReadLine(dir + "/scaling_driver").value_or("");
  }
  if (by_governor.empty()) {
    return Unknown("cpu.governor", "CPU frequency governor",
                   "no cpufreq/scaling_governor: cpufreq is off or the firmware or hypervisor "
                   "controls the frequency");
  }
  Check c = MakeCheck("cpu.governor", "CPU frequency governor");
  std::string value;
  for (const auto& [governor, cpus] : by_governor) {
    if (!value.empty()) value += "; ";
    value += fmt::format("{} on {} of {} CPUs ({})", governor, cpus.size(), in.topology.cpus.size(),
                         FormatCpuList(cpus));
  }
  if (!driver.empty()) value += fmt::format(", driver {}", driver);
  c.value = value;
  c.recommended = "performance on every CPU";
  const bool all_performance = by_governor.size() == 1 && by_governor.count("performance");
  c.level = all_performance ? Level::kOk : Level::kWarning;
  c.why =
      "a power-saving governor lowers the clock between bursts, and a training rank's host "
      "thread works in bursts (kernel launches, data loading): each step pays for the ramp-up";
  c.source = kCpufreqDoc;
  if (!all_performance) {
    c.fix = "echo performance | sudo tee /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor";
  }
  return c;
}

Check FrequencyCheck(const DoctorInput& in) {
  std::vector<int64_t> cur;
  std::vector<int> capped;
  int64_t hw_max = 0;
  int64_t limit = 0;
  for (const auto& cpu : in.topology.cpus) {
    const std::string dir = fmt::format("/sys/devices/system/cpu/cpu{}/cpufreq", cpu.id);
    if (auto f = in.root.ReadInt(dir + "/scaling_cur_freq")) cur.push_back(*f);
    const auto max = in.root.ReadInt(dir + "/scaling_max_freq");
    const auto cpuinfo_max = in.root.ReadInt(dir + "/cpuinfo_max_freq");
    if (max) limit = std::max<int64_t>(limit, *max);
    if (cpuinfo_max) hw_max = std::max<int64_t>(hw_max, *cpuinfo_max);
    if (max && cpuinfo_max && *max < *cpuinfo_max) capped.push_back(cpu.id);
  }
  if (cur.empty() && hw_max == 0) {
    return Unknown("cpu.frequency", "CPU frequency", "no cpufreq/scaling_cur_freq");
  }
  Check c = MakeCheck("cpu.frequency", "CPU frequency");
  std::sort(cur.begin(), cur.end());
  if (!cur.empty()) {
    c.value = cur.front() == cur.back()
                  ? fmt::format("now {} MHz", cur.front() / 1000)
                  : fmt::format("now {}-{} MHz (median {})", cur.front() / 1000, cur.back() / 1000,
                                cur[cur.size() / 2] / 1000);
  }
  if (hw_max > 0) {
    c.value += fmt::format("{}hardware maximum {} MHz", c.value.empty() ? "" : ", ", hw_max / 1000);
  }
  c.recommended = "scaling_max_freq at cpuinfo_max_freq on every CPU";
  c.source = kCpufreqDoc;
  if (!capped.empty()) {
    c.level = Level::kWarning;
    c.value +=
        fmt::format("; the limit scaling_max_freq is lowered on CPUs {}", FormatCpuList(capped));
    c.why = "a lowered scaling_max_freq caps every core, whatever the governor";
    c.fix = fmt::format(
        "for f in /sys/devices/system/cpu/cpu*/cpufreq; do cat $f/cpuinfo_max_freq | sudo tee "
        "$f/scaling_max_freq; done");
  } else {
    c.level = Level::kInfo;
    c.why = "the clock now; a snapshot, for the governor and limits that set it";
  }
  return c;
}

Check CpuSetFileCheck(const DoctorInput& in, const std::string& id, const std::string& title,
                      const std::string& file, const std::string& effect) {
  auto text = in.root.ReadLine(file);
  if (!text) return Unknown(id, title, "no " + file);
  // nohz_full reads "(null)" when the kernel has the feature and it is unset.
  std::vector<int> cpus;
  if (*text != "(null)") {
    if (auto parsed = ParseCpuList(*text); parsed.ok()) cpus = *parsed;
  }
  Check c = MakeCheck(id, title);
  c.source = kParamsDoc;
  if (cpus.empty()) {
    c.level = Level::kOk;
    c.value = "none";
    return c;
  }
  c.level = Level::kInfo;
  c.value = FormatCpuList(cpus);
  const auto allowed_overlap = Intersect(cpus, in.topology.allowed_cpus);
  c.recommended = "CPUs set apart on purpose; bind the ranks to them explicitly or not at all";
  c.why = fmt::format(
      "{}{}", effect,
      allowed_overlap.empty() ? "" : "; this process may run on " + FormatCpuList(allowed_overlap));
  return c;
}

}  // namespace

void AddCpuChecks(const DoctorInput& input, std::vector<Check>* out) {
  out->push_back(ModelCheck(input));
  out->push_back(TopologyCheck(input));
  out->push_back(SmtCheck(input));
  out->push_back(GovernorCheck(input));
  out->push_back(FrequencyCheck(input));
  out->push_back(CpuSetFileCheck(input, "cpu.isolated", "isolated CPUs",
                                 "/sys/devices/system/cpu/isolated",
                                 "isolcpus= keeps these CPUs out of the scheduler's load "
                                 "balancing: threads are not moved onto them"));
  out->push_back(CpuSetFileCheck(input, "cpu.nohz_full", "nohz_full CPUs",
                                 "/sys/devices/system/cpu/nohz_full",
                                 "nohz_full= stops the timer tick on these CPUs while one task "
                                 "runs there: a rank's main thread alone on one runs without "
                                 "tick interruptions"));
}

}  // namespace perfdx::host::doctor
