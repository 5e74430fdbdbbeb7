#include "perfdx/base/decimal_time.h"

#include <gtest/gtest.h>

namespace perfdx {
namespace {

// The acceptance cases of issue #2: exact to the nanosecond, never via double.
TEST(DecimalTimeTest, EpochMicrosecondsWithFractionAreExact) {
  EXPECT_EQ(ParseMicrosToNanos("1704161511420306.491"), 1704161511420306491);
  EXPECT_EQ(ParseMicrosToNanos("1736408883704643.212"), 1736408883704643212);
  // A double cannot hold this value: prove the test would catch a double path.
  const double d = 1704161511420306.491;
  EXPECT_NE(static_cast<int64_t>(d * 1000), 1704161511420306491);
}

TEST(DecimalTimeTest, ScientificNotation) {
  // 1.6921085481321545e+15 us = 1692108548132154.5 us
  EXPECT_EQ(ParseMicrosToNanos("1.6921085481321545e+15"), 1692108548132154500);
  EXPECT_EQ(ParseMicrosToNanos("1e3"), 1000000);
  EXPECT_EQ(ParseMicrosToNanos("2.5E-1"), 250);
  EXPECT_EQ(ParseMicrosToNanos("-1.5e0"), -1500);
}

TEST(DecimalTimeTest, RoundsHalfAwayFromZeroBelowOneNanosecond) {
  EXPECT_EQ(ParseMicrosToNanos("53.7410625"), 53741);  // .0625 ns rounds down
  EXPECT_EQ(ParseMicrosToNanos("0.60003125"), 600);    // .03125 ns
  EXPECT_EQ(ParseMicrosToNanos("0.0005"), 1);          // exactly half: away from zero
  EXPECT_EQ(ParseMicrosToNanos("-0.0005"), -1);
  EXPECT_EQ(ParseMicrosToNanos("0.00049999"), 0);
}

TEST(DecimalTimeTest, IntegersAndWhitespace) {
  EXPECT_EQ(ParseMicrosToNanos("1623142623460111"), 1623142623460111000);
  EXPECT_EQ(ParseMicrosToNanos("0"), 0);
  EXPECT_EQ(ParseMicrosToNanos("145.57"), 145570);
  EXPECT_EQ(ParseMicrosToNanos("1736408883704643.212\t"), 1736408883704643212);  // Ascend CSV
  EXPECT_EQ(ParseMicrosToNanos(" 7 "), 7000);
  EXPECT_EQ(ParseMicrosToNanos("000.5"), 500);
}

TEST(DecimalTimeTest, RejectsNonNumbersAndOverflow) {
  EXPECT_FALSE(ParseMicrosToNanos(""));
  EXPECT_FALSE(ParseMicrosToNanos("NaN"));
  EXPECT_FALSE(ParseMicrosToNanos("Infinity"));
  EXPECT_FALSE(ParseMicrosToNanos("-"));
  EXPECT_FALSE(ParseMicrosToNanos("1.2.3"));
  EXPECT_FALSE(ParseMicrosToNanos("12abc"));
  EXPECT_FALSE(ParseMicrosToNanos("1e"));
  EXPECT_FALSE(ParseMicrosToNanos("."));
  EXPECT_FALSE(ParseMicrosToNanos("1e400"));
  EXPECT_FALSE(ParseMicrosToNanos("99999999999999999999"));  // 1e20 us > int64 ns
  EXPECT_EQ(ParseMicrosToNanos("1e-400"), 0);
  // The largest representable value still parses.
  EXPECT_EQ(ParseDecimalScaled("9223372036854775807", 0), INT64_MAX);
  EXPECT_FALSE(ParseDecimalScaled("9223372036854775808", 0));
  EXPECT_EQ(ParseDecimalScaled("-9223372036854775808", 0), INT64_MIN);
}

TEST(DecimalTimeTest, ManyDigitsKeepPrecision) {
  // 40 significant digits: the tail beyond the 38 kept never matters at 1 ns.
  EXPECT_EQ(ParseMicrosToNanos("1.000000000000000000000000000000000000001"), 1000);
  EXPECT_EQ(ParseMicrosToNanos("123456789012345678901234567890.0e-20"), 1234567890123);
}

// Beyond int64 a number is still a number: saturated, so that a caller can
// say "out of range" (issue #17: year-3000 times were "not a number").
TEST(DecimalTimeTest, SaturatingKeepsNumbersApartFromText) {
  EXPECT_EQ(ParseDecimalScaledSaturating("32503680000000000", 3), INT64_MAX);
  EXPECT_EQ(ParseDecimalScaledSaturating("1e400", 3), INT64_MAX);
  EXPECT_EQ(ParseDecimalScaledSaturating("-1e400", 3), INT64_MIN);
  EXPECT_EQ(ParseDecimalScaledSaturating("1.5", 3), 1500);
  EXPECT_EQ(ParseDecimalScaledSaturating("NaN", 3), std::nullopt);
  EXPECT_EQ(ParseDecimalScaledSaturating("soon", 3), std::nullopt);
  EXPECT_EQ(ParseDecimalScaled("32503680000000000", 3), std::nullopt);
}

}  // namespace
}  // namespace perfdx
