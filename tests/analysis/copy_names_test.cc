// The copy-name grammar (analysis/copy_names.h), one case per name the
// shared and example traces hold (counted with Python's json module: 7401
// DtoD, 349 pinned HtoD, 136 pageable DtoH, 88 pageable HtoD, 2 "Host"),
// and names that only look like one.
#include "perfdx/analysis/copy_names.h"

#include <gtest/gtest.h>

namespace perfdx::analysis {
namespace {

void ExpectEnds(std::string_view name, CopyMemory source, CopyMemory destination) {
  const auto ends = ParseCopyName(name);
  ASSERT_TRUE(ends.has_value()) << name;
  EXPECT_EQ(ends->source, source) << name;
  EXPECT_EQ(ends->destination, destination) << name;
}

TEST(CopyNamesTest, EveryCopyNameTheTracesHold) {
  ExpectEnds("Memcpy DtoD (Device -> Device)", CopyMemory::kDevice, CopyMemory::kDevice);
  ExpectEnds("Memcpy HtoD (Pinned -> Device)", CopyMemory::kPinned, CopyMemory::kDevice);
  ExpectEnds("Memcpy DtoH (Device -> Pageable)", CopyMemory::kDevice, CopyMemory::kPageable);
  ExpectEnds("Memcpy HtoD (Pageable -> Device)", CopyMemory::kPageable, CopyMemory::kDevice);
  ExpectEnds("Memcpy HtoD (Host -> Device)", CopyMemory::kHost, CopyMemory::kDevice);
  ExpectEnds("Memcpy DtoH (Device -> Pinned)", CopyMemory::kDevice, CopyMemory::kPinned);
}

TEST(CopyNamesTest, OnlyPageableEndsBlock) {
  EXPECT_TRUE(IsBlockingCopy("Memcpy HtoD (Pageable -> Device)"));
  EXPECT_TRUE(IsBlockingCopy("Memcpy DtoH (Device -> Pageable)"));
  EXPECT_FALSE(IsBlockingCopy("Memcpy HtoD (Pinned -> Device)"));
  EXPECT_FALSE(IsBlockingCopy("Memcpy DtoD (Device -> Device)"));
  // Of unrecorded kind: not known to block.
  EXPECT_FALSE(IsBlockingCopy("Memcpy HtoD (Host -> Device)"));
}

TEST(CopyNamesTest, NamesThatOnlyLookLikeACopy) {
  for (std::string_view name :
       {"Memcpy", "Memcpy HtoD", "Memcpy HtoD (Pageable -> Device",
        "Memcpy XtoY (Pageable -> Device)", "Memcpy HtoD (Pageable to Device)",
        "Memcpy HtoD (Paged -> Device)", "MemcpyHtoD (Pageable -> Device)", "my_kernel_Pageable",
        "cudaMemcpyAsync", "Memset (Device)", "Memcpy HtoD (Pageable -> Device) extra"}) {
    EXPECT_FALSE(ParseCopyName(name).has_value()) << name;
    EXPECT_FALSE(IsBlockingCopy(name)) << name;
  }
}

}  // namespace
}  // namespace perfdx::analysis
