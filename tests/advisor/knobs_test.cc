// The catalogue of fixes (src/perfdx/advisor/knobs.toml, compiled in): it
// parses, every knob is documented, cites an official page, needs evidence
// from the tag vocabulary, spells no API that does not exist, and matches
// docs/recommendations.md (which scripts/gen_recommendations.py generates;
// the ctest recommendations_doc_up_to_date checks the whole page).
#include "perfdx/advisor/knobs.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <set>
#include <string>
#include <string_view>

#include <gtest/gtest.h>

#include "perfdx/advisor/fix_targets.h"
#include "test_support.h"

namespace perfdx::advisor {
namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

// Official documentation of the frameworks, CANN and Python, the Ascend
// organisations' own repositories, and the numactl manual. A knob cited from
// anywhere else (blogs, forums, mirrors) is not verified.
bool OnAllowedHost(std::string_view url) {
  constexpr std::string_view kScheme = "https://";
  if (url.substr(0, kScheme.size()) != kScheme) return false;
  const std::string rest = Lower(url.substr(kScheme.size()));
  const size_t slash = rest.find('/');
  std::string host = rest.substr(0, slash);
  if (host.rfind("www.", 0) == 0) host = host.substr(4);
  constexpr std::array<std::string_view, 8> kHosts = {
      "pytorch.org",  "docs.pytorch.org", "docs.python.org",     "mindspore.cn",
      "hiascend.com", "man7.org",         "manpages.ubuntu.com", "docs.nvidia.com"};
  if (std::find(kHosts.begin(), kHosts.end(), host) != kHosts.end()) return true;
  // Code hosts only for the Ascend organisation's repositories.
  constexpr std::array<std::string_view, 3> kAscendRepos = {
      "gitcode.com/ascend/", "gitee.com/ascend/", "github.com/ascend/"};
  return std::any_of(kAscendRepos.begin(), kAscendRepos.end(),
                     [&](std::string_view prefix) { return rest.rfind(prefix, 0) == 0; });
}

// A parse error in the compiled-in file is this failure, not a runtime
// surprise (the advisor would run with an empty catalogue).
TEST(KnobsTest, TheCompiledInCatalogueParses) {
  EXPECT_TRUE(CompiledCatalogueStatus().ok()) << CompiledCatalogueStatus().message();
  EXPECT_GE(AllKnobs().size(), 70u);
}

TEST(KnobsTest, ParseErrorsNameTheEntry) {
  auto bad_toml = ParseCatalogue("[[fix]\nid = ");
  EXPECT_FALSE(bad_toml.ok());
  auto no_target = ParseCatalogue(
      "[[fix]]\nid = \"x\"\ntargets = []\ntext = \"t\"\nsnippet = \"s\"\n"
      "doc_url = \"https://pytorch.org/\"\nverified = \"v\"\n");
  ASSERT_FALSE(no_target.ok());
  EXPECT_NE(no_target.status().message().find("(x)"), std::string::npos)
      << no_target.status().message();
  auto unknown = ParseCatalogue(
      "[[fix]]\nid = \"x\"\ntargets = [\"tensorflow\"]\ntext = \"t\"\nsnippet = \"s\"\n"
      "doc_url = \"https://pytorch.org/\"\nverified = \"v\"\n");
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.status().message().find("tensorflow"), std::string::npos);
  auto good = ParseCatalogue(
      "[[fix]]\nid = \"x\"\ntargets = [\"pytorch\", \"torch_npu\"]\nrequires = [\"a|b\"]\n"
      "text = \"t\"\nsnippet = \"s\"\ndoc_url = \"https://pytorch.org/\"\nverified = \"v\"\n");
  ASSERT_TRUE(good.ok()) << good.status().message();
  ASSERT_EQ(good->knobs.size(), 2u);  // one knob per target
  EXPECT_EQ(good->knobs[0].framework, FixTarget::kPytorch);
  EXPECT_EQ(good->knobs[1].framework, FixTarget::kTorchNpu);
  EXPECT_TRUE(EvidenceHolds(good->knobs[0], {"b"}));
  EXPECT_FALSE(EvidenceHolds(good->knobs[0], {"c"}));
}

