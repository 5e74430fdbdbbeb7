#include "perfdx/base/strings.h"

#include <gtest/gtest.h>

namespace perfdx {
namespace {

TEST(StringsTest, AsciiLowerChangesOnlyAsciiCapitals) {
  EXPECT_EQ(AsciiLower("ProfilerStep#12"), "profilerstep#12");
  EXPECT_EQ(AsciiLower("RANK_3"), "rank_3");
  // Bytes of a UTF-8 sequence are left as they are.
  EXPECT_EQ(AsciiLower("\xC3\x84X"), "\xC3\x84x");
  EXPECT_EQ(AsciiLower('@'), '@');
  EXPECT_EQ(AsciiLower('['), '[');
}

TEST(StringsTest, EqualsNoCase) {
  EXPECT_TRUE(EqualsNoCase("Kernel", "kernel"));
  EXPECT_TRUE(EqualsNoCase("", ""));
  EXPECT_FALSE(EqualsNoCase("kernel", "kernels"));
  EXPECT_FALSE(EqualsNoCase("gpu_memcpy", "gpu_memset"));
}

TEST(StringsTest, StartsWithNoCaseAndContains) {
  EXPECT_TRUE(StartsWithNoCase("AscendCL@aclrtSetDevice", "ascendcl@"));
  EXPECT_FALSE(StartsWithNoCase("Ascend", "AscendCL"));
  EXPECT_TRUE(Contains("void ncclKernel_AllReduce", "ncclKernel"));
  EXPECT_FALSE(Contains("nccl", "ncclKernel"));
}

}  // namespace
}  // namespace perfdx
