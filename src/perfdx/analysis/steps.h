// Step windows: where each training step starts and ends.
//
// With ProfilerStep#N markers, a step's window is its host-side marker
// extended to the end of the device work launched inside it, exactly as the
// TensorBoard profiler plugin does (../shared/docs/tbp-definitions.md §1):
// windows never overlap, a step starts no earlier than the previous one's
// end, GPU work still draining from before the first step pushes its start
// later, and an incomplete last step (no device work, or fewer than 80% of the
// previous step's device ops) is excluded unless asked for.
//
// Without markers the whole trace is one window; a fallback then looks for a
// repeating sequence of device work and, if it finds one, reports the
// repetitions as detected steps (source kRepeatingPattern).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "perfdx/model/trace.h"

namespace perfdx::analysis {

enum class StepSource : uint8_t {
  kProfilerStep,      // ProfilerStep#N markers
  kWholeTrace,        // no markers, no repetition found: one window
  kRepeatingPattern,  // no markers; detected from repeating device work
};
std::string_view StepSourceName(StepSource source);

struct StepWindow {
  int64_t id = 0;
  int64_t start_ns = 0;  // the analysed window
  int64_t end_ns = 0;
  int64_t host_start_ns = 0;  // the marker as recorded on the host
  int64_t host_end_ns = 0;
  uint32_t device_ops = 0;  // device slices launched from inside the host window
  int64_t dur_ns() const { return end_ns - start_ns; }
};

struct StepOptions {
  bool include_incomplete = false;  // keep a last step that looks truncated
};

struct StepTimeline {
  StepSource source = StepSource::kWholeTrace;
  std::vector<StepWindow> steps;     // analysed, in time order
  std::vector<StepWindow> excluded;  // found but left out (incomplete tail)
  std::vector<std::string> notes;    // why, in words, for the report
};

StepTimeline BuildSteps(const model::Trace& trace, const StepOptions& options = {});

// One host slice -> device op link.
struct Launch {
  int64_t host_start_ns = 0;
  int64_t host_end_ns = 0;
  model::SliceId device = 0;
};

// Host->device links from the flow table: Kineto launches (runtime call ->
// kernel/memcpy/memset, by correlation) and Ascend op -> task flows. This is
// TBP's "runtime correlated with device nodes" generalised to any launcher.
// A device op linked from several host slices keeps the innermost (latest
// starting) one, so that it is counted once. By host start. The step windows
// and the replay graph (replay_graph.h) both stand on these.
std::vector<Launch> CollectLaunches(const model::Trace& trace);

// Does `timeline` hold complete steps (step markers or a detected
// repetition, and at least one step the trace's end did not cut)? Every
// step but the last is closed by the next one. The last alone is open when
// its marker was left running: nothing in the trace ends after the marker,
// and the activity inside it stopped within the first tenth of it
// (triton_example: one 13.3 s step whose work ends 1.8 ms in).
bool HasCompleteSteps(const model::Trace& trace, const StepTimeline& timeline);

}  // namespace perfdx::analysis