// Every fix needs evidence, and every tag it names is in the vocabulary.
TEST(KnobsTest, EveryKnobNeedsKnownEvidence) {
  const std::vector<std::string>& vocabulary = CompiledCatalogue().tags;
  ASSERT_FALSE(vocabulary.empty());
  auto known = [&](std::string_view tag) {
    return std::find(vocabulary.begin(), vocabulary.end(), tag) != vocabulary.end();
  };
  for (const Knob& k : AllKnobs()) {
    SCOPED_TRACE(k.fix_id + " / " + std::string(FixTargetName(k.framework)));
    EXPECT_FALSE(k.required_tags.empty());
    for (const std::string& r : k.required_tags) {
      size_t begin = 0;
      while (begin <= r.size()) {
        size_t end = std::min(r.find('|', begin), r.size());
        EXPECT_TRUE(known(r.substr(begin, end - begin))) << r;
        begin = end + 1;
      }
    }
    for (const std::string& x : k.excluded_tags) EXPECT_TRUE(known(x)) << x;
    EXPECT_FALSE(k.verified.empty());
  }
}

// Compile and graph fixes are not shown on compiled or graph-captured
// traces; the DDP fixes need all-reduce under DDP.
TEST(KnobsTest, CompileAndDdpFixesNameTheirEvidence) {
  const Knob* graphs = FindKnob("reduce_launch_overhead", FixTarget::kPytorchCuda);
  ASSERT_NE(graphs, nullptr);
  EXPECT_FALSE(EvidenceHolds(*graphs, {"dispatch_bound", "compiled"}));
  EXPECT_FALSE(EvidenceHolds(*graphs, {"dispatch_bound", "cuda_graphs"}));
  EXPECT_TRUE(EvidenceHolds(*graphs, {"dispatch_bound"}));
  const Knob* compile = FindKnob("operator_fusion", FixTarget::kPytorch);
  ASSERT_NE(compile, nullptr);
  EXPECT_NE(compile->snippet.find("torch.compile"), std::string::npos);
  EXPECT_FALSE(EvidenceHolds(*compile, {"fusible", "compiled"}));
  const Knob* bucket = FindKnob("ddp_bucket", FixTarget::kPytorch);
  ASSERT_NE(bucket, nullptr);
  EXPECT_FALSE(EvidenceHolds(*bucket, {"ddp"}));
  EXPECT_FALSE(EvidenceHolds(*bucket, {"allreduce"}));
  EXPECT_TRUE(EvidenceHolds(*bucket, {"allreduce", "ddp"}));
}

TEST(KnobsTest, EveryKnobHasTextSnippetAndOfficialDoc) {
  ASSERT_FALSE(AllKnobs().empty());
  for (const Knob& k : AllKnobs()) {
    SCOPED_TRACE(std::string(k.fix_id) + " / " + std::string(FixTargetName(k.framework)));
    EXPECT_FALSE(k.text.empty());
    EXPECT_FALSE(k.snippet.empty());
    EXPECT_TRUE(OnAllowedHost(k.doc_url)) << k.doc_url;
    EXPECT_EQ(k.doc_url.find_first_of(" \n\t"), std::string_view::npos) << k.doc_url;
    // Ids are lower_snake so rules and the docs spell them the same way.
    for (char c : k.fix_id) {
      const auto u = static_cast<unsigned char>(c);
      EXPECT_TRUE(std::islower(u) || std::isdigit(u) || c == '_') << k.fix_id;
    }
  }
}

TEST(KnobsTest, SnippetsFitTheReport) {
  for (const Knob& k : AllKnobs()) {
    const auto lines = std::count(k.snippet.begin(), k.snippet.end(), '\n') + 1;
    EXPECT_LE(lines, 6) << k.fix_id << " / " << FixTargetName(k.framework);
  }
}

// APIs the original tuning guides use that do not exist (or exist only for
// TensorFlow through npu_bridge): perfdx must never print them.
TEST(KnobsTest, NoKnobNamesAnApiThatDoesNotExist) {
  constexpr std::array<std::string_view, 9> kForbidden = {"MS_MODEL_SUBMISSION",
                                                          "HeteroConfig",
                                                          "set_hetero_config",
                                                          "fused_conv2d_bn_relu",
                                                          "schedutils",
                                                          "npu_bridge",
                                                          "enable_heterogeneous_memory",
                                                          "communication_fusion_threshold",
                                                          "allreduce_fusion"};
  for (const Knob& k : AllKnobs()) {
    for (std::string_view bad : kForbidden) {
      EXPECT_EQ(k.text.find(bad), std::string_view::npos) << k.fix_id << " text: " << bad;
      EXPECT_EQ(k.snippet.find(bad), std::string_view::npos) << k.fix_id << " snippet: " << bad;
    }
  }
}

