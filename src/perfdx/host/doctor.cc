#include "perfdx/host/doctor.h"

#include <sys/resource.h>

#include <algorithm>
#include <charconv>

#include <fmt/format.h>

#include "perfdx/host/bind_plan.h"
#include "perfdx/host/doctor_checks.h"

extern char** environ;

namespace perfdx::host {
namespace {

int64_t LimitValue(rlim_t v) {
  return v == RLIM_INFINITY ? -1 : static_cast<int64_t>(v);
}

bool ParseLimitToken(std::string_view token, int64_t* out) {
  if (token == "unlimited") {
    *out = -1;
    return true;
  }
  const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), *out);
  return ec == std::errc() && end == token.data() + token.size() && *out >= 0;
}

}  // namespace

std::string_view LevelName(Level level) {
  switch (level) {
    case Level::kOk:
      return "ok";
    case Level::kInfo:
      return "info";
    case Level::kWarning:
      return "warning";
    case Level::kCritical:
      return "critical";
  }
  return "info";
}

std::optional<Level> ParseLevel(std::string_view name) {
  for (Level l : {Level::kOk, Level::kInfo, Level::kWarning, Level::kCritical}) {
    if (LevelName(l) == name) return l;
  }
  return std::nullopt;
}

std::optional<Limits> ParseProcLimits(std::string_view text) {
  Limits limits;
  int found = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t nl = std::min(text.find('\n', pos), text.size());
    std::string_view line = text.substr(pos, nl - pos);
    pos = nl + 1;
    int64_t* soft = nullptr;
    int64_t* hard = nullptr;
    std::string_view name;
    if (line.starts_with("Max locked memory")) {
      name = "Max locked memory", soft = &limits.memlock_soft, hard = &limits.memlock_hard;
    } else if (line.starts_with("Max open files")) {
      name = "Max open files", soft = &limits.nofile_soft, hard = &limits.nofile_hard;
    } else {
      continue;
    }
    line.remove_prefix(name.size());
    std::vector<std::string_view> tokens;
    size_t i = 0;
    while (i < line.size() && tokens.size() < 2) {
      while (i < line.size() && line[i] == ' ') ++i;
      size_t j = i;
      while (j < line.size() && line[j] != ' ') ++j;
      if (j > i) tokens.push_back(line.substr(i, j - i));
      i = j;
    }
    if (tokens.size() < 2 || !ParseLimitToken(tokens[0], soft) ||
        !ParseLimitToken(tokens[1], hard)) {
      return std::nullopt;
    }
    ++found;
  }
  if (found != 2) return std::nullopt;
  return limits;
}

DoctorInput MakeDoctorInput(const SysRoot& root, std::map<std::string, std::string> env) {
  DoctorInput input{root, ReadSysfsTopology(root), std::move(env), std::nullopt};
  if (root.live()) {
    rlimit memlock{};
    rlimit nofile{};
    if (getrlimit(RLIMIT_MEMLOCK, &memlock) == 0 && getrlimit(RLIMIT_NOFILE, &nofile) == 0) {
      input.limits = Limits{LimitValue(memlock.rlim_cur), LimitValue(memlock.rlim_max),
                            LimitValue(nofile.rlim_cur), LimitValue(nofile.rlim_max)};
    }
  } else if (auto text = root.Read("/proc/self/limits")) {
    input.limits = ParseProcLimits(*text);
  }
  return input;
}

std::map<std::string, std::string> ProcessEnvironment() {
  std::map<std::string, std::string> env;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    const std::string_view entry(*e);
    const size_t eq = entry.find('=');
    if (eq == std::string_view::npos || eq == 0) continue;
    env.emplace(std::string(entry.substr(0, eq)), std::string(entry.substr(eq + 1)));
  }
  return env;
}

int DoctorReport::Count(Level level) const {
  return static_cast<int>(std::count_if(checks.begin(), checks.end(),
                                        [&](const Check& c) { return c.level == level; }));
}

int DoctorReport::Unknown() const {
  return static_cast<int>(
      std::count_if(checks.begin(), checks.end(), [](const Check& c) { return !c.known; }));
}

Level DoctorReport::Worst() const {
  Level worst = Level::kOk;
  for (const auto& c : checks) worst = std::max(worst, c.level);
  return worst;
}

DoctorReport RunDoctor(const DoctorInput& input) {
  DoctorReport report;
  report.root = input.root.root();
  doctor::AddCpuChecks(input, &report.checks);
  doctor::AddMemoryChecks(input, &report.checks);
  doctor::AddDeviceChecks(input, &report.checks);
  doctor::AddLimitChecks(input, &report.checks);
  doctor::AddToolChecks(input, &report.checks);
  doctor::AddEnvChecks(input, &report.checks);
  return report;
}

std::string DoctorSummary(const DoctorReport& report) {
  return fmt::format("{} checks: {} ok, {} info, {} warning, {} critical ({} unknown)",
                     report.checks.size(), report.Count(Level::kOk), report.Count(Level::kInfo),
                     report.Count(Level::kWarning), report.Count(Level::kCritical),
                     report.Unknown());
}

namespace doctor {

Check MakeCheck(std::string id, std::string title) {
  Check c;
  c.id = std::move(id);
  c.title = std::move(title);
  return c;
}

Check Unknown(std::string id, std::string title, std::string what_is_missing) {
  Check c = MakeCheck(std::move(id), std::move(title));
  c.level = Level::kInfo;
  c.known = false;
  c.value = "unknown (" + what_is_missing + ")";
  return c;
}

std::string GiB(int64_t kb) {
  return fmt::format("{:.1f} GiB", static_cast<double>(kb) / (1 << 20));
}

int CpusPerRank(const HostTopology& topology) {
  BindRequest request;
  request.nproc = std::max<int>(1, static_cast<int>(topology.Accelerators().size()));
  request.policy = BindPolicy::kCores;
  auto plan = MakeBindPlan(topology, request);
  if (!plan.ok() || plan->ranks.empty()) return static_cast<int>(topology.allowed_cpus.size());
  size_t fewest = plan->ranks.front().cpus.size();
  for (const auto& r : plan->ranks) fewest = std::min(fewest, r.cpus.size());
  return static_cast<int>(fewest);
}

bool HasRdmaNic(const HostTopology& topology) {
  constexpr uint32_t kVendorMellanox = 0x15b3;
  for (const auto& d : topology.devices) {
    if (d.kind != DeviceKind::kNic) continue;
    if (d.vendor == kVendorMellanox || ((d.class_code >> 8) & 0xffff) == 0x0207) return true;
  }
  return false;
}

}  // namespace doctor
}  // namespace perfdx::host
