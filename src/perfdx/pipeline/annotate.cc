#include "perfdx/pipeline/annotate.h"

#include <unordered_set>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "perfdx/formats/chrome/trace_splice.h"
#include "perfdx/io/byte_source.h"
#include "perfdx/io/discovery.h"
#include "perfdx/io/gzip_writer.h"
#include "perfdx/report/annotation_events.h"

namespace perfdx::pipeline {
namespace {

// The one Chrome trace file behind the request's paths.
Result<std::string> TraceToAnnotate(const std::vector<std::string>& paths) {
  PERFDX_ASSIGN_OR_RETURN(io::Discovery discovery, io::DiscoverInputs(paths));
  if (discovery.inputs.size() != 1) {
    return Unsupported(fmt::format(
        "annotate takes one rank's trace; {} holds {} (name one rank's file or folder: the "
        "ranks of a job need their clocks aligned before they share a timeline)",
        fmt::join(paths, " "), discovery.inputs.size()));
  }
  const io::TraceInput& input = discovery.inputs.front();
  if (input.from_stdin) {
    return Unsupported(
        "annotate reads the trace twice (to analyse it, then to copy it): name "
        "the file instead of -");
  }
  const bool chrome =
      input.kind == io::InputKind::kChromeTraceFile || input.kind == io::InputKind::kAscendProfile;
  if (!chrome || !input.more_trace_paths.empty()) {
    return Unsupported(fmt::format(
        "{}: no single Chrome trace to annotate (a DB export, a kernel table or an msprof "
        "folder of several timeline files); export the profile as text (trace_view.json)",
        input.profile_dir.empty() ? input.trace_path : input.profile_dir));
  }
  return input.trace_path;
}

// A process id the trace does not use, for perfdx's tracks.
int64_t UnusedPid(const model::Trace& trace) {
  std::unordered_set<int64_t> used;
  for (const model::Track& t : trace.tracks) {
    if (!t.pid.is_text) used.insert(t.pid.number);
  }
  int64_t pid = 999'999'000;
  while (used.count(pid) != 0) ++pid;
  return pid;
}

}  // namespace

Result<AnnotatedTrace> AnnotateTrace(const AnnotateRequest& request) {
  PERFDX_ASSIGN_OR_RETURN(std::string trace_path, TraceToAnnotate(request.analyze.paths));
  AnalyzeRequest analyze = request.analyze;
  analyze.keep_traces = true;  // the annotation's pid must be one the trace does not use
  PERFDX_ASSIGN_OR_RETURN(report::AnalyzeReport analyzed, BuildAnalyzeReport(analyze));
  if (analyzed.ranks.size() != 1) {
    return Unsupported(fmt::format("{}: annotate takes one rank; this trace holds {}", trace_path,
                                   analyzed.ranks.size()));
  }
  const report::AnalyzeRank& rank = analyzed.ranks.front();
  std::vector<const advisor::Finding*> job_findings;
  for (const report::AnalyzeJob& job : analyzed.jobs) {
    for (const advisor::Finding& f : job.findings) job_findings.push_back(&f);
  }
  AnnotatedTrace out;
  out.trace_path = trace_path;
  out.pid = UnusedPid(*rank.analysis.trace);
  out.warnings = std::move(analyzed.warnings);
  const std::string events = report::RenderAnnotationEvents(rank, job_findings, out.pid);
  analyzed = {};  // the model is not needed to copy the bytes

  PERFDX_ASSIGN_OR_RETURN(auto source, io::OpenByteSource(trace_path, request.analyze.load.limits));
  std::string text;
  PERFDX_RETURN_IF_ERROR(formats::SpliceEvents(*source, events, text));
  if (source->truncated()) {
    return InvalidInput(fmt::format("{}: {}", trace_path, source->truncation()));
  }
  if (request.gzip) {
    PERFDX_ASSIGN_OR_RETURN(out.bytes, io::GzipCompress(text));
  } else {
    out.bytes = std::move(text);
  }
  return out;
}

}  // namespace perfdx::pipeline
