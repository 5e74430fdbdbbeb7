// The thresholds file: the defaults round-trip, an override changes only its
// value, and every kind of bad file is an error that names the file.
#include "perfdx/advisor/config.h"

#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "test_support.h"

namespace perfdx::advisor {
namespace {

using perfdx::testing::TempDir;

void ExpectSameBand(const Band& a, const Band& b, std::string_view name) {
  EXPECT_EQ(a.healthy, b.healthy) << name;
  EXPECT_EQ(a.abnormal, b.abnormal) << name;
  EXPECT_EQ(a.higher_is_better, b.higher_is_better) << name;
}

void ExpectSameThresholds(const Thresholds& a, const Thresholds& b) {
  for (const BandKey& key : ThresholdBands()) {
    ExpectSameBand(a.*key.member, b.*key.member, key.name);
  }
  for (const ScalarKey& key : ThresholdScalars()) {
    EXPECT_EQ(a.*key.member, b.*key.member) << key.name;
  }
}

// The error for `content` written to a file, which must name that file.
std::string ErrorFor(const TempDir& dir, const std::string& content) {
  const std::string path = dir.Write("perfdx.toml", content);
  Result<Thresholds> t = LoadThresholds(path);
  EXPECT_FALSE(t.ok()) << content;
  if (t.ok()) return "";
  EXPECT_NE(t.status().message().find(path), std::string::npos) << t.status().message();
  return t.status().message();
}

TEST(ConfigTest, DefaultsRoundTrip) {
  TempDir dir;
  const std::string path = dir.Write("perfdx.toml", DefaultConfigToml());
  Result<Thresholds> t = LoadThresholds(path);
  ASSERT_TRUE(t.ok()) << t.status().message();
  ExpectSameThresholds(*t, Thresholds{});
}

TEST(ConfigTest, DefaultsNameEveryKeyAndItsSource) {
  const std::string toml = DefaultConfigToml();
  EXPECT_NE(toml.find("min_recurring_gap_ns = 1000000"), std::string::npos);
  for (const ScalarKey& key : ThresholdScalars()) {
    EXPECT_NE(toml.find("\n" + std::string(key.name) + " = "), std::string::npos) << key.name;
    EXPECT_NE(toml.find("# Default from " + std::string(key.source)), std::string::npos)
        << key.name;
  }
  for (const BandKey& key : ThresholdBands()) {
    EXPECT_NE(toml.find("[" + std::string(key.name) + "]"), std::string::npos) << key.name;
    EXPECT_NE(toml.find("# Default from " + std::string(key.source)), std::string::npos)
        << key.name;
  }
  EXPECT_NE(toml.find("healthy = 0.85"), std::string::npos);
}

TEST(ConfigTest, OverrideChangesOnlyThatValue) {
  TempDir dir;
  const std::string path = dir.Write("perfdx.toml", "[dataloader_stall_share]\nhealthy = 0.02\n");
  Result<Thresholds> t = LoadThresholds(path);
  ASSERT_TRUE(t.ok()) << t.status().message();
  Thresholds expected;
  expected.dataloader_stall_share.healthy = 0.02;
  ExpectSameThresholds(*t, expected);
}

// Issue #17 (BOMs): toml++ skips a leading UTF-8 byte-order mark itself;
// this keeps it so.
TEST(ConfigTest, ALeadingByteOrderMarkIsSkipped) {
  TempDir dir;
  const std::string path =
      dir.Write("perfdx.toml", "\xEF\xBB\xBF[dataloader_stall_share]\nhealthy = 0.02\n");
  Result<Thresholds> t = LoadThresholds(path);
  ASSERT_TRUE(t.ok()) << t.status().message();
  EXPECT_EQ(t->dataloader_stall_share.healthy, 0.02);
}

TEST(ConfigTest, IntegersAreNumbers) {
  TempDir dir;
  const std::string path =
      dir.Write("perfdx.toml", "min_recurring_gap_ns = 2_000_000\n[step_time_cv]\nabnormal = 1\n");
  Result<Thresholds> t = LoadThresholds(path);
  ASSERT_TRUE(t.ok()) << t.status().message();
  EXPECT_EQ(t->min_recurring_gap_ns, 2'000'000);
  EXPECT_EQ(t->step_time_cv.abnormal, 1.0);
}

TEST(ConfigTest, RenderedOverridesRoundTrip) {
  Thresholds custom;
  custom.comm_share.abnormal = 0.375;
  custom.device_utilization = {0.9, 0.5, true};
  custom.min_recurring_gap_ns = 2.5e6;
  TempDir dir;
  Result<Thresholds> t = LoadThresholds(dir.Write("perfdx.toml", ConfigToml(custom)));
  ASSERT_TRUE(t.ok()) << t.status().message();
  ExpectSameThresholds(*t, custom);
}

TEST(ConfigTest, UnknownKeysAreErrors) {
  TempDir dir;
  std::string error = ErrorFor(dir, "device_utilisation = 0.9\n");
  EXPECT_NE(error.find("unknown key 'device_utilisation'"), std::string::npos) << error;
  error = ErrorFor(dir, "[idle_share]\nhealthy = 0.1\nabnormall = 0.5\n");
  EXPECT_NE(error.find("unknown key 'idle_share.abnormall'"), std::string::npos) << error;
  EXPECT_NE(error.find(":3:"), std::string::npos) << "names the line: " << error;
  error = ErrorFor(dir, "[no_such_band]\nhealthy = 0.1\n");
  EXPECT_NE(error.find("no_such_band"), std::string::npos) << error;
}

TEST(ConfigTest, WrongTypesAreErrors) {
  TempDir dir;
  std::string error = ErrorFor(dir, "[comm_share]\nhealthy = \"15%\"\n");
  EXPECT_NE(error.find("comm_share.healthy"), std::string::npos) << error;
  EXPECT_NE(error.find("expected a number, got a string"), std::string::npos) << error;
  error = ErrorFor(dir, "comm_share = 0.15\n");
  EXPECT_NE(error.find("expected a table"), std::string::npos) << error;
  error = ErrorFor(dir, "min_recurring_gap_ns = true\n");
  EXPECT_NE(error.find("min_recurring_gap_ns"), std::string::npos) << error;
}

TEST(ConfigTest, BadValuesAreErrors) {
  TempDir dir;
  std::string error = ErrorFor(dir, "[memcpy_share]\nhealthy = -0.1\n");
  EXPECT_NE(error.find("memcpy_share.healthy"), std::string::npos) << error;
  error = ErrorFor(dir, "[memcpy_share]\nhealthy = nan\n");
  EXPECT_NE(error.find("memcpy_share.healthy"), std::string::npos) << error;
  // Lower is better, so abnormal must not be below healthy.
  error = ErrorFor(dir, "[memcpy_share]\nhealthy = 0.4\nabnormal = 0.3\n");
  EXPECT_NE(error.find("[memcpy_share]"), std::string::npos) << error;
  // Higher is better, so abnormal must not be above healthy.
  error = ErrorFor(dir, "[device_utilization]\nabnormal = 0.9\n");
  EXPECT_NE(error.find("[device_utilization]"), std::string::npos) << error;
}

// Found by thresholds_toml_fuzzer: byte_alignment_bytes = 1.5e79 passed the
// file's checks and overflowed the conversion to an integer in its rule
// (UBSan). Sizes, durations and counts are whole and at most 2^53; fractions
// at most 1. The values at the limits still load.
TEST(ConfigTest, ScalarsStayInTheRangeTheirUnitAllows) {
  TempDir dir;
  std::string error = ErrorFor(dir, "byte_alignment_bytes = 1.5e79\n");
  EXPECT_NE(error.find("perfdx.toml:1: byte_alignment_bytes: must be a whole number of bytes up to "
                       "2^53, got 1.5e+79"),
            std::string::npos)
      << error;
  error = ErrorFor(dir, "min_recurring_gap_ns = 0.5\n");
  EXPECT_NE(error.find("min_recurring_gap_ns: must be a whole number of ns"), std::string::npos)
      << error;
  error = ErrorFor(dir, "fusion_min_occurrences = 9007199254740994\n");
  EXPECT_NE(error.find("whole number of items up to 2^53"), std::string::npos) << error;
  error = ErrorFor(dir, "memory_near_capacity = 1.5\n");
  EXPECT_NE(error.find("memory_near_capacity: a fraction, must be at most 1"), std::string::npos)
      << error;
  Result<Thresholds> edge = ParseThresholdsToml(
      "byte_alignment_bytes = 9007199254740992\nmemory_near_capacity = 1.0\n", "edge.toml");
  ASSERT_TRUE(edge.ok()) << edge.status().message();
  EXPECT_EQ(edge->byte_alignment_bytes, 9007199254740992.0);
  EXPECT_EQ(edge->memory_near_capacity, 1.0);
}

TEST(ConfigTest, MalformedFileIsAnError) {
  TempDir dir;
  std::string error = ErrorFor(dir, "[device_utilization\nhealthy = 0.9\n");
  EXPECT_NE(error.find("not valid TOML"), std::string::npos) << error;
  error = ErrorFor(dir, "[idle_share]\nhealthy = 0.1\nhealthy = 0.2\n");
  EXPECT_NE(error.find("not valid TOML"), std::string::npos) << error;
  error = ErrorFor(dir, std::string("\xff\xfe garbage", 10));
  EXPECT_FALSE(error.empty());
}

TEST(ConfigTest, MissingFileIsNotFound) {
  TempDir dir;
  const std::string path = dir.path() + "/absent.toml";
  Result<Thresholds> t = LoadThresholds(path);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), StatusCode::kNotFound);
  EXPECT_NE(t.status().message().find(path), std::string::npos);
}

