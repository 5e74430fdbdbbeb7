#include "perfdx/analysis/elementwise_chains.h"

#include <algorithm>
#include <map>
#include <optional>

#include "perfdx/analysis/activity.h"
#include "perfdx/analysis/slice_sets.h"
#include "perfdx/analysis/step_index.h"
#include "perfdx/base/saturating.h"

namespace perfdx::analysis {
namespace {

using model::EventKind;
using model::SliceId;

constexpr size_t kSequenceNames = 8;  // names shown in a pattern's sequence
constexpr size_t kMaxPatterns = 5;
constexpr size_t kMaxExamples = 5;

// What a slice is to the chain search on its track.
enum class Member { kSkip, kBreak, kOther, kElementwise };

// What encloses each slice, for every slice at once: the verdict of the
// nearest enclosing slice that decides one for a host op (an operator: part
// of it; DataLoader or optimizer.step(): a break), and whether
// optimizer.step() encloses it. Parents come before their children in the
// slice table, so one pass in index order replaces a walk up the ancestors
// of each slice, which a deeply nested trace made n x depth (#17).
class Enclosing {
 public:
  explicit Enclosing(const model::Trace& trace) {
    const model::SliceTable& s = trace.slices;
    verdict_.assign(s.size(), kNone);
    in_optimizer_.assign(s.size(), 0);
    for (SliceId i = 0; i < s.size(); ++i) {
      const int32_t parent = s.parent[i];
      const bool optimizer =
          (s.kind[i] == EventKind::kUserAnnotation || s.kind[i] == EventKind::kPythonFunction) &&
          IsOptimizerStep(trace.slice_name(i));
      int8_t own = kNone;
      if (s.kind[i] == EventKind::kFrameworkOp) {
        own = static_cast<int8_t>(Member::kSkip);
      } else if (s.kind[i] == EventKind::kDataLoading || optimizer) {
        own = static_cast<int8_t>(Member::kBreak);
      }
      verdict_[i] = own != kNone ? own : parent >= 0 ? verdict_[parent] : kNone;
      in_optimizer_[i] = optimizer || (parent >= 0 && in_optimizer_[parent]);
    }
  }
  // The verdict of i's ancestors (not i itself), if one decides.
  std::optional<Member> Above(const model::SliceTable& s, SliceId i) const {
    const int32_t parent = s.parent[i];
    if (parent < 0 || verdict_[parent] == kNone) return std::nullopt;
    return static_cast<Member>(verdict_[parent]);
  }
  // optimizer.step() is or encloses slice i.
  bool InOptimizer(int32_t i) const { return i >= 0 && in_optimizer_[i] != 0; }

