#include "perfdx/base/allocator.h"

#include <cstdlib>  // defines __GLIBC__ on glibc, which the test below needs

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace perfdx::base {

void KeepLargeBlocksOutOfTheHeap() {
#if defined(__GLIBC__)
  // A fixed threshold also turns off glibc's raising of it after each free.
  mallopt(M_MMAP_THRESHOLD, 256 << 10);
#endif
}

}  // namespace perfdx::base
