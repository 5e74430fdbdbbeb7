// The kernel's cpulist syntax ("0-23,48-71"), used by sysfs (node*/cpulist,
// local_cpulist, thread_siblings_list), /proc/irq/N/smp_affinity_list and
// /proc/self/status (Cpus_allowed_list): parsed into sorted, unique ids and
// written back the way the kernel writes it (shortest ranges, ascending).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "perfdx/base/status.h"

namespace perfdx::host {

// "" (an empty list, as isolated and nohz_full are when unset) is an empty
// vector; anything but digits, '-', ',' and surrounding whitespace is an error.
Result<std::vector<int>> ParseCpuList(std::string_view text);
std::string FormatCpuList(const std::vector<int>& sorted_ids);

// Set operations on sorted, unique id vectors.
std::vector<int> Intersect(const std::vector<int>& a, const std::vector<int>& b);
std::vector<int> Subtract(const std::vector<int>& a, const std::vector<int>& b);
bool IsSubset(const std::vector<int>& part, const std::vector<int>& whole);
// A single range a-b (CPU_AFFINITY_CONF's npuN:a-b takes only one).
bool IsContiguous(const std::vector<int>& sorted_ids);

}  // namespace perfdx::host
