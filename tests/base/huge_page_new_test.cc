// The replaced ::operator new of perfdx_base_huge_page_new (base/allocator.h):
// which blocks it advises, read back from the kernel's own account of the
// process's mappings (/proc/self/smaps, "hg" among a mapping's VmFlags).
#include <cstdint>
#include <fstream>
#include <memory>
#include <new>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "perfdx/base/allocator.h"

namespace perfdx::base {
namespace {

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
constexpr bool kSanitizerNew = true;
#else
constexpr bool kSanitizerNew = false;
#endif
#elif defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kSanitizerNew = true;
#else
constexpr bool kSanitizerNew = false;
#endif

// The kernel's huge page size, 0 without transparent huge pages.
size_t KernelHugePageBytes() {
  std::ifstream in("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size");
  size_t bytes = 0;
  return in >> bytes ? bytes : 0;
}

// The VmFlags line of the mapping holding `address`; "" if none holds it.
std::string VmFlagsAt(const void* address) {
  const auto a = reinterpret_cast<uintptr_t>(address);
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    uintptr_t begin = 0;
    uintptr_t end = 0;
    char dash = 0;
    std::istringstream range(line);
    // A mapping's first line starts "begin-end "; its fields' lines are
    // "Name: value", and no name is hex digits and a dash.
    if (range >> std::hex >> begin >> dash >> end && dash == '-') {
      inside = begin <= a && a < end;
      continue;
    }
    if (inside && line.rfind("VmFlags:", 0) == 0) return line;
  }
  return "";
}

bool AdvisedHuge(const void* address) {
  return (VmFlagsAt(address) + " ").find(" hg ") != std::string::npos;
}

TEST(HugePageNewTest, AdvisesInTheKernelsHugePageSizeOutsideSanitizerBuilds) {
  if (kSanitizerNew) {
    EXPECT_EQ(HugePageAdviceBytes(), 0u);
  } else {
    EXPECT_EQ(HugePageAdviceBytes(), KernelHugePageBytes());
  }
}

TEST(HugePageNewTest, ABlockOfFourHugePagesOrMoreIsAdvisedInsideItsHugePages) {
  const size_t huge = HugePageAdviceBytes();
  if (huge == 0) {
    ASSERT_TRUE(kSanitizerNew || KernelHugePageBytes() == 0) << "advice off without a reason";
    return;
  }
  const size_t bytes = 4 * huge + 12345;
  auto block = std::make_unique_for_overwrite<char[]>(bytes);
  const auto begin = reinterpret_cast<uintptr_t>(block.get());
  const uintptr_t first = (begin + huge - 1) & ~(huge - 1);
  const uintptr_t last = (begin + bytes) & ~(huge - 1);
  ASSERT_LT(first, last);
  EXPECT_TRUE(AdvisedHuge(reinterpret_cast<void*>(first))) << VmFlagsAt(block.get());
  EXPECT_TRUE(AdvisedHuge(reinterpret_cast<void*>(last - 1)));
  // The bytes of the block outside its whole huge pages are not advised.
  if (first > begin) {
    EXPECT_FALSE(AdvisedHuge(reinterpret_cast<void*>(first - 1)));
  }
  // Usable from end to end.
  block[0] = 1;
  block[bytes - 1] = 2;
  EXPECT_EQ(block[0] + block[bytes - 1], 3);
}

TEST(HugePageNewTest, ASmallerBlockIsLeftInSmallPages) {
  const size_t huge = HugePageAdviceBytes();
  if (huge == 0) return;  // the test above says why
  // Under four huge pages: simdjson's structural index for a 1 MiB chunk
  // (5.3 MB) is such a block.
  const size_t bytes = 4 * huge - 4096;
  auto block = std::make_unique_for_overwrite<char[]>(bytes);
  for (size_t offset = 0; offset < bytes; offset += huge / 2) {
    EXPECT_FALSE(AdvisedHuge(block.get() + offset)) << offset;
  }
}

TEST(HugePageNewTest, FailureCallsTheNewHandlerThenThrowsBadAlloc) {
  // A sanitizer's operator new reports the size instead (and this file's
  // is not built there).
  if (kSanitizerNew) return;
  static int calls = 0;
  calls = 0;
  std::set_new_handler([] {
    ++calls;
    std::set_new_handler(nullptr);  // the next failure throws
  });
  // More than any address space: malloc fails without touching memory.
  // (Beyond PTRDIFF_MAX the new-expression itself throws, before any call.)
  volatile size_t impossible = SIZE_MAX / 4;
  // A call, not a new-expression, which the compiler may elide.
  EXPECT_THROW(::operator delete(::operator new(impossible)), std::bad_alloc);
  std::set_new_handler(nullptr);
  EXPECT_EQ(calls, 1);
}

}  // namespace
}  // namespace perfdx::base
