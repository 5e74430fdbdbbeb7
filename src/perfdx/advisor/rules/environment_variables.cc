// Environment variables that slow training down
// (../shared/docs/ascend-advisor_rules.md, row 23; msprof-analyze
// environment_variable_checker), read from profiler_metadata.json
// ENV_VARIABLES (DB: META_DATA), as RankAnalysis::ascend_profile holds them. torch_npu
// records a fixed list, with "" for a variable that is not set; a variable
// absent from the list is unknown, never taken for unset. Checked:
//
//   variable                 offending when                     fix id
//   ASCEND_GLOBAL_LOG_LEVEL  0, 1 or 2 (debug/info/warning)     ascend_log_level
//   HCCL_RDMA_TC, _SL        set (listed, no fix: they must
//                            match the switch, see below)
//   ACLNN_CACHE_LIMIT        set below 10000, or unset while    aclnn_cache
//                            no operator is static
//   HOST_CACHE_CAPACITY      unset or 0 while no operator is    host_shape_cache
//                            static
//   PYTORCH_NPU_ALLOC_CONF   lacks expandable_segments:True     memory_fragmentation
//   ASCEND_LAUNCH_BLOCKING   1                                  launch_blocking_off
//   HCCL_ALGO                set                                hccl_algo_auto
//   TASK_QUEUE_ENABLE        recorded and not 2                 reduce_launch_overhead
//   CPU_AFFINITY_CONF        recorded and unset or 0            cpu_binding
//   HCCL_BUFFSIZE            recorded and (default 200) MB      hccl_env
//                            below the largest collective
//
// The first rows are msprof's; the last three are the list (torch_npu
// does not record them, so they apply when a tool adds them). Where perfdx
// departs from msprof, the CANN documentation of the variable is why:
// ASCEND_GLOBAL_LOG_LEVEL=4 (no logging) is not slower than 3, so only 0-2
// are flagged; ACLNN_CACHE_LIMIT's default is 10000 and CANN advises keeping
// it except for dynamic shapes, and HOST_CACHE_CAPACITY caches dynamic-shape
// execution data only, so unset values are flagged only when no operator is
// recorded static (msprof's dynamic-shape test; msprof flags them always).
// HCCL_RDMA_TC / HCCL_RDMA_SL (RoCE DSCP and priority) are correct only when
// they match the network's configuration, which a profile cannot show: they
// are listed, as msprof lists them, with no fix.
//
// Gain 0: the profile cannot tell what a setting costs (no time what-if).
// Severity: warning for ASCEND_LAUNCH_BLOCKING=1 (every operator runs
// synchronously) and debug/info logging (the CANN page warns of its
// traffic), info otherwise.
#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "perfdx/advisor/knobs.h"
#include "perfdx/advisor/rules/rule_util.h"
#include "perfdx/advisor/rules/rules.h"

namespace perfdx::advisor {
namespace {

constexpr int64_t kAclnnCacheDefault = 10000;    // CANN default (envref ACLNN_CACHE_LIMIT)
constexpr int64_t kHcclBuffsizeDefaultMb = 200;  // CANN default (envref HCCL_BUFFSIZE)
constexpr double kMib = 1024.0 * 1024.0;

std::optional<int64_t> ParseInt(std::string_view s) {
  if (s.empty() || s.size() > 18) return std::nullopt;
  int64_t v = 0;
  for (char ch : s) {
    if (ch < '0' || ch > '9') return std::nullopt;
    v = v * 10 + (ch - '0');
  }
  return v;
}

struct Offender {
  std::string variable;
  std::string value;       // as recorded ("" = unset)
  std::string suggestion;  // what to set, or what to check
  std::string fix_id;      // "" when no knob applies
  bool slows_every_step = false;
};

class EnvironmentVariablesRule final : public Rule {
 public:
  std::string_view id() const override { return "environment_variables"; }

