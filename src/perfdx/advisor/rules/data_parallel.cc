// The TensorBoard plugin's distributed-setup rules, generalised:
//  - data_parallel_single_process: nn.DataParallel driving several devices
//    from one process (plugin rule R2: "DataParallel.forward" and device work
//    on more than one device) -> DistributedDataParallel;
//  - collective_backend: a data-parallel job whose collectives run on Gloo
//    while the devices are GPUs/NPUs (plugin rule R3 looks for DDP without
//    NCCL; perfdx reads the process group's backend from the trace).
// Neither has a what-if on the timeline (the fix changes the process
// layout), so both report a gain of 0 and stay warnings.
#include <fmt/format.h>

#include "perfdx/advisor/advisor.h"
#include "perfdx/advisor/knobs.h"
#include "perfdx/advisor/rules/rule_util.h"
#include "perfdx/advisor/rules/rules.h"

namespace perfdx::advisor {
namespace {

class DataParallelRule final : public Rule {
 public:
  std::string_view id() const override { return "data_parallel_single_process"; }

  void Evaluate(const RuleContext& c, std::vector<Finding>* out) const override {
    const analysis::RankLayout& layout = c.analysis.layout;
    if (!layout.data_parallel_forward) return;
    const std::vector<int32_t>& devices = layout.work_device_ids;
    if (devices.size() < 2) return;
    Finding f;
    f.rule = std::string(id());
    f.category = Category::kCommunication;
    f.severity = Severity::kWarning;
    f.title = fmt::format("nn.DataParallel drives {} devices from one process", devices.size());
    f.evidence.metric = "devices_per_process";
    f.evidence.value = static_cast<double>(devices.size());
    f.evidence.threshold = 1;
    f.evidence.unit = "count";
    AddTag(&f, "data_parallel_module");
    f.recommendations = RecommendationsFor("use_ddp");
    out->push_back(std::move(f));
  }
};

class CollectiveBackendRule final : public Rule {
 public:
  std::string_view id() const override { return "collective_backend"; }

  void Evaluate(const RuleContext& c, std::vector<Finding>* out) const override {
    const model::RankInfo& info = c.info();
    const bool accelerator = info.device_type == model::DeviceType::kCuda ||
                             info.device_type == model::DeviceType::kRocm ||
                             info.device_type == model::DeviceType::kNpu;
    if (!accelerator || info.distributed_backend != "gloo") return;
    Finding f;
    f.rule = std::string(id());
    f.category = Category::kCommunication;
    f.severity = Severity::kWarning;
    f.title = fmt::format("Collectives use the Gloo backend on {} devices",
                          model::DeviceTypeName(info.device_type));
    f.evidence.metric = "distributed_backend";
    f.evidence.unit = info.distributed_backend;
    AddTag(&f, "gloo_on_device");
    f.recommendations = RecommendationsFor("collective_backend");
    out->push_back(std::move(f));
  }
};

}  // namespace

const Rule& DataParallelSingleProcess() {
  static const DataParallelRule rule;
  return rule;
}

const Rule& CollectiveBackend() {
  static const CollectiveBackendRule rule;
  return rule;
}

}  // namespace perfdx::advisor
