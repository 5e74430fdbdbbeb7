// Short kernels that run in the same order again and again: each pays a
// launch and a round trip through memory that one fused kernel would not
// (msprof-analyze's fusible-operator rule: a sequence repeated more than 5
// times taking more than 1% of the step). The analysis counts every window
// of consecutive short kernels, so the listed sequences overlap (A,B,C and
// B,C,A are the same run); the finding takes the largest one only, and
// never adds them up.
//
// Gain, documented what-if: the sequence of k kernels fused into one that
// takes as long as an average member — k-1 of every k kernel runs saved,
// i.e. the sequence time per step x (k-1)/k. Fusion of memory-bound
// kernels (the usual candidates) comes close to this; an upper bound.
#include <algorithm>
#include <string_view>

#include <fmt/format.h>

#include "perfdx/advisor/advisor.h"
#include "perfdx/advisor/knobs.h"
#include "perfdx/advisor/rules/rule_util.h"
#include "perfdx/advisor/rules/rules.h"
#include "perfdx/analysis/kernel_stats.h"
#include "perfdx/analysis/kernel_taxonomy.h"

namespace perfdx::advisor {
namespace {

// What the sequence is: its kernels' classes in order (kernel_taxonomy.h's
// table, never words found in a name), a class repeated in a row once:
// "matrix+normalization+elementwise".
std::string Label(const analysis::KernelSequence& seq) {
  if (seq.elementwise) return "elementwise chain";
  std::string label;
  std::string_view last;
  for (const std::string& name : seq.names) {
    const std::string_view category =
        analysis::KernelCategoryName(analysis::ClassifyKernel(name).category);
    if (category == last) continue;
    if (!label.empty()) label += '+';
    label += category;
    last = category;
  }
  return label;
}

// Does a fusing compiler (Inductor, MindSpore's graph kernels) fuse it? It
// generates pointwise, normalization and softmax kernels and folds their
// neighbours in; a GEMM beside its own split-K reduction (cuBLAS's) holds
// nothing it would generate, so no fusion fix rests on such a sequence.
bool HasFusibleMember(const analysis::KernelSequence& seq) {
  if (seq.elementwise) return true;
  return std::any_of(seq.names.begin(), seq.names.end(), [](const std::string& name) {
    const analysis::KernelCategory c = analysis::ClassifyKernel(name).category;
    return c == analysis::KernelCategory::kElementwise ||
           c == analysis::KernelCategory::kNormalization || c == analysis::KernelCategory::kSoftmax;
  });
}

class FusionCandidatesRule final : public Rule {
 public:
  std::string_view id() const override { return "fusion_candidates"; }

  void Evaluate(const RuleContext& c, std::vector<Finding>* out) const override {
    const analysis::KernelSummary& ks = c.analysis.kernels;
    if (c.analysis.window_ns <= 0) return;
    // Sorted by total time: the first that repeats often enough.
    const auto it =
        std::find_if(ks.repeated_sequences.begin(), ks.repeated_sequences.end(),
                     [&](const analysis::KernelSequence& s) {
                       return static_cast<double>(s.count) > c.thresholds.fusion_min_occurrences &&
                              s.names.size() >= 2;
                     });
    if (it == ks.repeated_sequences.end()) return;
    const analysis::KernelSequence& seq = *it;
    const double window_ns = static_cast<double>(c.analysis.window_ns);
    const double share = static_cast<double>(seq.total_ns) / window_ns;
    const Band& band = c.thresholds.fusion_sequence_share;
    if (advisor::Evaluate(band, share) == HealthStatus::kHealthy) return;

    const auto k = static_cast<double>(seq.names.size());
    const int64_t seq_per_step = PerStep(c, seq.total_ns);
    Finding f;
    f.rule = std::string(id());
    f.category = Category::kOperator;
    f.gain.ns_per_step = static_cast<int64_t>(static_cast<double>(seq_per_step) * (k - 1) / k);
    f.gain.share = ShareOfStep(c, f.gain.ns_per_step);
    f.severity = SeverityFor(band, share, f.gain.share);
    const std::string label = Label(seq);
    const bool fusible = HasFusibleMember(seq);
    f.title = fmt::format(
        "{} ({}, {} short kernels) repeats {:.0f} times per step ({} per step, {} "
        "of the step); fused, it would save about {}",
        fusible ? "Fusion candidate" : "Short kernel sequence", label, seq.names.size(),
        static_cast<double>(seq.count) / static_cast<double>(c.step_count()), Ms(seq_per_step),
        Pct(share), Ms(f.gain.ns_per_step));
    f.evidence.metric = "fusion_sequence_share";
    f.evidence.value = share;
    f.evidence.threshold = band.healthy;
    f.evidence.unit = "share";
    f.evidence.details = {{"occurrences", static_cast<double>(seq.count)},
                          {"kernels_in_sequence", k},
                          {"elementwise", seq.elementwise ? 1.0 : 0.0}};
    // The members, with their own totals in the window.
    for (const std::string& name : seq.names) {
      const auto stat = std::find_if(ks.kernels.begin(), ks.kernels.end(),
                                     [&](const analysis::KernelStat& s) { return s.name == name; });
      const int64_t ns = stat == ks.kernels.end() ? 0 : stat->total_ns;
      f.evidence.contributors.push_back({name, ns, static_cast<double>(ns) / window_ns});
    }
    if (fusible) AddTag(&f, "fusible");
    for (const std::string& name : seq.names) f.rests_on.push_back("kernel:" + name);
    AppendFixes(&f.recommendations, {"operator_fusion", "reduce_launch_overhead"});
    out->push_back(std::move(f));
  }
};

}  // namespace

const Rule& FusionCandidates() {
  static const FusionCandidatesRule rule;
  return rule;
}

}  // namespace perfdx::advisor
