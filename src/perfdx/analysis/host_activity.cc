#include "perfdx/analysis/host_activity.h"

#include <array>
#include <cctype>
#include <string>
#include <utility>

#include "perfdx/base/strings.h"

namespace perfdx::analysis {
namespace {

using enum HostActivity;

// Python modules whose frames are logging or file I/O (the file of the
// frame, as with_stack records it: "<path>(<line>): <function>").
constexpr std::array<std::pair<std::string_view, HostActivity>, 4> kModules = {{
    {"logging/__init__.py", kLogging},
    {"logging/handlers.py", kLogging},
    {"torch/serialization.py", kFileIo},  // torch.save / torch.load
    {"json/__init__.py", kFileIo},        // json.dump to a file
}};

// CPython built-ins, as the profiler names them ("<built-in function NAME>",
// "<built-in method NAME of TYPE object at 0x...>").
constexpr std::array<std::pair<std::string_view, HostActivity>, 2> kBuiltinFunctions = {{
    {"print", kPrint},
    {"open", kFileIo},
}};
// (method, type) pairs: writes and flushes of Python file objects.
constexpr std::array<std::string_view, 3> kFileMethods = {"write", "flush", "writelines"};
constexpr std::array<std::string_view, 4> kFileTypes = {"_io.TextIOWrapper", "_io.BufferedWriter",
                                                        "_io.FileIO", "_io.BufferedRandom"};

// Whole words of a record_function label.
constexpr std::array<std::pair<std::string_view, HostActivity>, 6> kLabelWords = {{
    {"log", kLogging},
    {"logging", kLogging},
    {"logger", kLogging},
    {"print", kPrint},
    {"checkpoint", kFileIo},
    {"save", kFileIo},
}};

HostActivity FromPythonFrame(std::string_view name) {
  constexpr std::string_view kFunction = "<built-in function ";
  constexpr std::string_view kMethod = "<built-in method ";
  if (name.rfind(kFunction, 0) == 0) {
    const std::string_view fn = name.substr(kFunction.size(), name.find('>') - kFunction.size());
    for (const auto& [builtin, activity] : kBuiltinFunctions) {
      if (fn == builtin) return activity;
    }
    return kNone;
  }
  if (name.rfind(kMethod, 0) == 0) {
    const std::string_view rest = name.substr(kMethod.size());
    const size_t of = rest.find(" of ");
    if (of == std::string_view::npos) return kNone;
    const std::string_view method = rest.substr(0, of);
    const std::string_view type = rest.substr(of + 4, rest.find(' ', of + 4) - (of + 4));
    for (std::string_view m : kFileMethods) {
      if (m != method) continue;
      for (std::string_view t : kFileTypes) {
        if (t == type) return kFileIo;
      }
    }
    return kNone;
  }
  // "<path>(<line>): <function>"
  const size_t paren = name.rfind('(');
  if (paren == std::string_view::npos) return kNone;
  const std::string_view file = name.substr(0, paren);
  for (const auto& [module, activity] : kModules) {
    if (file == module || file.ends_with(std::string("/") + std::string(module))) return activity;
  }
  return kNone;
}

HostActivity FromLabel(std::string_view name) {
  size_t i = 0;
  while (i < name.size()) {
    while (i < name.size() && !std::isalpha(static_cast<unsigned char>(name[i]))) ++i;
    size_t j = i;
    while (j < name.size() && std::isalpha(static_cast<unsigned char>(name[j]))) ++j;
    const std::string word = AsciiLower(name.substr(i, j - i));
    for (const auto& [w, activity] : kLabelWords) {
      if (word == w) return activity;
    }
    i = j;
  }
  return kNone;
}

}  // namespace

std::string_view HostActivityName(HostActivity a) {
  switch (a) {
    case kNone:
      return "";
    case kLogging:
      return "logging";
    case kPrint:
      return "print";
    case kFileIo:
      return "file_io";
  }
  return "";
}

HostActivity ClassifyHostActivity(model::EventKind kind, std::string_view name) {
  if (kind == model::EventKind::kPythonFunction) return FromPythonFrame(name);
  if (kind == model::EventKind::kUserAnnotation) return FromLabel(name);
  return kNone;
}

}  // namespace perfdx::analysis
