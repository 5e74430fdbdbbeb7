// The rule registry (advisor/rules/rules.h): every rule once, by a unique id.
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "perfdx/advisor/rule.h"

namespace perfdx::advisor {
namespace {

TEST(RuleRegistry, EveryRuleHasAUniqueId) {
  std::set<std::string> ids;
  for (const Rule* r : AllRules()) {
    ASSERT_NE(r, nullptr);
    EXPECT_FALSE(r->id().empty());
    EXPECT_TRUE(ids.insert(std::string(r->id())).second) << "twice: " << r->id();
  }
  for (const JobRule* r : AllJobRules()) {
    ASSERT_NE(r, nullptr);
    EXPECT_TRUE(ids.insert(std::string(r->id())).second) << "twice: " << r->id();
  }
  // 37 rules over a rank (the registry's lines), 2 over a job's ranks.
  EXPECT_EQ(AllRules().size(), 37u);
  EXPECT_EQ(AllJobRules().size(), 2u);
  EXPECT_TRUE(ids.contains("late_rank"));
  EXPECT_TRUE(ids.contains("slow_link"));
  EXPECT_TRUE(ids.contains("data_loader_stall"));
}

}  // namespace
}  // namespace perfdx::advisor
