// The JSON-lines step log: what a training loop writes, one line per step,
// when a full profiler trace is too heavy to keep for every run.
//
//   {"perfdx_step_log": 1, "meta": {"model": "resnet50", "host": "node7"}}
//   {"step": 0, "step_time_s": 0.2041, "samples": 256}
//   {"step": 1, "step_time_s": 0.1527, "samples": 256, "phases_s": {"data": 0.011}}
//
// Each non-blank line is one JSON object:
//   a step    one of step_time_s / step_time_ms / step_time_ns (> 0), and
//             optionally "step" (its number; default: the line's index among
//             steps), "samples" (items processed, for throughput) or
//             "throughput" (samples/s), "phases_s" ({phase: seconds});
//             any other key (loss, lr, ...) is ignored
//   a header  "meta": {key: value} (values become tags; "host" the host name),
//             with or without "perfdx_step_log": <format version>
// A last line cut short (the process was killed while writing it) is skipped
// with a note; any other malformed line is an error naming its line number.
//
// Writers: python/perfdx/steplog.py (perfdx.StepLog; stdlib only) and
// perfdx::PerfMonitor (perf_monitor.h, C++ header-only).
#pragma once

#include <string>
#include <string_view>

#include "perfdx/base/status.h"
#include "perfdx/baseline/record/run_record.h"

namespace perfdx::baseline {

inline constexpr int kStepLogVersion = 1;

// Parses a whole log; `display_name` names it in errors ("steps.jsonl: line 3: ...").
Result<RunRecord> ParseStepLog(std::string_view text, const std::string& display_name);

// Does this text look like a step log? True when its first non-blank line is
// a JSON object holding a step-time key or "perfdx_step_log".
bool LooksLikeStepLog(std::string_view head);

}  // namespace perfdx::baseline
