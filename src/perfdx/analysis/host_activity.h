// What a host slice does when it is logging, printing or file I/O: the
// evidence a logging fix needs (knobs.toml tag host_io). From a table of
// real names, never a substring that happens to match:
//   - Python frames as the PyTorch profiler records them with with_stack
//     ("logging/__init__.py(1489): info": the module file decides);
//   - CPython built-ins ("<built-in function print>", "<built-in method
//     write of _io.TextIOWrapper object at 0x...>": the callable and its type);
//   - record_function labels the user wrote, by whole words ("log_metrics":
//     the word "log").
#pragma once

#include <string_view>

#include "perfdx/model/event_kind.h"

namespace perfdx::analysis {

enum class HostActivity : uint8_t { kNone, kLogging, kPrint, kFileIo };
std::string_view HostActivityName(HostActivity a);  // "", "logging", "print", "file_io"

// The activity of a host slice of kind `kind` named `name`.
HostActivity ClassifyHostActivity(model::EventKind kind, std::string_view name);

}  // namespace perfdx::analysis
