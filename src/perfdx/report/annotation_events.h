// `perfdx annotate`: the report of one rank as Chrome trace events, for the
// trace itself (formats/chrome/trace_splice.h adds them to its event array).
// One process, "perfdx", with a thread per track:
//   idle gaps              every gap of the analysis, named by its cause
//   data-loading stalls    the gaps whose cause is the data loader
//   exposed communication  communication with no compute beside it
//   finding N: RULE        the time ranges each finding points at
// Every event has "cat": "perfdx", which perfdx's own reader leaves out of any
// analysis (an annotated trace analyses like the original). Times are the
// trace's own, exact (µs with three decimals).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "perfdx/advisor/finding.h"
#include "perfdx/model/event_kind.h"
#include "perfdx/report/analyze_report.h"

namespace perfdx::report {

// The events, comma-separated JSON objects; `pid` is the process they go in
// (one the trace does not use), `job_findings` the cross-rank findings that
// name this rank.
std::string RenderAnnotationEvents(const AnalyzeRank& rank,
                                   const std::vector<const advisor::Finding*>& job_findings,
                                   int64_t pid);

}  // namespace perfdx::report
