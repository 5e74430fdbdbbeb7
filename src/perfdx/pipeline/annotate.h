// `perfdx annotate` as a library call: one rank's trace analysed, and the same
// trace written back with perfdx's tracks added (report/annotation_events.h):
// the original bytes unchanged, the new events at the end of its event array.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "perfdx/base/status.h"
#include "perfdx/pipeline/analyze.h"

namespace perfdx::pipeline {

struct AnnotateRequest {
  AnalyzeRequest analyze;  // `paths`: one rank's Chrome trace or Ascend text profile
  bool gzip = false;       // the output compressed (an output named *.gz)
};

struct AnnotatedTrace {
  std::string bytes;       // the annotated trace, gzip'd when asked
  std::string trace_path;  // the file it was made from
  int64_t pid = 0;         // the process of perfdx's tracks
  std::vector<std::string> warnings;
};

// Fails (kUnsupported) for inputs without a Chrome trace to annotate (a DB
// export, a kernel CSV, several ranks, standard input), naming what to pass.
Result<AnnotatedTrace> AnnotateTrace(const AnnotateRequest& request);

}  // namespace perfdx::pipeline
