// Process-wide allocator settings, for the programs that own their process
// (the CLI, the benches); the library itself never changes them.
#pragma once

namespace perfdx::base {

// glibc serves blocks above a dynamic threshold (up to 32 MiB) from its heap,
// where a column that grows by doubling leaves each old block behind, free
// but resident: the model's columns then cost about twice their size while a
// trace loads. Blocks of 256 KiB and more are mapped on their own instead and
// returned to the system when freed (peak RSS of the 35 MB HTA control trace
// 20.6 -> 16.4 MiB, the 1 GB trace 386 -> 314 MiB; time unchanged).
void KeepLargeBlocksOutOfTheHeap();

}  // namespace perfdx::base
