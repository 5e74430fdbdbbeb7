#include "perfdx/host/bind_apply.h"

#include <linux/mempolicy.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include <climits>
#include <fmt/format.h>

#include "perfdx/host/cpu_list.h"

namespace perfdx::host {

Status ApplyBinding(const RankBinding& rank, bool membind) {
  if (rank.cpus.empty()) return InvalidInput("the binding has no CPU");
  // CPU_ALLOC: a fixed cpu_set_t holds 1024 CPUs.
  const int count = rank.cpus.back() + 1;
  cpu_set_t* set = CPU_ALLOC(count);
  if (set == nullptr) return OutOfMemory("CPU_ALLOC");
  const size_t bytes = CPU_ALLOC_SIZE(count);
  CPU_ZERO_S(bytes, set);
  for (int id : rank.cpus) CPU_SET_S(id, bytes, set);
  const int rc = sched_setaffinity(0, bytes, set);
  const int err = errno;
  CPU_FREE(set);
  if (rc != 0) {
    return IoError(fmt::format("sched_setaffinity to CPUs {}: {}", FormatCpuList(rank.cpus),
                               std::strerror(err)));
  }
  if (rank.mem_node < 0) return Status::Ok();
  // The syscall itself (glibc has no wrapper; libnuma would be one more
  // dependency for one call). maxnode counts bits, and the kernel reads one
  // fewer than it is given (numactl passes size + 1).
  constexpr int kBitsPerWord = static_cast<int>(sizeof(unsigned long) * CHAR_BIT);
  std::vector<unsigned long> mask(static_cast<size_t>(rank.mem_node / kBitsPerWord + 1), 0);
  mask[static_cast<size_t>(rank.mem_node / kBitsPerWord)] |= 1UL << (rank.mem_node % kBitsPerWord);
  const unsigned long maxnode = mask.size() * kBitsPerWord + 1;
  const int mode = membind ? MPOL_BIND : MPOL_PREFERRED;
  if (syscall(SYS_set_mempolicy, mode, mask.data(), maxnode) != 0) {
    return IoError(fmt::format("set_mempolicy({}, node {}): {}",
                               membind ? "MPOL_BIND" : "MPOL_PREFERRED", rank.mem_node,
                               std::strerror(errno)));
  }
  return Status::Ok();
}

}  // namespace perfdx::host
