// The warning threshold of SeverityFor at its boundary: a gain of exactly 1%
// of the step is a warning, one just under it is info (docs/metrics.md,
// Findings).
#include <gtest/gtest.h>

#include "perfdx/advisor/advisor.h"

namespace perfdx::advisor {
namespace {

// Lower is better: healthy up to 5%, abnormal past 20%; 10% is past the
// healthy limit but not the abnormal one.
constexpr Band kBand{0.05, 0.20, false};

TEST(SeverityBoundary, GainOfExactlyOnePercentIsAWarning) {
  EXPECT_EQ(SeverityFor(kBand, 0.10, 0.01), Severity::kWarning);
}

TEST(SeverityBoundary, GainJustUnderOnePercentIsInfo) {
  EXPECT_EQ(SeverityFor(kBand, 0.10, 0.0099999), Severity::kInfo);
}

TEST(SeverityBoundary, HealthyMetricIsInfoWhateverTheGain) {
  EXPECT_EQ(SeverityFor(kBand, 0.05, 0.5), Severity::kInfo);
}

// The critical boundary: abnormal with a gain of exactly 5%, and just under.
TEST(SeverityBoundary, CriticalFromFivePercentWhenAbnormal) {
  EXPECT_EQ(SeverityFor(kBand, 0.30, 0.05), Severity::kCritical);
  EXPECT_EQ(SeverityFor(kBand, 0.30, 0.0499999), Severity::kWarning);
}

}  // namespace
}  // namespace perfdx::advisor
