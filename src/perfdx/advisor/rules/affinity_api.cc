// PyTorch operator sequences that torch_npu has one fused API for
// (../shared/docs/ascend-advisor_rules.md, row 14; msprof-analyze
// fusion_ops_analyzer with rules/timeline_fusion_ops.yaml). The aten
// operators of each host thread, top level only (an aten op inside another
// is part of it), in time order, form a sequence ("add", "mul", ...) that is
// searched for the rules' patterns; each non-overlapping match is one
// candidate. Only the rules whose fix the catalogue holds (operator_fusion:
// RMSNorm, attention, SwiGLU, rotary embedding; fused_optimizer: AdamW):
//
//   torch_npu.npu_fusion_attention (CANN >= 7.0.RC1)
//     matmul-(add)?-(mul)?-(masked_fill_|add)?-softmax-(dropout)?-matmul
//   torch_npu.npu_rotary_mul (CANN >= 7.0.RC1)
//     (chunk|slice)-neg-cat-(mul){0,2}-add
//   torch_npu.npu_rms_norm (CANN >= 7.0.0)
//     (pow)?-(mean)?-(add)?-rsqrt-mul-(type_as)?
//   torch_npu.npu_swiglu (CANN >= 7.0.0)
//     (slice|chunk)-silu-mul, (slice|chunk)-mul-silu, (slice|chunk)-sigmoid-mul-mul,
//     (slice|chunk)-mul-sigmoid-mul, (slice|chunk)-mul-mul-sigmoid
//   torch_npu.optim.NpuFusedAdamW   Optimizer.step#AdamW.step
//
// An unknown CANN version counts as the newest (msprof's default, 8.0.0).
// msprof matches one sequence of all threads' aten ops, and its translation
// of alternatives inside "( | )" into a regex lets "(masked_fill_|add){0,1}"
// match an empty pair of separators; perfdx matches each thread's sequence
// of op names with the patterns as written, token by token, as a regex
// would (leftmost match, greedy quantifiers that give back, non-overlapping
// matches), without a regex engine. Not for MindSpore profiles.
//
// Gain 0: the fused kernel's time is not in the trace, so there is no
// what-if on the measured timeline (msprof gives this rule low priority).
#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "perfdx/advisor/knobs.h"
#include "perfdx/advisor/rules/rule_util.h"
#include "perfdx/advisor/rules/rules.h"

namespace perfdx::advisor {
namespace {

// CANN versions as msprof orders them: x.y.RCn before x.y.z.
struct CannVersion {
  int major = 99, minor = 0, release = 1, patch = 0;  // release 0: an RC, patch its number
  friend auto operator<=>(const CannVersion&, const CannVersion&) = default;
};

CannVersion ParseCann(std::string_view v) {
  CannVersion out;
  int parts[3] = {0, 0, 0};
  size_t part = 0;
  bool rc = false;
  bool any = false;
  for (size_t i = 0; i < v.size() && part < 3; ++i) {
    const char ch = v[i];
    if (ch >= '0' && ch <= '9') {
      parts[part] = parts[part] * 10 + (ch - '0');
      any = true;
    } else if (ch == '.') {
      ++part;
    } else if ((ch == 'R' || ch == 'r') && part == 2) {
      rc = true;
    }
  }
  if (!any) return out;  // unknown: the newest
  out.major = parts[0];
  out.minor = parts[1];
  out.release = rc ? 0 : 1;
  out.patch = parts[2];
  return out;
}

struct FusionRule {
  std::string_view api;
  std::string_view pattern;  // tokens joined by '-': name, or (a|b) with ?, {m,n}
  CannVersion since;
};

constexpr CannVersion k700Rc1{7, 0, 0, 1};
constexpr CannVersion k700{7, 0, 1, 0};

const FusionRule kRules[] = {
    {"torch_npu.npu_fusion_attention",
     "matmul-(add)?-(mul)?-(masked_fill_|add)?-softmax-(dropout)?-matmul", k700Rc1},
    {"torch_npu.npu_rotary_mul", "(chunk|slice)-neg-cat-(mul){0,2}-add", k700Rc1},
    {"torch_npu.npu_rms_norm", "(pow)?-(mean)?-(add)?-rsqrt-mul-(type_as)?", k700},
    {"torch_npu.npu_swiglu", "(slice|chunk)-silu-mul", k700},
    {"torch_npu.npu_swiglu", "(slice|chunk)-mul-silu", k700},
    {"torch_npu.npu_swiglu", "(slice|chunk)-sigmoid-mul-mul", k700},
    {"torch_npu.npu_swiglu", "(slice|chunk)-mul-sigmoid-mul", k700},
    {"torch_npu.npu_swiglu", "(slice|chunk)-mul-mul-sigmoid", k700},
};

// One element of a pattern: an op named one of `names`, min..max times.
struct PatternElement {
  std::vector<std::string_view> names;
  int min = 1;
  int max = 1;
};

// "(a|b)?-c-(d){0,2}" -> {a|b 0..1}, {c 1..1}, {d 0..2}. The patterns are
// the constants above, so the parse trusts their syntax.
std::vector<PatternElement> ParsePattern(std::string_view pattern) {
  std::vector<PatternElement> out;
  size_t i = 0;
  while (i < pattern.size()) {
    PatternElement e;
    std::string_view names;
    if (pattern[i] == '(') {
      const size_t close = pattern.find(')', i);
      names = pattern.substr(i + 1, close - i - 1);
      i = close + 1;
    } else {
      const size_t end = std::min(pattern.find('-', i), pattern.size());
      names = pattern.substr(i, end - i);
      i = end;
    }
    for (size_t from = 0; from <= names.size();) {
      const size_t bar = std::min(names.find('|', from), names.size());
      e.names.push_back(names.substr(from, bar - from));
      from = bar + 1;
    }
    if (i < pattern.size() && pattern[i] == '?') {
      e.min = 0;
      ++i;
    } else if (i < pattern.size() && pattern[i] == '{') {
      const size_t comma = pattern.find(',', i);
      const size_t close = pattern.find('}', i);
      e.min = std::stoi(std::string(pattern.substr(i + 1, comma - i - 1)));
      e.max = std::stoi(std::string(pattern.substr(comma + 1, close - comma - 1)));
      i = close + 1;
    }
    if (i < pattern.size()) ++i;  // the separator
    out.push_back(std::move(e));
  }
  return out;
}

bool NameIn(const PatternElement& e, std::string_view op) {
  return std::find(e.names.begin(), e.names.end(), op) != e.names.end();
}

// The end of the match of elements [e..] at ops [i..], taking as many of
// each element as can still lead to a match (greedy, then giving back); or
// nothing.
std::optional<size_t> MatchFrom(const std::vector<PatternElement>& elements, size_t e,
                                const std::vector<std::string_view>& ops, size_t i) {
  if (e == elements.size()) return i;
  const PatternElement& el = elements[e];
  int run = 0;
  while (run < el.max && i + static_cast<size_t>(run) < ops.size() &&
         NameIn(el, ops[i + static_cast<size_t>(run)]))
    ++run;
  for (int n = run; n >= el.min; --n) {
    if (auto end = MatchFrom(elements, e + 1, ops, i + static_cast<size_t>(n))) return end;
  }
  return std::nullopt;
}

// Non-overlapping matches, each the leftmost after the previous one.
uint64_t CountMatches(const std::vector<PatternElement>& elements,
                      const std::vector<std::string_view>& ops) {
  uint64_t n = 0;
  for (size_t i = 0; i < ops.size();) {
    const std::optional<size_t> end = MatchFrom(elements, 0, ops, i);
    if (end && *end > i) {
      ++n;
      i = *end;
    } else {
      ++i;
    }
  }
  return n;
}

class AffinityApiRule final : public Rule {
 public:
  std::string_view id() const override { return "affinity_api"; }

