#include "perfdx/model/arg_key.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace perfdx::model {
namespace {

TEST(ArgKeyTest, EverySpellingMapsToItsKey) {
  struct Case {
    const char* spelling;
    ArgKey key;
  };
  // Spellings from Kineto (both capitalisations of "External id"), torch_npu
  // device tasks and HCCL tasks.
  const Case cases[] = {
      {"External id", ArgKey::kExternalId},  {"external id", ArgKey::kExternalId},
      {"correlation", ArgKey::kCorrelation}, {"Input Dims", ArgKey::kInputDims},
      {"Input dims", ArgKey::kInputDims},    {"stream", ArgKey::kStream},
      {"Task Type", ArgKey::kTaskType},      {"task type", ArgKey::kTaskType},
      {"size(Byte)", ArgKey::kSizeBytes},    {"Process Group Name", ArgKey::kProcessGroupName},
      {"Bytes", ArgKey::kMemBytes},
  };
  for (const Case& c : cases) {
    ArgKey key;
    ASSERT_TRUE(LookupArgKey(c.spelling, &key)) << c.spelling;
    EXPECT_EQ(key, c.key) << c.spelling;
  }
  ArgKey key;
  EXPECT_FALSE(LookupArgKey("Call stack", &key));
  // Args nothing reads are not kept (arg_keys_read_test): a kernel's launch
  // configuration and occupancy, an op's sequence number, a device task's
  // stream and task ids, a bandwidth the profiler computed.
  for (const char* unread : {"grid", "registers per thread", "est. achieved occupancy %", "bytes",
                             "Sequence number", "Physic Stream Id", "bandwidth(GB/s)"}) {
    EXPECT_FALSE(LookupArgKey(unread, &key)) << unread;
  }
  EXPECT_FALSE(LookupArgKey("", &key));
  EXPECT_FALSE(LookupArgKey("a key far longer than any spelling perfdx keeps", &key));
}

// Every spelling of the table is found, and no text that differs from all of
// them in one byte is: the lookup compares words, and a byte in the middle
// of a long key must count as much as its first.
TEST(ArgKeyTest, OneByteChangedAnywhereIsNotAKey) {
  struct Entry {
    ArgKey key;
    std::vector<std::string> spellings;
  };
  const std::vector<Entry> table = {
#define PERFDX_ARG_ENTRY(e, canonical, ...) {ArgKey::e, {__VA_ARGS__}},
      PERFDX_ARG_KEYS(PERFDX_ARG_ENTRY)
#undef PERFDX_ARG_ENTRY
  };
  size_t checked = 0;
  for (const Entry& entry : table) {
    for (const std::string& spelling : entry.spellings) {
      ArgKey key;
      ASSERT_TRUE(LookupArgKey(spelling, &key)) << spelling;
      EXPECT_EQ(key, entry.key) << spelling;
      for (size_t i = 0; i < spelling.size(); ++i) {
        std::string changed = spelling;
        changed[i] = '\x01';  // in no spelling
        EXPECT_FALSE(LookupArgKey(changed, &key)) << spelling << " byte " << i;
        ++checked;
      }
      EXPECT_FALSE(LookupArgKey(spelling.substr(0, spelling.size() - 1), &key) && key == entry.key)
          << spelling;
    }
  }
  EXPECT_GT(checked, 300u);
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
