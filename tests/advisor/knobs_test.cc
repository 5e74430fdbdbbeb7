// The catalogue of fixes: every knob is documented, cites an official page,
// spells no API that does not exist, and matches docs/recommendations.md.
#include "perfdx/advisor/knobs.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <set>
#include <string>
#include <string_view>

#include <gtest/gtest.h>

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
  constexpr std::array<std::string_view, 9> kForbidden = {
      "MS_MODEL_SUBMISSION", "HeteroConfig",     "set_hetero_config",
      "fused_conv2d_bn_relu", "schedutils",      "npu_bridge",
      "enable_heterogeneous_memory", "communication_fusion_threshold", "allreduce_fusion"};
  for (const Knob& k : AllKnobs()) {
    for (std::string_view bad : kForbidden) {
      EXPECT_EQ(k.text.find(bad), std::string_view::npos) << k.fix_id << " text: " << bad;
      EXPECT_EQ(k.snippet.find(bad), std::string_view::npos) << k.fix_id << " snippet: " << bad;
    }
  }
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
  EXPECT_EQ(frameworks, (std::set<FixTarget>{FixTarget::kMindSpore, FixTarget::kTorchNpu,
                                             FixTarget::kPytorchCuda}));
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
        "launch_blocking_off", "mixed_precision", "memory_fragmentation"}) {
    EXPECT_FALSE(RecommendationsFor(id).empty()) << id;
  }
}

}  // namespace
}  // namespace perfdx::advisor