// A PyTorch trace written before 1.13 does not tell which release (1.8 to
// 1.12) wrote it, so a PyTorch knob it can be shown (not excluded by
// pytorch_before_1_13) may use in its code only APIs PyTorch 1.8 has.
// Comments may name the later spelling. FSDP's own fixes are left out: they
// need an FSDP trace, 1.11 at the least.
TEST(KnobsTest, KnobsAPytorchBefore113IsShownUseOnlyPytorch18Apis) {
  constexpr std::array<std::string_view, 10> kLater = {"torch.compile(",
                                                       "torch.amp.GradScaler",
                                                       "torch.autocast(",
                                                       "fused=True",
                                                       "set_float32_matmul_precision",
                                                       "expandable_segments",
                                                       "static_graph",
                                                       "use_reentrant",
                                                       "skip_first",
                                                       "use_gzip"};
  size_t checked = 0;
  for (const Knob& k : AllKnobs()) {
    if (k.framework != FixTarget::kPytorch && k.framework != FixTarget::kPytorchCuda &&
        k.framework != FixTarget::kPytorchRocm && k.framework != FixTarget::kPytorchCpu) {
      continue;
    }
    if (std::find(k.excluded_tags.begin(), k.excluded_tags.end(), kPytorchBefore113) !=
        k.excluded_tags.end()) {
      continue;
    }
    if (std::find(k.required_tags.begin(), k.required_tags.end(), "fsdp") !=
        k.required_tags.end()) {
      continue;
    }
    ++checked;
    std::string_view rest = k.snippet;
    while (!rest.empty()) {
      const size_t eol = rest.find('\n');
      std::string_view line = rest.substr(0, eol);
      rest = eol == std::string_view::npos ? std::string_view() : rest.substr(eol + 1);
      line = line.substr(0, line.find('#'));  // the code, not its comment
      for (std::string_view later : kLater) {
        EXPECT_EQ(line.find(later), std::string_view::npos) << k.fix_id << ": " << later;
      }
    }
  }
  // The profiler fixes and the old-release ones among them.
  EXPECT_GE(checked, 10u);
}

TEST(KnobsTest, AtMostOneKnobPerFixAndFramework) {
  std::set<std::pair<std::string_view, FixTarget>> seen;
  for (const Knob& k : AllKnobs()) {
    EXPECT_TRUE(seen.insert({k.fix_id, k.framework}).second)
        << k.fix_id << " twice for " << FixTargetName(k.framework);
  }
}

TEST(KnobsTest, EveryFixIdIsDocumented) {
  const std::string doc = perfdx::testing::ReadFileOrDie("docs/recommendations.md");
  for (const Knob& k : AllKnobs()) {
    // Each fix has its own heading, e.g. "## `dataloader_parallel`".
    const std::string heading = "## `" + std::string(k.fix_id) + "`";
    EXPECT_NE(doc.find(heading), std::string::npos) << "docs/recommendations.md lacks " << heading;
    EXPECT_NE(doc.find(std::string(k.doc_url)), std::string::npos)
        << "docs/recommendations.md lacks the source of " << k.fix_id << " / "
        << FixTargetName(k.framework) << ": " << k.doc_url;
  }
}

TEST(KnobsTest, RecommendationsForReturnsOnePerFramework) {
  const std::vector<Recommendation> recs = RecommendationsFor("dataloader_parallel");
  ASSERT_EQ(recs.size(), 3u);
  std::set<FixTarget> frameworks;
  for (const Recommendation& r : recs) {
    frameworks.insert(r.framework);
    EXPECT_FALSE(r.text.empty());
    EXPECT_FALSE(r.doc_url.empty());
  }
  // The stock DataLoader fix is written once for PyTorch on any platform
  // and torch_npu.
  EXPECT_EQ(frameworks, (std::set<FixTarget>{FixTarget::kMindSpore, FixTarget::kTorchNpu,
                                             FixTarget::kPytorch}));
  // Ascend-only and CUDA-only fixes name only their framework.
  const std::vector<Recommendation> jit = RecommendationsFor("jit_compile_off");
  ASSERT_EQ(jit.size(), 1u);
  EXPECT_EQ(jit[0].framework, FixTarget::kTorchNpu);
  EXPECT_TRUE(RecommendationsFor("no_such_fix").empty());
}

// The fixes the rules refer to must exist, or a finding would come without
// advice.
TEST(KnobsTest, FixesUsedByRulesExist) {
  for (std::string_view id :
       {"dataloader_parallel", "pinned_memory", "avoid_host_sync", "async_logging",
        "reduce_launch_overhead", "operator_fusion", "overlap_communication", "cpu_binding",
        "launch_blocking_off", "mixed_precision", "memory_fragmentation", "profile_with_stack",
        "fsdp_prefetch", "host_tuning", "mixed_precision_cuda_amp", "upgrade_pytorch"}) {
    EXPECT_FALSE(RecommendationsFor(id).empty()) << id;
  }
}

}  // namespace
}  // namespace perfdx::advisor
