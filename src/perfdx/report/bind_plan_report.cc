#include "perfdx/report/bind_plan_report.h"

#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "perfdx/base/json_writer.h"
#include "perfdx/host/cpu_list.h"
#include "perfdx/report/text_layout.h"
#include "perfdx/report/text_table.h"
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

std::string RenderBindPlanText(const BindPlan& plan, int width) {
  const auto columns = static_cast<size_t>(std::max(width, 40));
  std::string out;
  AppendLines(out,
              Wrap(fmt::format("perfdx bind: policy {}, {} local ranks, memory policy {}{}",
                               host::BindPolicyName(plan.policy), plan.ranks.size(),
                               plan.membind ? "bind (MPOL_BIND)" : "preferred (MPOL_PREFERRED)",
                               plan.fallback ? ", no accelerator (fallback)" : ""),
                   columns, "", 4));
  TextTable table({{.header = "rank", .right = true},
                   {.header = "device", .shrink = true},
                   {.header = "memory"},
                   {.header = "cpus"},
                   {.header = "main", .drop = 2},
                   {.header = "workers", .drop = 1}});
  for (const auto& r : plan.ranks) {
    const bool split = plan.policy == BindPolicy::kSplit;
    table.AddRow({fmt::format("{}", r.local_rank), DeviceLabel(r), MemPolicyName(plan, r),
                  FormatCpuList(r.cpus), split ? FormatCpuList(r.main_cpus) : "",
                  split ? FormatCpuList(r.worker_cpus) : ""});
  }
  AppendLines(out, table.Render(columns, 0));
  if (const std::string note = DroppedColumnsNote(table, columns, "--json"); !note.empty()) {
    AppendLines(out, Wrap(note, columns, "", 1));
  }
  out += "\nequivalent command lines:\n";
  // A command after its label; one too long for the label's line goes on
  // the lines after it, cut only where it still pastes as the same command.
  auto command = [&](const std::string& label, const std::string& line) {
    if (DisplayWidth(label) + DisplayWidth(line) <= columns) {
      out += label + line + "\n";
      return;
    }
    out += label.substr(0, label.find_last_not_of(' ') + 1) + "\n";
    AppendLines(out, WrapCode(line, columns, 2));
  };
  for (const auto& r : plan.ranks) {
    const std::string label = fmt::format("rank {}: ", r.local_rank);
    command(label, host::TasksetLine(r));
    command(label, host::NumactlLine(r, plan.membind));
  }
  if (const std::string conf = host::CpuAffinityConf(plan); !conf.empty()) {
    command("torch_npu (all ranks): ", "export " + conf);
  }
  if (!plan.notes.empty()) {
    out += "\nnotes:\n";
    for (const auto& note : plan.notes) AppendLines(out, Wrap(note, columns, "- ", 2));
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
