#include "perfdx/analysis/ascend_profile.h"

namespace perfdx::analysis {

AscendProfile ReadAscendProfile(const model::Trace& trace) {
  AscendProfile out;
  if (!trace.ascend) return out;
  const model::AscendData& a = *trace.ascend;
  out.present = true;
  out.framework = a.config.framework;
  out.cann_version = a.config.cann_version;
  out.ai_core_count = a.device.ai_core_count;
  out.aiv_count = a.device.aiv_count;
  out.rated_ai_core_mhz = a.device.aicore_freq_mhz;
  out.env_variables = a.env_variables;
  return out;
}

}  // namespace perfdx::analysis
