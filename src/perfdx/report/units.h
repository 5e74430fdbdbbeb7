// Human-readable units for text renderers.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "perfdx/advisor/finding.h"
#include "perfdx/analysis/replay.h"

namespace perfdx::report {

// 1234 -> "1.23 µs", 15000000 -> "15.0 ms", 2500000000 -> "2.50 s".
std::string FormatDuration(int64_t ns);
// 1536 -> "1.5 KiB".
std::string FormatBytes(double bytes);
// 0.1234 -> "12.3%".
std::string FormatShare(double share);
// A finding's evidence metric or threshold in its unit (Evidence::unit:
// "share", "ns", "bytes", "count", "ratio" or another shown after it).
std::string FormatEvidenceValue(double v, std::string_view unit);
// An evidence detail by the unit its key names (docs/metrics.md: names carry
// units): *_ns and *_ns_* a duration, *_bytes bytes, *share and *_overlap a
// share, *_gbps GB/s; else the number.
std::string FormatEvidenceDetail(std::string_view key, double v);

// "replayed with the fix (remove data-loading): saves 59.2 ms per step (33.3%), replay error
// 0.1%" (or that the step does not shorten, or that the gain is within the
// model's error); "" when the fix was not replayed. Every renderer says it so.
std::string PredictionSentence(const analysis::Prediction& p);
// How the prediction was made: "replayed with the fix (remove
// data-loading), replay error 0.1%", with the low end of a range and why a
// gain may exceed the finding's own time; "" when the fix was not replayed.
std::string PredictionBasis(const analysis::Prediction& p);
// The gain a finding's one-line summary leads with, in every renderer: the
// replay's prediction where the fix replays ("saves 2.71 ms per step (1.5%)
// by replay, of the 53.9 ms it measures"; "the step does not shorten by
// replay (168 ms per step measured)"), else the upper bound on the measured
// timeline ("saves up to 12.2 ms per step (6.9%)"); "" when there is
// neither. Where the replayed fix is one remedy of several
// (Prediction::one_remedy), the bound leads and the replay follows ("saves
// up to 14.7 ms per step (18.9%); by replay, remove communication-wait
// alone saves 6.15 ms (7.9%)"). The ranking of findings uses the number that leads
// (advisor::RankingGainNs).
std::string GainHeadline(const advisor::Finding& f);
// "overlaps host_sync_copies ("4 host syncs and 156 small copies…"): both
// fixes together save 15 ms per step, not 21 ms" (the same time freed by
// both). Every renderer says it so; `which` names the other finding instead
// where the report numbers them ("#3 (recurring_gap)").
std::string OverlapSentence(const advisor::FindingOverlap& o, std::string_view which = {});
// "replay: the step model reproduces the 8 steps within 0.1% (median; max
// 0.3%)", saying when that is too far off to trust, or why there is none.
std::string ReplaySentence(const analysis::ReplayCheck& check);

}  // namespace perfdx::report