  void Evaluate(const RuleContext& c, std::vector<Finding>* out) const override {
    if (c.info().device_type != model::DeviceType::kNpu) return;
    if (c.analysis.ascend_profile.framework == "mindspore") return;
    const CannVersion cann = ParseCann(c.analysis.ascend_profile.cann_version);

    // Each host thread's top-level aten ops, in time order.
    std::map<std::string, uint64_t> matches;  // api -> candidates
    const uint64_t adamw_steps =
        c.analysis.host_calls.Of(analysis::HostCallKind::kAdamWStep).size();
    for (const std::vector<std::string>& names : c.analysis.op_sequences.threads) {
      const std::vector<std::string_view> sequence(names.begin(), names.end());
      for (const FusionRule& rule : kRules) {
        if (cann < rule.since) continue;
        const uint64_t n = CountMatches(ParsePattern(rule.pattern), sequence);
        if (n > 0) matches[std::string(rule.api)] += n;
      }
    }
    if (adamw_steps > 0) matches["torch_npu.optim.NpuFusedAdamW"] += adamw_steps;
    if (matches.empty()) return;

    Finding f;
    f.rule = std::string(id());
    f.category = Category::kOperator;
    f.gain = {0, 0};
    f.severity = Severity::kInfo;
    uint64_t total = 0;
    for (const auto& [api, n] : matches) total += n;
    std::string apis;
    for (const auto& [api, n] : matches) {
      if (!apis.empty()) apis += ", ";
      apis += fmt::format("{} ({})", api, n);
      // Share: of all candidates.
      f.evidence.contributors.push_back(
          {api, 0, static_cast<double>(n) / static_cast<double>(total)});
    }
    f.title = fmt::format("{} operator sequences could be torch_npu fused APIs: {}", total, apis);
    f.evidence.metric = "affinity_api_candidates";
    f.evidence.value = static_cast<double>(total);
    f.evidence.threshold = 0;
    f.evidence.unit = "count";
    const bool fusion = total > adamw_steps;
    std::vector<std::string_view> fixes;
    if (fusion) {
      fixes.push_back("operator_fusion");
      AddTag(&f, "fusible");
      AddTag(&f, "affinity_pattern");  // the fused APIs the torch_npu fix names
    }
    if (adamw_steps > 0) {
      fixes.push_back("fused_optimizer");
      AddTag(&f, "optimizer_step");
      AddTag(&f, "adamw_optimizer");
    }
    for (std::string_view fix : fixes) {
      for (Recommendation& r : RecommendationsFor(fix)) {
        if (r.framework == FixTarget::kTorchNpu) f.recommendations.push_back(std::move(r));
      }
    }
    out->push_back(std::move(f));
  }
};

}  // namespace

const Rule& AffinityApi() {
  static const AffinityApiRule rule;
  return rule;
}

}  // namespace perfdx::advisor
