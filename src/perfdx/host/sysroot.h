// Reads the files of a machine's /sys, /proc and /dev under a root: "/" for
// the machine perfdx runs on, a fixture tree (tests/data/host/<machine>) or a
// copy of another machine's files for --sysroot. A file that is missing or
// cannot be read is std::nullopt: a check reports "unknown", never fails.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace perfdx::host {

class SysRoot {
 public:
  explicit SysRoot(std::string root = "/");

  const std::string& root() const { return root_; }
  // True for "/": the live system (getrlimit, sched_getaffinity and hwloc
  // describe it; under another root only files do).
  bool live() const { return root_ == "/"; }

  // `abs` is an absolute path on the machine ("/proc/meminfo").
  std::string Path(std::string_view abs) const;
  // The whole file, at most 16 MiB (a /proc/interrupts of 1024 CPUs and
  // thousands of IRQs is a few MiB).
  std::optional<std::string> Read(std::string_view abs) const;
  // The first line without its newline and surrounding blanks.
  std::optional<std::string> ReadLine(std::string_view abs) const;
  // A decimal integer file (numa_node, scaling_cur_freq).
  std::optional<long long> ReadInt(std::string_view abs) const;
  // A hexadecimal file ("0x10de\n": vendor, class).
  std::optional<unsigned long> ReadHex(std::string_view abs) const;
  bool Exists(std::string_view abs) const;
  // Entry names of a folder, sorted; empty when it does not exist.
  std::vector<std::string> List(std::string_view abs_dir) const;

 private:
  std::string root_;
};

// The number after `prefix` in a name ("cpu12" -> 12, "node3" -> 3), or -1
// when the rest is not a whole decimal number ("cpufreq", "cpuidle").
int NumberedName(std::string_view name, std::string_view prefix);

}  // namespace perfdx::host
