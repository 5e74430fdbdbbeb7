// ::operator new for the programs that own their process (the CLI, the
// benches): linked into them as an object (perfdx_base_huge_page_new), never into
// the library or the Python module. See allocator.h. A sanitizer's runtime
// has its own operator new, which checks new against delete; there this
// file replaces nothing.
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <new>

#include "perfdx/base/allocator.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
#define PERFDX_SANITIZER_NEW 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define PERFDX_SANITIZER_NEW 1
#endif

namespace perfdx::base {
#if !defined(PERFDX_SANITIZER_NEW)
namespace {

// The kernel's transparent huge page size, read once with plain system calls:
// this runs inside operator new, where an allocation would recurse. 0 when the
// kernel has no transparent huge pages.
size_t ReadHugePageBytes() {
  const int fd = ::open("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  char text[32] = {};
  const ssize_t n = ::read(fd, text, sizeof(text) - 1);
  ::close(fd);
  size_t bytes = 0;
  for (ssize_t i = 0; i < n && text[i] >= '0' && text[i] <= '9'; ++i) {
    bytes = bytes * 10 + static_cast<size_t>(text[i] - '0');
  }
  // A power of two of at least a page, or nothing.
  if (bytes < 4096 || (bytes & (bytes - 1)) != 0) return 0;
  return bytes;
}

// Blocks of this many huge pages or more are advised. A block is touched
// from its start; advised, what is touched is rounded up to a whole huge page,
// so a quarter of the block at most becomes resident beyond it. Smaller blocks
// would pay more: simdjson's structural index for a 1 MiB chunk (5.3 MB,
// about a seventh of it written) took 2 MB more of a 35 MB trace's RSS.
constexpr size_t kAdvisedHugePages = 4;

void AdviseHugePages(void* block, size_t bytes) {
  const size_t huge = HugePageAdviceBytes();
  if (huge == 0 || bytes < kAdvisedHugePages * huge) return;
  const auto begin = reinterpret_cast<uintptr_t>(block);
  const uintptr_t first = (begin + huge - 1) & ~(huge - 1);
  const uintptr_t last = (begin + bytes) & ~(huge - 1);
  // Advice: where the kernel refuses, the block stays in small pages.
  if (first < last) ::madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
}

}  // namespace
#endif

size_t HugePageAdviceBytes() {
#if defined(PERFDX_SANITIZER_NEW)
  return 0;
#else
  static const size_t bytes = ReadHugePageBytes();
  return bytes;
#endif
}

}  // namespace perfdx::base

#if !defined(PERFDX_SANITIZER_NEW)
// Replaceable: [new.delete.single]. libstdc++'s array and nothrow forms call
// these. Failure follows the standard: the new-handler,
// then std::bad_alloc.
void* operator new(std::size_t bytes) {
  const size_t asked = bytes == 0 ? 1 : bytes;
  void* block = std::malloc(asked);
  while (block == nullptr) {
    std::new_handler handler = std::get_new_handler();
    if (handler == nullptr) throw std::bad_alloc();
    handler();
    block = std::malloc(asked);
  }
  perfdx::base::AdviseHugePages(block, asked);
  return block;
}

void operator delete(void* block) noexcept {
  std::free(block);
}

void operator delete(void* block, std::size_t) noexcept {
  std::free(block);
}
#endif