 private:
  static constexpr int8_t kNone = -1;
  std::vector<int8_t> verdict_;
  std::vector<uint8_t> in_optimizer_;
};

Member HostMember(const model::Trace& trace, const Enclosing& enclosing, SliceId i) {
  const model::SliceTable& s = trace.slices;
  if (s.kind[i] != EventKind::kFrameworkOp || s.dur_ns[i] < 0) return Member::kSkip;
  if (auto above = enclosing.Above(s, i)) return *above;
  return IsElementwiseOpName(trace.slice_name(i)) ? Member::kElementwise : Member::kOther;
}

std::string_view MemberName(const model::Trace& trace, const OpAttribution& attribution,
                            SliceId i) {
  const int32_t op = i < attribution.launching_op.size() ? attribution.launching_op[i] : -1;
  return trace.slices.kind[i] == EventKind::kComputeKernel && op >= 0
             ? trace.slice_name(static_cast<SliceId>(op))
             : trace.slice_name(i);
}

// Launched from inside optimizer.step(): the fused optimizer's business.
bool LaunchedByOptimizer(const OpAttribution& attribution, const Enclosing& enclosing, SliceId i) {
  return enclosing.InOptimizer(i < attribution.launching_op.size() ? attribution.launching_op[i]
                                                                   : -1);
}

}  // namespace

bool IsElementwiseOpName(std::string_view name) {
  // ATen's pointwise operators (native_functions.yaml "pointwise" tag and
  // the activations), out-of-place and in-place.
  static constexpr std::string_view kOps[] = {
      "aten::add",         "aten::add_",         "aten::sub",         "aten::sub_",
      "aten::rsub",        "aten::mul",          "aten::mul_",        "aten::div",
      "aten::div_",        "aten::neg",          "aten::neg_",        "aten::exp",
      "aten::exp_",        "aten::expm1",        "aten::log",         "aten::log_",
      "aten::log1p",       "aten::tanh",         "aten::tanh_",       "aten::sigmoid",
      "aten::sigmoid_",    "aten::relu",         "aten::relu_",       "aten::gelu",
      "aten::silu",        "aten::silu_",        "aten::abs",         "aten::sqrt",
      "aten::sqrt_",       "aten::rsqrt",        "aten::rsqrt_",      "aten::pow",
      "aten::pow_",        "aten::square",       "aten::reciprocal",  "aten::sin",
      "aten::cos",         "aten::erf",          "aten::clamp",       "aten::clamp_",
      "aten::clamp_min",   "aten::clamp_min_",   "aten::clamp_max",   "aten::clamp_max_",
      "aten::maximum",     "aten::minimum",      "aten::where",       "aten::addcmul",
      "aten::addcmul_",    "aten::addcdiv",      "aten::addcdiv_",    "aten::lerp",
      "aten::lerp_",       "aten::leaky_relu",   "aten::hardtanh",    "aten::softplus",
      "aten::threshold",   "aten::sign",         "aten::floor",       "aten::ceil",
      "aten::round",       "aten::fmod",         "aten::remainder",   "aten::eq",
      "aten::ne",          "aten::lt",           "aten::le",          "aten::gt",
      "aten::ge",          "aten::logical_not",  "aten::logical_and", "aten::logical_or",
      "aten::masked_fill", "aten::masked_fill_",
  };
  return std::find(std::begin(kOps), std::end(kOps), name) != std::end(kOps);
}

bool IsElementwiseDeviceWork(const model::Trace& trace, const OpAttribution& attribution,
                             SliceId i) {
  if (trace.slices.kind[i] != EventKind::kComputeKernel) return false;
  const int32_t op = i < attribution.launching_op.size() ? attribution.launching_op[i] : -1;
  return op >= 0 && IsElementwiseOpName(trace.slice_name(static_cast<SliceId>(op)));
}

ElementwiseChainSummary FindElementwiseChains(const model::Trace& trace,
                                              const OpAttribution& attribution,
                                              const std::vector<StepWindow>& steps, bool cpu_only) {
  ElementwiseChainSummary out;
  out.on_device = !cpu_only;
  out.ops_per_step.assign(std::max<size_t>(1, steps.size()), 0);
  const model::SliceTable& s = trace.slices;
  const StepIndex index(steps);
  std::map<std::string_view, ElementwiseOpCount> by_name;
  std::map<std::string, ElementwiseChainPattern> by_sequence;
  std::vector<std::pair<int64_t, std::pair<int64_t, int64_t>>> spans;  // (span, [start, end))
  std::vector<SliceId> chain;
  int64_t chain_step = -1;

  auto flush = [&] {
    if (chain.size() >= kMinChainOps) {
      const int64_t start = s.ts_ns[chain.front()];
      int64_t end = start;
      std::string sequence;
      for (size_t k = 0; k < chain.size(); ++k) {
        const SliceId m = chain[k];
        end = std::max(end, s.end_ns(m));
        base::AddSaturating(out.op_ns, s.dur_ns[m]);
        // A kernel goes by its launching operator's name (aten::add), not
        // its template instantiation.
        const std::string_view name = MemberName(trace, attribution, m);
        ElementwiseOpCount& c = by_name[name];
        ++c.count;
        base::AddSaturating(c.total_ns, s.dur_ns[m]);
        if (k < kSequenceNames) sequence += (k ? " > " : "") + std::string(name);
      }
      if (chain.size() > kSequenceNames) sequence += " > ...";
      const int64_t span = end - start;
      const auto k = static_cast<int64_t>(chain.size());
      ++out.chains;
      out.ops += chain.size();
      base::AddSaturating(out.span_ns, span);
      const int64_t fusable = base::ScaledPart(span, k - 1, k);
      base::AddSaturating(out.fusable_ns, fusable);
      out.fusable_intervals.emplace_back(end - fusable, end);
      out.longest = std::max(out.longest, chain.size());
      out.ops_per_step[static_cast<size_t>(std::max<int64_t>(0, chain_step))] += chain.size();
      ElementwiseChainPattern& p = by_sequence[sequence + "#" + std::to_string(chain.size())];
      p.sequence = sequence;
      ++p.count;
      p.ops = chain.size();
      base::AddSaturating(p.span_ns, span);
      spans.push_back({span, {start, end}});
    }
    chain.clear();
    chain_step = -1;
  };

  const Enclosing enclosing(trace);
  for (const model::Track& track : trace.tracks) {
    const bool host = track.kind == model::TrackKind::kHostThread;
    if (cpu_only ? !host : !model::IsDeviceTrack(track.kind)) continue;
    int32_t zero_op = -1;  // the latest zero-length framework op on this thread
    for (SliceId i = track.slice_begin; i < track.slice_end; ++i) {
      Member m;
      if (host) {
        // The legacy export rounds to whole microseconds: an op that starts
        // where a zero-length op starts is nested in it, not the next call.
        const bool rounded_child = zero_op >= 0 && s.ts_ns[zero_op] == s.ts_ns[i];
        if (s.kind[i] == EventKind::kFrameworkOp && s.dur_ns[i] == 0)
          zero_op = static_cast<int32_t>(i);
        m = rounded_child ? Member::kSkip : HostMember(trace, enclosing, i);
        // Nor does a zero-length op between two members break the chain:
        // under a microsecond (the wrapped scalar's copy_ of `s * 0.5`, an
        // empty_strided), or a child whose start was rounded to its
        // parent's end; either way no work stands between the two.
        if (m == Member::kOther && s.dur_ns[i] == 0) m = Member::kSkip;
      } else if (s.kind[i] != EventKind::kComputeKernel || s.dur_ns[i] <= 0) {
        m = Member::kSkip;
      } else {
        m = LaunchedByOptimizer(attribution, enclosing, i)   ? Member::kBreak
            : IsElementwiseDeviceWork(trace, attribution, i) ? Member::kElementwise
                                                             : Member::kOther;
      }
      if (m == Member::kSkip) continue;
      const int64_t step = steps.empty() ? 0 : index.StepOf(s.ts_ns[i]);
      if (m != Member::kElementwise || step < 0) {
        flush();
        continue;
      }
      if (!chain.empty() &&
          (step != chain_step || s.ts_ns[i] - s.end_ns(chain.back()) > kMaxChainGapNs))
        flush();
      chain.push_back(i);
      chain_step = step;
    }
    flush();
  }

  for (auto& [name, c] : by_name) {
    c.name = std::string(name);
    out.op_names.push_back(std::move(c));
  }
  std::sort(out.op_names.begin(), out.op_names.end(),
            [](const ElementwiseOpCount& a, const ElementwiseOpCount& b) {
              return a.total_ns != b.total_ns ? a.total_ns > b.total_ns : a.name < b.name;
            });
  for (auto& [key, p] : by_sequence) out.patterns.push_back(std::move(p));
  std::sort(out.patterns.begin(), out.patterns.end(),
            [](const ElementwiseChainPattern& a, const ElementwiseChainPattern& b) {
              return a.span_ns != b.span_ns ? a.span_ns > b.span_ns : a.sequence < b.sequence;
            });
  if (out.patterns.size() > kMaxPatterns) out.patterns.resize(kMaxPatterns);
  std::sort(spans.begin(), spans.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first > b.first : a.second.first < b.second.first;
  });
  for (size_t k = 0; k < spans.size() && k < kMaxExamples; ++k)
    out.examples.push_back(spans[k].second);
  return out;
}

}  // namespace perfdx::analysis
