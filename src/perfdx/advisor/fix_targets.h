// Which fixes a rank is shown: those written for its framework and platform
// whose evidence the trace holds. The one place that decides it: RunAdvisor
// and RunClusterAdvisor apply KeepFixesFor to every finding.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "perfdx/advisor/finding.h"
#include "perfdx/model/framework.h"
#include "perfdx/model/trace.h"

namespace perfdx::advisor {

// The rank tag of a PyTorch older than 1.13 (model::RuntimeFeatures), which
// knobs whose API came later name in `excluded_by`.
inline constexpr std::string_view kPytorchBefore113 = "pytorch_before_1_13";

// The catalogue entry that says to upgrade PyTorch: what a finding gets in
// place of a fix its rank's PyTorch is too old for.
inline constexpr std::string_view kUpgradePytorch = "upgrade_pytorch";

// The fix targets of a rank. Ascend traces whose framework is unknown (an
// msprof folder, a lone kernel CSV) get both Ascend frameworks' fixes; a
// rank whose framework perfdx cannot tell gets none (`--framework` sets it).
std::vector<FixTarget> TargetsFor(const model::FrameworkInfo& runtime);

// The evidence tags a rank contributes (knobs.toml [tags]): its features
// (model::kRuntimeFeatureKeys, kPytorchBefore113 among them),
// "platform:<name>", "framework:<name>" and "backend:<name>" (the collective
// backend).
std::vector<std::string> RankTags(const model::RankInfo& info);

// Keeps the recommendations of `finding` whose target is one of `targets`
// and whose catalogue entry's evidence holds on the finding's tags plus
// `rank_tags` (all `requires` hold, no `excluded_by` does); a
// recommendation that names no catalogue entry is dropped. One dropped only
// for the rank's PyTorch being too old brings kUpgradePytorch, unless an
// entry written for that PyTorch is kept. A host-side
// finding left with no fix gets "host_cause_unknown" and the catalogue's
// profile_with_stack for its targets: how to record the cause, not a guess;
// a collectives finding (`comm_cause`) so left gets "comm_cause_unknown"
// and profile_all_ranks.
void KeepFixesFor(const std::vector<FixTarget>& targets, const std::vector<std::string>& rank_tags,
                  Finding* finding);

// The catalogue entry that says to profile every rank and analyse them
// together.
inline constexpr std::string_view kProfileAllRanks = "profile_all_ranks";

// The findings of a rank analysed with the other ranks of its job: the
// advice to profile every rank and analyse them together is dropped (the
// job's cluster section is that analysis).
void AnalysedWithPeers(std::vector<Finding>* findings);

}  // namespace perfdx::advisor
