// Process-wide allocator settings, for the programs that own their process
// (the CLI, the benches); the library itself never changes them.
#pragma once

#include <cstddef>

namespace perfdx::base {

// glibc serves blocks above a dynamic threshold (up to 32 MiB) from its heap,
// where a column that grows by doubling leaves each old block behind, free
// but resident: the model's columns then cost about twice their size while a
// trace loads. Blocks of 256 KiB and more are mapped on their own instead and
// returned to the system when freed (peak RSS of the 35 MB HTA control trace
// 20.6 -> 16.4 MiB, the 1 GB trace 386 -> 314 MiB; time unchanged).
void KeepLargeBlocksOutOfTheHeap();

// Where the program links perfdx_base_huge_page_new (the CLI and the benches do),
// ::operator new asks the kernel to back each block of four huge pages or more
// (8 MiB on x86-64) with transparent huge pages (madvise MADV_HUGEPAGE on the huge pages inside
// it), as glibc's tunable glibc.malloc.hugetlb=1 would, which a program cannot
// set for itself. The model's columns are such blocks; in small pages, each
// 4 KiB of them was a page fault and a TLB entry. On a virtual machine with
// THP in "madvise" mode (Debian's and Ubuntu's default) `perfdx info` on the
// 1 GB trace went 2.21 s -> 1.55 s, 117 k page faults -> 23 k
// (docs/PERFORMANCE.md, "huge pages"). Under "always" the kernel does this
// anyway, under "never" the advice is ignored. At most one huge page of a
// block beyond what is touched becomes resident, so a trace of 35 MB, whose
// blocks are all smaller, keeps its RSS.
//
// The huge page size advised in, or 0 where operator new is not replaced (a
// sanitizer's build) or the kernel has no transparent huge pages. Defined by
// perfdx_base_huge_page_new only.
size_t HugePageAdviceBytes();

}  // namespace perfdx::base