TEST(ConfigTest, ResolveUsesExplicitPathThenWorkingDirectoryThenDefaults) {
  TempDir dir;
  const std::string explicit_path = dir.Write("custom.toml", "[top1_op_share]\nabnormal = 0.8\n");
  Result<Thresholds> t = ResolveThresholds(explicit_path);
  ASSERT_TRUE(t.ok()) << t.status().message();
  EXPECT_EQ(t->top1_op_share.abnormal, 0.8);

  // Tests run from the repository root; move into the temp dir to see the
  // lookup of ./perfdx.toml, and restore the directory even on failure.
  const std::filesystem::path cwd = std::filesystem::current_path();
  struct Restore {
    std::filesystem::path to;
    ~Restore() { std::filesystem::current_path(to); }
  } restore{cwd};
  std::filesystem::current_path(dir.path());
  t = ResolveThresholds("");
  ASSERT_TRUE(t.ok()) << t.status().message();
  ExpectSameThresholds(*t, Thresholds{});  // no ./perfdx.toml yet

  dir.Write("perfdx.toml", "[top3_op_share]\nhealthy = 0.4\n");
  t = ResolveThresholds("");
  ASSERT_TRUE(t.ok()) << t.status().message();
  EXPECT_EQ(t->top3_op_share.healthy, 0.4);

  dir.Write("perfdx.toml", "bogus = 1\n");
  t = ResolveThresholds("");
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("perfdx.toml"), std::string::npos);
}

}  // namespace
}  // namespace perfdx::advisor
