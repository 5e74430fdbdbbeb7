// Sets a rank's framework, platform and execution features
// (model::FrameworkInfo) from what its trace holds: the source format and
// folder, the device work and its runtime, and named framework events. Runs
// once per rank, after the importer and its side files (ImportInput).
#pragma once

#include <optional>

#include "perfdx/io/discovery.h"
#include "perfdx/model/trace.h"

namespace perfdx::formats {

model::FrameworkInfo DetectFramework(const model::Trace& trace, const io::TraceInput& input);

// What a run's events say about its features, named by the event names the
// frameworks write (exposed for tests).
model::RuntimeFeatures DetectFeatures(const model::Trace& trace);

}  // namespace perfdx::formats
