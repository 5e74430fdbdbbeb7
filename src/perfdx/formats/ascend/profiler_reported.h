// The profiler's own analyses, kept as cross-check data only
// (Trace::ascend->profiler_reported): step_trace_time.csv,
// communication.json and communication_matrix.json.
#pragma once

#include <filesystem>

#include <simdjson.h>

#include "perfdx/formats/ascend/side_file.h"
#include "perfdx/model/trace.h"

namespace perfdx::formats::side_file {

void ReadStepTraceTime(const std::filesystem::path& path, const AscendSideOptions& options,
                       model::Trace* trace);

// torch_npu: {step: {"p2p"|"collective": {op@group: info}}}; msprof's
// analyze/communication.json: {op@group: info} (no steps).
void ParseCommunication(simdjson::dom::element doc, model::AscendProfilerReported* out);

void ParseCommunicationMatrix(simdjson::dom::element doc, model::AscendProfilerReported* out);

}  // namespace perfdx::formats::side_file
