#include "perfdx/report/bind_plan_report.h"

#include <fmt/format.h>

#include "perfdx/base/json_writer.h"
#include "perfdx/host/cpu_list.h"
#include "perfdx/version.h"

namespace perfdx::report {
namespace {

using host::BindPlan;
using host::BindPolicy;
using host::FormatCpuList;
using host::RankBinding;

std::string DeviceLabel(const RankBinding& r) {
  if (r.device == nullptr) return "-";
  std::string label = fmt::format("{} {} {}", r.device_index, host::DeviceKindName(r.device->kind),
                                  r.device->address);
  if (!r.device->model.empty()) label += " (" + r.device->model + ")";
  return label;
}

std::string MemPolicyName(const BindPlan& plan, const RankBinding& r) {
  if (r.mem_node < 0) return "none";
  return fmt::format("{}:{}", plan.membind ? "bind" : "preferred", r.mem_node);
}

}  // namespace

std::string RenderBindPlanText(const BindPlan& plan) {
  std::string out = fmt::format("perfdx bind: policy {}, {} local ranks, memory policy {}{}\n",
                                host::BindPolicyName(plan.policy), plan.ranks.size(),
                                plan.membind ? "bind (MPOL_BIND)" : "preferred (MPOL_PREFERRED)",
                                plan.fallback ? ", no accelerator (fallback)" : "");
  out += fmt::format("{:<5} {:<48} {:<14} {}\n", "rank", "device", "memory", "cpus");
  for (const auto& r : plan.ranks) {
    out += fmt::format("{:<5} {:<48} {:<14} {}", r.local_rank, DeviceLabel(r),
                       MemPolicyName(plan, r), FormatCpuList(r.cpus));
    if (plan.policy == BindPolicy::kSplit) {
      out += fmt::format("  (main {}, workers {})", FormatCpuList(r.main_cpus),
                         FormatCpuList(r.worker_cpus));
    }
    out += '\n';
  }
  out += "\nequivalent command lines:\n";
  for (const auto& r : plan.ranks) {
    out += fmt::format("rank {}: {}\n", r.local_rank, host::TasksetLine(r));
    out += fmt::format("rank {}: {}\n", r.local_rank, host::NumactlLine(r, plan.membind));
  }
  if (const std::string conf = host::CpuAffinityConf(plan); !conf.empty()) {
    out += fmt::format("torch_npu (all ranks): export {}\n", conf);
  }
  if (!plan.notes.empty()) {
    out += "\nnotes:\n";
    for (const auto& note : plan.notes) out += "- " + note + "\n";
  }
  return out;
}

std::string RenderBindPlanJson(const BindPlan& plan) {
  JsonWriter w;
  w.BeginObject();
  w.Key("schema_version").Int(kBindPlanSchemaVersion);
  w.Key("report").String("bind_plan");
  w.Key("perfdx_version").String(PERFDX_VERSION);
  w.Key("policy").String(host::BindPolicyName(plan.policy));
  w.Key("membind").Bool(plan.membind);
  w.Key("fallback").Bool(plan.fallback);
  w.Key("visible_variable").String(plan.visible_variable);
  w.Key("ranks").BeginArray();
  for (const auto& r : plan.ranks) {
    w.BeginObject();
    w.Key("local_rank").Int(r.local_rank);
    w.Key("device_index").Int(r.device_index);
    w.Key("device");
    if (r.device == nullptr) {
      w.Null();
    } else {
      w.BeginObject();
      w.Key("address").String(r.device->address);
      w.Key("kind").String(host::DeviceKindName(r.device->kind));
      w.Key("model").String(r.device->model);
      w.Key("numa_node").Int(r.device->numa_node);
      w.EndObject();
    }
    w.Key("cpus").String(FormatCpuList(r.cpus));
    w.Key("main_cpus").String(FormatCpuList(r.main_cpus));
    w.Key("worker_cpus").String(FormatCpuList(r.worker_cpus));
    w.Key("mem_node").Int(r.mem_node);
    w.Key("mem_policy").String(r.mem_node < 0 ? "none" : plan.membind ? "bind" : "preferred");
    w.Key("taskset").String(host::TasksetLine(r));
    w.Key("numactl").String(host::NumactlLine(r, plan.membind));
    w.EndObject();
  }
  w.EndArray();
  w.Key("cpu_affinity_conf").String(host::CpuAffinityConf(plan));
  w.Key("notes").Strings(plan.notes);
  w.EndObject();
  return w.TakeDocument();
}

}  // namespace perfdx::report
