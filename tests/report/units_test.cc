// The one prediction sentence every renderer prints (report/units.h): each
// of its forms, from hand-made predictions.
#include "perfdx/report/units.h"

#include <gtest/gtest.h>

namespace perfdx::report {
namespace {

analysis::Prediction Made(int64_t gain_ns, double share) {
  analysis::Prediction p;
  p.available = true;
  p.what_if = "remove data-loading";
  p.gain_ns_per_step = gain_ns;
  p.gain_share = share;
  p.replay_error = 0.001;
  return p;
}

TEST(PredictionSentenceTest, NamesTheFixAndTheGain) {
  EXPECT_EQ(PredictionSentence(Made(59'200'000, 0.333)),
            "replayed with the fix (remove data-loading): saves 59.2 ms per step (33.3%), replay "
            "error 0.1%");
  EXPECT_EQ(PredictionSentence(analysis::Prediction{}), "");
}

TEST(PredictionSentenceTest, NoGainAndWithinTheModelsError) {
  EXPECT_EQ(PredictionSentence(Made(0, 0)),
            "replayed with the fix (remove data-loading): the step does not shorten (replay error "
            "0.1%)");
  analysis::Prediction p = Made(10'000, 0.0008);
  p.within_model_error = true;
  EXPECT_EQ(PredictionSentence(p),
            "replayed with the fix (remove data-loading): within model error (0.1% of the step, "
            "error 0.1%)");
}

TEST(PredictionSentenceTest, ARangeAndAGainBeyondTheBound) {
  analysis::Prediction p = Made(5'950'000, 0.222);
  p.what_if = "speedup fp32-matrix=14.8";
  p.has_range = true;
  p.low_what_if = "speedup fp32-matrix=2";
  p.low_gain_ns_per_step = 3'000'000;
  p.low_gain_share = 0.112;
  EXPECT_EQ(PredictionSentence(p),
            "replayed with the fix (speedup fp32-matrix=14.8): saves 3 ms to 5.95 ms per step "
            "(11.2% to 22.2%; the low end with speedup fp32-matrix=2), replay error 0.1%");
  // A range whose ends agree reads as one gain.
  p.low_gain_ns_per_step = p.gain_ns_per_step;
  EXPECT_EQ(PredictionSentence(p).find(" to "), std::string::npos);
  analysis::Prediction q = Made(63'900'000, 0.36);
  q.what_if = "remove launch-overhead";
  q.beyond_upper_bound = true;
  EXPECT_NE(PredictionSentence(q).find("more than the finding's own time"), std::string::npos);
}

}  // namespace
}  // namespace perfdx::report
