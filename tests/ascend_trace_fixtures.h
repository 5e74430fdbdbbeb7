// Builders of Ascend trace_view.json fixtures (times in µs), shared by the
// Ascend analysis and advisor tests. Processes: Python 10 (thread 10),
// Ascend Hardware 20 (Stream 3), HCCL 30 (Group 1 Communication, Plane 0),
// CANN 40 (thread 41), AI Core Freq 50, Python GC 60. Each event ends in a
// comma; AscendTrace closes the array.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <fmt/format.h>

namespace perfdx::testing::ascend {

inline std::string X(int pid, int tid, std::string_view name, double ts, double dur,
                     std::string_view cat = "", std::string_view args = "") {
  return fmt::format(
      R"({{"ph": "X", "cat": "{}", "name": "{}", "pid": {}, "tid": {}, "ts": {}, "dur": {}, )"
      R"("args": {{{}}}}},)",
      cat, name, pid, tid, ts, dur, args);
}
inline std::string Task(std::string_view name, std::string_view type, double ts, double dur) {
  return X(20, 3, name, ts, dur, "", fmt::format(R"("Task Type": "{}")", type));
}
inline std::string Cann(std::string_view name, double ts, double dur) {
  return X(40, 41, name, ts, dur);
}
inline std::string Op(std::string_view name, double ts, double dur) {
  return X(10, 10, name, ts, dur, "cpu_op");
}
inline std::string Freq(double ts, double mhz) {
  return fmt::format(R"({{"ph": "C", "name": "AI Core Freq", "pid": 50, "tid": 0, "ts": {}, )"
                     R"("args": {{"MHz": {}}}}},)",
                     ts, mhz);
}
inline std::string HcclOp(std::string_view name, double ts, double dur) {
  return X(30, 0, name, ts, dur, "", R"("count": 1000, "data_type": "FP32", "alg_type": "RING")");
}
inline std::string HcclTaskEvent(std::string_view name, double ts, double dur,
                                 std::string_view transport, std::string_view link, int64_t bytes) {
  return X(30, 1, name, ts, dur, "",
           fmt::format(R"j("task type": "{}", "transport type": "{}", "link type": "{}", )j"
                       R"j("size(Byte)": {})j",
                       name, transport, link, bytes));
}
inline std::string HcclMemcpy(double ts, double dur, int64_t bytes,
                              std::string_view link = "HCCS") {
  return HcclTaskEvent("Memcpy", ts, dur, "SDMA", link, bytes);
}

// One step, ProfilerStep#1 over [step_start_us, step_start_us + step_us),
// and `events`. `envelope` (e.g. R"("distributedInfo": {"rank": 1}, )")
// makes it the object form.
inline std::string AscendTraceFrom(double step_start_us, double step_us, const std::string& events,
                                   const std::string& envelope = "") {
  std::string json = envelope.empty() ? "[" : "{" + envelope + R"("traceEvents": [)";
  json += R"(
    {"ph": "M", "name": "process_name", "pid": 10, "tid": 0, "args": {"name": "Python"}},
    {"ph": "M", "name": "process_name", "pid": 20, "tid": 0,
     "args": {"name": "Ascend Hardware"}},
    {"ph": "M", "name": "thread_name", "pid": 20, "tid": 3, "args": {"name": "Stream 3"}},
    {"ph": "M", "name": "process_name", "pid": 30, "tid": 0, "args": {"name": "HCCL"}},
    {"ph": "M", "name": "thread_name", "pid": 30, "tid": 0,
     "args": {"name": "Group 1 Communication"}},
    {"ph": "M", "name": "thread_name", "pid": 30, "tid": 1, "args": {"name": "Plane 0"}},
    {"ph": "M", "name": "process_name", "pid": 40, "tid": 0, "args": {"name": "CANN"}},
    {"ph": "M", "name": "thread_name", "pid": 40, "tid": 41, "args": {"name": "Thread 41"}},
    {"ph": "M", "name": "process_name", "pid": 50, "tid": 0, "args": {"name": "AI Core Freq"}},
    {"ph": "M", "name": "process_labels", "pid": 50, "tid": 0, "args": {"labels": "NPU"}},
    {"ph": "M", "name": "process_name", "pid": 60, "tid": 0, "args": {"name": "Python GC"}},)";
  json += X(10, 10, "ProfilerStep#1", step_start_us, step_us, "cpu_op");
  json += events;
  json.pop_back();
  return json + (envelope.empty() ? "]" : "]}");
}

// The same with the step from 0.
inline std::string AscendTrace(double step_us, const std::string& events,
                               const std::string& envelope = "") {
  return AscendTraceFrom(0, step_us, events, envelope);
}

}  // namespace perfdx::testing::ascend