  void Evaluate(const RuleContext& c, std::vector<Finding>* out) const override {
    const analysis::AscendProfile& profile = c.analysis.ascend_profile;
    if (!profile.present || profile.env_variables.empty()) return;
    const std::map<std::string, std::string>& env = profile.env_variables;
    const bool dynamic = c.analysis.ascend_operators.op_states.NoStatic();
    std::vector<Offender> found;
    auto check = [&](std::string_view var,
                     const std::function<std::optional<Offender>(const std::string&)>& offends) {
      auto it = env.find(std::string(var));
      if (it == env.end()) return;
      if (auto o = offends(it->second)) {
        o->variable = std::string(var);
        o->value = it->second;
        found.push_back(std::move(*o));
      }
    };

    check("ASCEND_GLOBAL_LOG_LEVEL", [](const std::string& v) -> std::optional<Offender> {
      const auto level = ParseInt(v);
      if (!level || *level > 2) return std::nullopt;
      return Offender{{}, {}, "export ASCEND_GLOBAL_LOG_LEVEL=3", "ascend_log_level", *level <= 1};
    });
    for (std::string_view var : {"HCCL_RDMA_TC", "HCCL_RDMA_SL"}) {
      check(var, [](const std::string& v) -> std::optional<Offender> {
        if (v.empty()) return std::nullopt;
        return Offender{{}, {}, "check that it matches the RoCE switch configuration", "", false};
      });
    }
    check("ACLNN_CACHE_LIMIT", [&](const std::string& v) -> std::optional<Offender> {
      const auto limit = ParseInt(v);
      const bool low = limit && *limit < kAclnnCacheDefault;
      if (!low && !(v.empty() && dynamic)) return std::nullopt;
      return Offender{{}, {}, "export ACLNN_CACHE_LIMIT=100000", "aclnn_cache", false};
    });
    check("HOST_CACHE_CAPACITY", [&](const std::string& v) -> std::optional<Offender> {
      const auto capacity = ParseInt(v);
      if (!dynamic || (capacity && *capacity > 0) || (!v.empty() && !capacity)) return std::nullopt;
      return Offender{{}, {}, "export HOST_CACHE_CAPACITY=20", "host_shape_cache", false};
    });
    check("PYTORCH_NPU_ALLOC_CONF", [](const std::string& v) -> std::optional<Offender> {
      if (v.find("expandable_segments:True") != std::string::npos) return std::nullopt;
      return Offender{{},
                      {},
                      "export PYTORCH_NPU_ALLOC_CONF=expandable_segments:True",
                      "memory_fragmentation",
                      false};
    });
    check("ASCEND_LAUNCH_BLOCKING", [](const std::string& v) -> std::optional<Offender> {
      if (ParseInt(v) != 1) return std::nullopt;
      return Offender{{}, {}, "unset ASCEND_LAUNCH_BLOCKING", "launch_blocking_off", true};
    });
    check("HCCL_ALGO", [](const std::string& v) -> std::optional<Offender> {
      if (v.empty()) return std::nullopt;
      return Offender{{}, {}, "unset HCCL_ALGO", "hccl_algo_auto", false};
    });
    check("TASK_QUEUE_ENABLE", [](const std::string& v) -> std::optional<Offender> {
      if (ParseInt(v) == 2) return std::nullopt;
      return Offender{{}, {}, "export TASK_QUEUE_ENABLE=2", "reduce_launch_overhead", false};
    });
    check("CPU_AFFINITY_CONF", [](const std::string& v) -> std::optional<Offender> {
      if (!v.empty() && v[0] != '0') return std::nullopt;
      return Offender{{}, {}, "export CPU_AFFINITY_CONF=1", "cpu_binding", false};
    });
    int64_t largest_message = 0;
    for (const analysis::CollectiveStats& col : c.analysis.collectives.collectives) {
      largest_message = std::max(largest_message, col.message_bytes);
    }
    check("HCCL_BUFFSIZE", [&](const std::string& v) -> std::optional<Offender> {
      const int64_t mb = v.empty() ? kHcclBuffsizeDefaultMb : ParseInt(v).value_or(-1);
      if (mb < 0 || static_cast<double>(mb) * kMib >= static_cast<double>(largest_message))
        return std::nullopt;
      return Offender{{},
                      {},
                      fmt::format("export HCCL_BUFFSIZE={:.0f}  # MB, the largest collective",
                                  std::ceil(static_cast<double>(largest_message) / kMib)),
                      "hccl_env",
                      false};
    });
    if (found.empty()) return;

    Finding f;
    f.rule = std::string(id());
    f.category = Category::kSystem;
    f.gain = {0, 0};
    const bool severe = std::any_of(found.begin(), found.end(),
                                    [](const Offender& o) { return o.slows_every_step; });
    f.severity = severe ? Severity::kWarning : Severity::kInfo;
    std::string list;
    for (const Offender& o : found) {
      if (!list.empty()) list += ", ";
      list += o.variable;
    }
    f.title = fmt::format("{} environment variable{} differ from the Ascend advisor's advice: {}",
                          found.size(), found.size() == 1 ? "" : "s", list);
    f.evidence.metric = "environment_variables";
    f.evidence.value = static_cast<double>(found.size());
    f.evidence.threshold = 0;
    f.evidence.unit = "count";
    const FixTarget framework =
        profile.framework == "mindspore" ? FixTarget::kMindSpore : FixTarget::kTorchNpu;
    std::vector<std::string> fixes;
    AddTag(&f, "env_advice");
    for (const Offender& o : found) {
      f.evidence.contributors.push_back(
          {fmt::format("{}={}: {}", o.variable, o.value.empty() ? "(unset)" : o.value,
                       o.suggestion),
           0, 0});
      if (o.fix_id.empty() || std::find(fixes.begin(), fixes.end(), o.fix_id) != fixes.end())
        continue;
      fixes.push_back(o.fix_id);
      for (Recommendation& r : RecommendationsFor(o.fix_id)) {
        if (r.framework == framework) f.recommendations.push_back(std::move(r));
      }
    }
    out->push_back(std::move(f));
  }
};

}  // namespace

const Rule& EnvironmentVariables() {
  static const EnvironmentVariablesRule rule;
  return rule;
}

}  // namespace perfdx::advisor
