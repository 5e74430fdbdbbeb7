#include "perfdx/formats/ascend/operator_tables.h"

#include <cmath>

#include "perfdx/formats/ascend/device.h"

namespace perfdx::formats::side_file {

namespace fs = std::filesystem;
using model::AscendData;

void ReadApiStatistic(const fs::path& path, const AscendSideOptions& options, model::Trace* trace) {
  AscendData& a = Ascend(trace);
  ReadSideCsv(path, options, trace, [&](const CsvHeader& h, const CsvRow& r) {
    const std::string_view name = r.Text(h.Find({"API Name"}));
    const auto total = r.MicrosToNanos(h.Find({"Time(us)"}));
    const auto count = r.Int(h.Find({"Count"}));
    if (name.empty() || !total || !count) return false;
    model::AscendApiStatistic s;
    s.device_id = DeviceOf(r, h.Find({"Device_id"}));
    s.level = Intern(trace, r.Text(h.Find({"Level"})));
    s.name = Intern(trace, name);
    s.total_ns = *total;
    s.count = *count;
    s.avg_ns = r.MicrosToNanos(h.Find({"Avg(us)"})).value_or(-1);
    s.min_ns = r.MicrosToNanos(h.Find({"Min(us)"})).value_or(-1);
    s.max_ns = r.MicrosToNanos(h.Find({"Max(us)"})).value_or(-1);
    s.variance = r.Double(h.Find({"Variance"})).value_or(NAN);
    a.api_statistics.push_back(s);
    return true;
  });
}

void ReadOpStatistic(const fs::path& path, const AscendSideOptions& options, model::Trace* trace) {
  AscendData& a = Ascend(trace);
  ReadSideCsv(path, options, trace, [&](const CsvHeader& h, const CsvRow& r) {
    const std::string_view type = r.Text(h.Find({"OP Type", "Op Type"}));
    const auto count = r.Int(h.Find({"Count"}));
    const auto total = r.MicrosToNanos(h.Find({"Total Time(us)"}));
    if (type.empty() || !count || !total) return false;
    model::AscendOpStatistic s;
    s.device_id = DeviceOf(r, h.Find({"Device_id"}));
    s.op_type = Intern(trace, type);
    s.core_type = Intern(trace, r.Text(h.Find({"Core Type"})));
    s.count = *count;
    s.total_ns = *total;
    s.min_ns = r.MicrosToNanos(h.Find({"Min Time(us)"})).value_or(-1);
    s.avg_ns = r.MicrosToNanos(h.Find({"Avg Time(us)"})).value_or(-1);
    s.max_ns = r.MicrosToNanos(h.Find({"Max Time(us)"})).value_or(-1);
    s.ratio_pct = r.Double(h.Find({"Ratio(%)"})).value_or(NAN);
    a.op_statistics.push_back(s);
    return true;
  });
}

void ReadAiCpu(const fs::path& path, const AscendSideOptions& options, model::Trace* trace) {
  AscendData& a = Ascend(trace);
  ReadSideCsv(path, options, trace, [&](const CsvHeader& h, const CsvRow& r) {
    const std::string_view node = r.Text(h.Find({"Node", "Op Name"}));
    const auto ts = r.MicrosToNanos(h.Find({"Timestamp(us)"}));
    if (node.empty() || !ts) return false;
    model::AscendAiCpuOp op;
    op.device_id = DeviceOf(r, h.Find({"Device_id"}));
    op.ts_ns = *ts;
    op.node = Intern(trace, node);
    op.compute_ns = r.MicrosToNanos(h.Find({"Compute_time(us)"})).value_or(-1);
    op.memcpy_ns = r.MicrosToNanos(h.Find({"Memcpy_time(us)"})).value_or(-1);
    op.task_ns = r.MicrosToNanos(h.Find({"Task_time(us)"})).value_or(-1);
    op.dispatch_ns = r.MicrosToNanos(h.Find({"Dispatch_time(us)"})).value_or(-1);
    op.total_ns = r.MicrosToNanos(h.Find({"Total_time(us)"})).value_or(-1);
    op.stream_id = r.Int(h.Find({"Stream ID", "Stream Id"})).value_or(-1);
    op.task_id = r.Int(h.Find({"Task ID", "Task Id"})).value_or(-1);
    a.ai_cpu_ops.push_back(op);
    return true;
  });
}

void ReadL2Cache(const fs::path& path, const AscendSideOptions& options, model::Trace* trace) {
  AscendData& a = Ascend(trace);
  ReadSideCsv(path, options, trace, [&](const CsvHeader& h, const CsvRow& r) {
    const auto task = r.Int(h.Find({"Task Id", "Task ID"}));
    if (!task) return false;
    model::AscendL2Cache l;
    l.stream_id = r.Int(h.Find({"Stream Id", "Stream ID"})).value_or(-1);
    l.task_id = *task;
    l.hit_rate = r.Double(h.Find({"Hit Rate"})).value_or(NAN);
    l.victim_rate = r.Double(h.Find({"Victim Rate"})).value_or(NAN);
    l.op_name = Intern(trace, r.Text(h.Find({"Op Name"})));
    a.l2_cache.push_back(l);
    return true;
  });
}

void ReadOperatorDetails(const fs::path& path, const AscendSideOptions& options,
                         model::Trace* trace) {
  AscendData& a = Ascend(trace);
  ReadSideCsv(path, options, trace, [&](const CsvHeader& h, const CsvRow& r) {
    const std::string_view name = r.Text(h.Find({"Name"}));
    if (name.empty()) return false;
    model::AscendOperatorDetail d;
    d.name = Intern(trace, name);
    d.input_shapes = Intern(trace, r.Text(h.Find({"Input Shapes"})));
    d.call_stack = Intern(trace, r.Text(h.Find({"Call Stack"})));
    d.host_self_ns = r.MicrosToNanos(h.Find({"Host Self Duration(us)"})).value_or(-1);
    d.host_total_ns = r.MicrosToNanos(h.Find({"Host Total Duration(us)"})).value_or(-1);
    d.device_self_ns = r.MicrosToNanos(h.Find({"Device Self Duration(us)"})).value_or(-1);
    d.device_total_ns = r.MicrosToNanos(h.Find({"Device Total Duration(us)"})).value_or(-1);
    d.device_self_aicore_ns =
        r.MicrosToNanos(h.Find({"Device Self Duration With AICore(us)"})).value_or(-1);
    d.device_total_aicore_ns =
        r.MicrosToNanos(h.Find({"Device Total Duration With AICore(us)"})).value_or(-1);
    a.operator_details.push_back(d);
    return true;
  });
}

}  // namespace perfdx::formats::side_file
