#include "perfdx/model/arg_key.h"

#include <gtest/gtest.h>

namespace perfdx::model {
namespace {

TEST(ArgKeyTest, EverySpellingMapsToItsKey) {
  struct Case {
    const char* spelling;
    ArgKey key;
  };
  // Spellings from Kineto (both capitalisations of "External id"), torch_npu
  // device tasks ("Physic Stream Id" and the older "Stream Id") and HCCL tasks.
  const Case cases[] = {
      {"External id", ArgKey::kExternalId},
      {"external id", ArgKey::kExternalId},
      {"correlation", ArgKey::kCorrelation},
      {"Input Dims", ArgKey::kInputDims},
      {"Input dims", ArgKey::kInputDims},
      {"Physic Stream Id", ArgKey::kStreamId},
      {"Stream Id", ArgKey::kStreamId},
      {"stream id", ArgKey::kStreamId},
      {"Task Type", ArgKey::kTaskType},
      {"task type", ArgKey::kTaskType},
      {"size(Byte)", ArgKey::kSizeBytes},
      {"bandwidth(GB/s)", ArgKey::kBandwidthGbps},
      {"memory bandwidth (GB/s)", ArgKey::kMemoryBandwidthGbps},
      {"est. achieved occupancy %", ArgKey::kOccupancyPct},
      {"Process Group Ranks", ArgKey::kProcessGroupRanks},
      {"Bytes", ArgKey::kMemBytes},
      {"bytes", ArgKey::kBytes},
  };
  for (const Case& c : cases) {
    ArgKey key;
    ASSERT_TRUE(LookupArgKey(c.spelling, &key)) << c.spelling;
    EXPECT_EQ(key, c.key) << c.spelling;
  }
  ArgKey key;
  EXPECT_FALSE(LookupArgKey("Call stack", &key));
  EXPECT_FALSE(LookupArgKey("", &key));
  EXPECT_FALSE(LookupArgKey("a key far longer than any spelling perfdx keeps", &key));
}

TEST(ArgKeyTest, CanonicalNamesAreDistinct) {
  for (size_t i = 0; i < kArgKeyCount; ++i) {
    for (size_t j = i + 1; j < kArgKeyCount; ++j) {
      EXPECT_NE(ArgKeyName(static_cast<ArgKey>(i)), ArgKeyName(static_cast<ArgKey>(j)));
    }
  }
}

}  // namespace
}  // namespace perfdx::model
