// What an Ascend profile says about its device and its settings, copied
// from Trace::ascend (model/ascend.h) so that the advisor reads it from the
// analysis: the framework, the CANN version, the core counts, the rated AI
// Core clock and the recorded environment variables. `present` is false
// (and everything else empty or -1) for every trace that is not an Ascend
// profile.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "perfdx/model/trace.h"

namespace perfdx::analysis {

struct AscendProfile {
  bool present = false;      // the trace is an Ascend profile (it has Trace::ascend)
  std::string framework;     // "torch_npu", "mindspore", "msprof"; "" unknown
  std::string cann_version;  // as written ("8.0.RC2"); "" unknown
  // msprof device info.json "ai_core_num" / "aiv_num"; -1 not recorded.
  int32_t ai_core_count = -1;
  int32_t aiv_count = -1;
  // The rated AI Core clock (MHz): info.json "aic_frequency", else the
  // first "AI Core Freq" sample; -1 unknown.
  double rated_ai_core_mhz = -1;
  // profiler_metadata ENV_VARIABLES / META_DATA: "" for a variable recorded
  // unset; a variable absent from the map is unknown.
  std::map<std::string, std::string> env_variables;
};

AscendProfile ReadAscendProfile(const model::Trace& trace);

}  // namespace perfdx::analysis
