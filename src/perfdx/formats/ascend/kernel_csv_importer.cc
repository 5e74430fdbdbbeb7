#include "perfdx/formats/ascend/kernel_csv_importer.h"

#include <algorithm>
#include <string>
#include <unordered_set>
#include <vector>

#include <fmt/format.h>

#include "perfdx/formats/ascend/device.h"
#include "perfdx/formats/ascend/kernel_details.h"
#include "perfdx/formats/chrome/chrome_classifier.h"
#include "perfdx/model/trace_builder.h"

namespace perfdx::formats {

using model::AscendData;
using side_file::Ascend;
using side_file::FillRankInfo;
using side_file::ReadKernelCsv;
using side_file::SetDeviceFromData;

Result<model::Trace> ImportAscendKernelCsv(const io::TraceInput& input,
                                           const AscendSideOptions& options) {
  // The timeline from the rows, first; then the same file through the
  // kernel reader into Trace::ascend, linked to the tasks by start and
  // stream as in a profile folder.
  struct Task {
    std::string name;
    std::string task_type;
    int64_t stream = -1;
    int64_t start_ns = 0;
    int64_t dur_ns = 0;
  };
  std::vector<Task> tasks;
  bool have_columns = false;
  uint64_t records = 0;
  const Status status = ReadCsvFile(
      input.trace_path, options.limits, options.csv,
      [&](const CsvHeader& h, const CsvRow& r) {
        ++records;
        const int name = h.Find({"Name", "Op Name"});
        const int core = h.Find({"Accelerator Core", "Task Type"});
        const int start = h.Find({"Start Time(us)", "Task Start Time(us)"});
        const int dur = h.Find({"Duration(us)", "Task Duration(us)"});
        if (name < 0 || core < 0 || start < 0 || dur < 0) return;
        have_columns = true;
        const auto start_ns = r.MicrosToNanos(start);
        const auto dur_ns = r.MicrosToNanos(dur);
        if (r.Text(name).empty() || !start_ns || !dur_ns || *dur_ns < 0) return;
        tasks.push_back({std::string(r.Text(name)), std::string(r.Text(core)),
                         r.Int(h.Find({"Stream ID"})).value_or(-1), *start_ns, *dur_ns});
      },
      nullptr);
  PERFDX_RETURN_IF_ERROR(status);
  if (!have_columns) {
    return InvalidInput(fmt::format(
        "{}: not a kernel_details.csv / op_summary csv (needs Name, Accelerator Core or Task "
        "Type, Start Time(us) and Duration(us) columns{})",
        input.trace_path, records == 0 ? "; the file has no rows" : ""));
  }
  if (tasks.empty()) {
    return InvalidInput(
        fmt::format("{}: no kernel row with a start and a duration", input.trace_path));
  }

  model::RankInfo info;
  info.path = input.trace_path;
  info.rank = input.rank_hint;
  model::TraceBuilder builder(std::move(info));
  // Process ids of the events this builds; any distinct numbers do.
  constexpr int64_t kHardwarePid = 1;
  constexpr int64_t kHcclPid = 2;
  model::RawEvent e;
  auto meta = [&](std::string_view what, int64_t pid, int64_t tid, std::string_view value) {
    e.Clear();
    e.phase = "M";
    e.name = what;
    e.pid = {.number = pid, .present = true};
    e.tid = {.number = tid, .present = true};
    if (what == "process_labels") {
      e.meta_labels = value;
    } else {
      e.meta_name = value;
    }
    builder.AddEvent(e);
  };
  meta("process_name", kHardwarePid, 0, "Ascend Hardware");
  meta("process_labels", kHardwarePid, 0, "NPU");
  std::unordered_set<int64_t> streams;
  bool hccl = false;
  for (const Task& t : tasks) {
    if (t.task_type == "HCCL") {
      if (!hccl) {
        meta("process_name", kHcclPid, 0, "HCCL");
        meta("process_labels", kHcclPid, 0, "NPU");
        meta("thread_name", kHcclPid, 0, "Group 0 Communication");
        hccl = true;
      }
      continue;
    }
    const int64_t stream = std::max<int64_t>(t.stream, 0);
    if (streams.insert(stream).second) {
      meta("thread_name", kHardwarePid, stream, fmt::format("Stream {}", stream));
    }
  }
  for (const Task& t : tasks) {
    const bool op = t.task_type == "HCCL";
    e.Clear();
    e.phase = "X";
    e.name = t.name;
    e.pid = {.number = op ? kHcclPid : kHardwarePid, .present = true};
    e.tid = {.number = op ? 0 : std::max<int64_t>(t.stream, 0), .present = true};
    e.ts_state = model::FieldState::kOk;
    e.ts_ns = t.start_ns;
    e.dur_state = model::FieldState::kOk;
    e.dur_ns = t.dur_ns;
    if (!op) {
      e.args.push_back({model::ArgKey::kTaskType, model::ArgType::kString, 0, 0, t.task_type});
    }
    builder.AddEvent(e);
  }
  TraceEnvelope envelope;
  ChromeClassifier classifier(envelope);
  PERFDX_ASSIGN_OR_RETURN(model::Trace trace, std::move(builder).Finalize(classifier));
  trace.info.source = model::SourceFormat::kAscendKernelCsv;
  AscendData& a = Ascend(&trace);
  a.config.framework = input.framework;
  ReadKernelCsv(input.trace_path, options, &trace);
  SetDeviceFromData(&trace);
  LinkAscendKernels(&trace);
  FillRankInfo(&trace);
  return trace;
}

}  // namespace perfdx::formats
