// perfdx doctor: what on this machine slows training, each check with its
// value, the recommended value, why (with the document that says so) and the
// exact command that changes it. No root needed; every file is read under a
// SysRoot, so a fixture tree or another machine's copy is checked the same
// way (docs/host.md lists each check).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "perfdx/host/sysroot.h"
#include "perfdx/host/topology.h"

namespace perfdx::host {

enum class Level { kOk, kInfo, kWarning, kCritical };
std::string_view LevelName(Level level);  // "ok", "info", "warning", "critical"
std::optional<Level> ParseLevel(std::string_view name);

struct Check {
  std::string id;     // stable: "cpu.governor", "irq.0000:1b:00.0", "env.TASK_QUEUE_ENABLE"
  std::string title;  // a few words for the text output
  Level level = Level::kInfo;
  bool known = true;  // false: the files it reads are missing ("unknown")
  std::string value;
  std::string recommended;
  std::string why;
  std::string source;  // the document that says so (URL)
  std::string fix;     // the exact command; "" when there is nothing to run
};

// Resource limits of the process; -1 is unlimited.
struct Limits {
  int64_t memlock_soft = -1;
  int64_t memlock_hard = -1;
  int64_t nofile_soft = -1;
  int64_t nofile_hard = -1;
};
// /proc/self/limits ("Max locked memory  8388608  8388608  bytes").
std::optional<Limits> ParseProcLimits(std::string_view text);

struct DoctorInput {
  SysRoot root;
  HostTopology topology;
  std::map<std::string, std::string> env;  // the training job's environment
  std::optional<Limits> limits;            // nullopt: unknown
};

// The live system (root "/": getrlimit) or a tree (its proc/self/limits,
// when present); the topology from sysfs under the root.
DoctorInput MakeDoctorInput(const SysRoot& root, std::map<std::string, std::string> env);
// This process's environment.
std::map<std::string, std::string> ProcessEnvironment();

struct DoctorReport {
  std::string root;
  std::vector<Check> checks;
  int Count(Level level) const;
  int Unknown() const;
  // The highest level among the checks (kOk when there is none).
  Level Worst() const;
};

// The output, text or JSON, is report/doctor_report.h's.
DoctorReport RunDoctor(const DoctorInput& input);

// "34 checks: 20 ok, 8 info, 5 warning, 1 critical (3 unknown)"
std::string DoctorSummary(const DoctorReport& report);

}  // namespace perfdx::host
