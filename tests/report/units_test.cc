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

// Evidence reads in its units in every renderer (Markdown printed its
// details as raw numbers: cluster_span_ns_per_step 1.65267e+07).
TEST(EvidenceFormatTest, ValuesInTheirUnitDetailsByTheUnitTheirKeyNames) {
  EXPECT_EQ(FormatEvidenceValue(0.091, "share"), "9.1%");
  EXPECT_EQ(FormatEvidenceValue(16'526'700, "ns"), "16.5 ms");
  EXPECT_EQ(FormatEvidenceValue(1536, "bytes"), "1.5 KiB");
  EXPECT_EQ(FormatEvidenceValue(41.7, "count"), "42");
  EXPECT_EQ(FormatEvidenceValue(1.25, "ratio"), "1.25");
  EXPECT_EQ(FormatEvidenceValue(850, "MHz"), "850 MHz");
  EXPECT_EQ(FormatEvidenceDetail("cluster_span_ns_per_step", 16'526'700), "16.5 ms");
  EXPECT_EQ(FormatEvidenceDetail("mean_gap_ns", 13'216), "13.2 µs");
  EXPECT_EQ(FormatEvidenceDetail("optimizer_share", 0.000665874), "0.1%");
  EXPECT_EQ(FormatEvidenceDetail("comm_comp_overlap", 0.5), "50.0%");
  EXPECT_EQ(FormatEvidenceDetail("peak_bytes", 3 * 1024.0 * 1024), "3.0 MiB");
  EXPECT_EQ(FormatEvidenceDetail("link_bandwidth_gbps", 12.345), "12.35 GB/s");
  EXPECT_EQ(FormatEvidenceDetail("short_gaps_per_step", 786.333), "786.3");
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

advisor::Finding WithBound(int64_t bound_ns, double share) {
  advisor::Finding f;
  f.gain = advisor::EstimatedGain(bound_ns, share);
  return f;
}

// The summary line leads with the replay where there is one: the ResNet-50
// FP32 finding's bound (53.9 ms, 30.4%) is the time its kernels take, but
// its steps are held by the host, and the replay predicts 2.71 ms.
TEST(GainHeadlineTest, LeadsWithTheReplayAndSaysTheBoundBesideIt) {
  advisor::Finding f = WithBound(53'900'000, 0.304);
  EXPECT_EQ(GainHeadline(f), "saves up to 53.9 ms per step (30.4%)");
  f.prediction = Made(2'710'000, 0.015);
  EXPECT_EQ(GainHeadline(f), "saves 2.71 ms per step (1.5%) by replay, of the 53.9 ms it measures");
  f.prediction = Made(63'900'000, 0.36);
  f.gain = advisor::EstimatedGain(12'200'000, 0.069);
  EXPECT_EQ(GainHeadline(f),
            "saves 63.9 ms per step (36.0%) by replay, more than the 12.2 ms it measures");
  // Where the two print the same, the bound is not repeated.
  f.prediction = Made(59'230'000, 0.333);
  f.gain = advisor::EstimatedGain(59'240'000, 0.333);
  EXPECT_EQ(GainHeadline(f), "saves 59.2 ms per step (33.3%) by replay");
}

TEST(GainHeadlineTest, NoGainRangesAndNothingToSay) {
  advisor::Finding f = WithBound(168'000'000, 0.274);
  f.prediction = Made(0, 0);
  EXPECT_EQ(GainHeadline(f), "the step does not shorten by replay (168 ms per step measured)");
  f.prediction = Made(10'000, 0.0008);
  f.prediction.within_model_error = true;
  EXPECT_EQ(GainHeadline(f), "no gain beyond the replay's error (0.1%) (168 ms per step measured)");
  f.prediction = Made(5'950'000, 0.222);
  f.prediction.has_range = true;
  f.prediction.low_gain_ns_per_step = 3'000'000;
  f.prediction.low_gain_share = 0.112;
  f.gain = advisor::EstimatedGain(5'950'000, 0.222);
  EXPECT_EQ(GainHeadline(f), "saves 3 ms to 5.95 ms per step (11.2% to 22.2%) by replay");
  EXPECT_EQ(GainHeadline(WithBound(0, 0)), "");
}

// Exposed communication's replay hides the collectives under compute, one
// remedy of several: the bound (what shortening them could also buy) leads.
TEST(GainHeadlineTest, OneRemedyFollowsTheBound) {
  advisor::Finding f = WithBound(14'700'000, 0.189);
  f.prediction = Made(6'150'000, 0.079);
  f.prediction.what_if = "remove communication-wait";
  f.prediction.one_remedy = true;
  EXPECT_EQ(GainHeadline(f),
            "saves up to 14.7 ms per step (18.9%); by replay, remove communication-wait alone "
            "saves 6.15 ms (7.9%)");
  f.prediction.gain_ns_per_step = 0;
  EXPECT_EQ(GainHeadline(f),
            "saves up to 14.7 ms per step (18.9%); by replay, remove communication-wait alone "
            "does not shorten the step");
}

// A device-side fix behind a host-held step: nothing now, its kernels'
// time once the host no longer holds the step.
TEST(GainHeadlineTest, SaysWhatTheFixBuysOnceTheHostNoLongerHoldsTheStep) {
  advisor::Finding f = WithBound(18'000'000, 0.51);
  f.prediction = Made(0, 0);
  f.prediction.has_beyond_host = true;
  f.prediction.beyond_host_gain_ns_per_step = 18'000'000;
  f.prediction.beyond_host_gain_share = 0.511;
  f.prediction.host_alone_gain_ns_per_step = 5'460'000;
  f.prediction.host_alone_gain_share = 0.155;
  EXPECT_EQ(GainHeadline(f),
            "the step does not shorten by replay (18 ms per step measured); 18 ms per step (51.1%) "
            "once the host's dispatch and data loading take no time as well (the host holds the "
            "step now; those two alone save 5.46 ms, 15.5%)");
  EXPECT_NE(PredictionBasis(f.prediction).find("against those two alone"), std::string::npos);
}

TEST(PredictionBasisTest, SaysHowTheGainWasComputed) {
  analysis::Prediction p = Made(5'950'000, 0.222);
  EXPECT_EQ(PredictionBasis(p), "replayed with the fix (remove data-loading), replay error 0.1%");
  p.has_range = true;
  p.low_what_if = "speedup fp32-matrix=2";
  p.low_gain_ns_per_step = 3'000'000;
  EXPECT_EQ(PredictionBasis(p),
            "replayed with the fix (remove data-loading), replay error 0.1%; the low end with "
            "speedup fp32-matrix=2");
  p = Made(63'900'000, 0.36);
  p.beyond_upper_bound = true;
  EXPECT_NE(PredictionBasis(p).find("also removes time the finding does not count"),
            std::string::npos);
  EXPECT_EQ(PredictionBasis(analysis::Prediction{}), "");
}

TEST(OverlapSentenceTest, NamesTheOtherFindingByItsTitleOrItsNumber) {
  advisor::FindingOverlap o;
  o.rule = "recurring_gap";
  // 50 columns ("µ" is one, of two bytes): the first 48 kept, "…" after.
  o.title = "The device idles 117 ms per step in 128 gaps ofµs.";
  o.combined_gain_ns_per_step = 356'000'000;
  o.sum_gain_ns_per_step = 473'000'000;
  EXPECT_EQ(OverlapSentence(o),
            "overlaps recurring_gap (\"The device idles 117 ms per step in 128 gaps ofµ…\"): "
            "both fixes together save 356 ms per step, not 473 ms");
  EXPECT_EQ(OverlapSentence(o, "#3 (recurring_gap)"),
            "overlaps #3 (recurring_gap): both fixes together save 356 ms per step, not 473 ms");
  o.title = "Short title";
  EXPECT_EQ(OverlapSentence(o),
            "overlaps recurring_gap (\"Short title\"): both fixes together save 356 ms per step, "
            "not 473 ms");
}

// Regression: a one-step trace (HTA's MI250 example) read "reproduces the
// 1 steps".
TEST(ReplaySentenceTest, CountsItsStepsInTheRightNumber) {
  analysis::ReplayCheck check;
  check.available = true;
  check.run.steps.resize(1);
  EXPECT_EQ(ReplaySentence(check),
            "replay: the step model reproduces the 1 step within 0.0% (median; max 0.0%)");
  check.run.steps.resize(6);
  EXPECT_EQ(ReplaySentence(check),
            "replay: the step model reproduces the 6 steps within 0.0% (median; max 0.0%)");
  check.median_abs_error = 0.2;
  EXPECT_NE(ReplaySentence(check).find("too far off"), std::string::npos);
}

}  // namespace
}  // namespace perfdx::report
