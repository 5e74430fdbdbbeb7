#include "perfdx/analysis/host_calls.h"

#include <algorithm>

namespace perfdx::analysis {
namespace {

using model::EventKind;
using model::SliceId;
using model::TrackKind;

enum class Match : uint8_t { kExact, kPrefix, kExactIgnoringCase };
enum class Source : uint8_t {
  kRuntimeCall,      // an event of kind kRuntimeCall, on any track
  kFrameworkOp,      // an event of kind kFrameworkOp, on any track
  kHostThreadSlice,  // any event on a host thread
  kCategory,         // any event whose category (not name) matches
};

struct Entry {
  HostCallKind kind;
  Source source;
  Match match;
  std::string_view name;
};

// clang-format off
constexpr Entry kTable[] = {
    {HostCallKind::kSynchronizeStream,   Source::kRuntimeCall,     Match::kPrefix,             "AscendCL@aclrtSynchronizeStream"},
    {HostCallKind::kNodeLaunch,          Source::kRuntimeCall,     Match::kPrefix,             "Node@launch"},
    {HostCallKind::kOpCompileAndExecute, Source::kRuntimeCall,     Match::kExact,              "AscendCL@aclopCompileAndExecute"},
    {HostCallKind::kOpCompile,           Source::kRuntimeCall,     Match::kExact,              "AscendCL@opCompile"},
    {HostCallKind::kMallocMemInner,      Source::kRuntimeCall,     Match::kExact,              "AscendCL@aclMallocMemInner"},
    {HostCallKind::kFreePhysical,        Source::kRuntimeCall,     Match::kExact,              "AscendCL@aclrtFreePhysical"},
    {HostCallKind::kFree,                Source::kRuntimeCall,     Match::kExact,              "AscendCL@aclrtFree"},
    {HostCallKind::kSyncBatchNorm,       Source::kFrameworkOp,     Match::kExactIgnoringCase,  "SyncBatchNorm"},
    {HostCallKind::kAdamWStep,           Source::kHostThreadSlice, Match::kExact,              "Optimizer.step#AdamW.step"},
    {HostCallKind::kOptimizerStep,       Source::kHostThreadSlice, Match::kPrefix,             "Optimizer.step#"},
    {HostCallKind::kPythonGc,            Source::kCategory,        Match::kExact,              "gc"},
};
// clang-format on

char Lower(char ch) {
  return ch >= 'A' && ch <= 'Z' ? static_cast<char>(ch - 'A' + 'a') : ch;
}

bool Matches(Match match, std::string_view pattern, std::string_view s) {
  switch (match) {
    case Match::kExact:
      return s == pattern;
    case Match::kPrefix:
      return s.substr(0, pattern.size()) == pattern;
    case Match::kExactIgnoringCase:
      return s.size() == pattern.size() &&
             std::equal(s.begin(), s.end(), pattern.begin(),
                        [](char a, char b) { return Lower(a) == Lower(b); });
  }
  return false;
}

bool FromSource(Source source, EventKind kind, TrackKind track) {
  switch (source) {
    case Source::kRuntimeCall:
      return kind == EventKind::kRuntimeCall;
    case Source::kFrameworkOp:
      return kind == EventKind::kFrameworkOp;
    case Source::kHostThreadSlice:
      return track == TrackKind::kHostThread;
    case Source::kCategory:
      return true;
  }
  return false;
}

}  // namespace

std::string_view HostCallName(HostCallKind kind) {
  for (const Entry& e : kTable) {
    if (e.kind == kind) return e.name;
  }
  return {};
}

std::vector<HostCallKind> ClassifyHostCall(EventKind kind, TrackKind track, std::string_view name,
                                           std::string_view category) {
  std::vector<HostCallKind> out;
  for (const Entry& e : kTable) {
    if (!FromSource(e.source, kind, track)) continue;
    if (Matches(e.match, e.name, e.source == Source::kCategory ? category : name))
      out.push_back(e.kind);
  }
  return out;
}

std::vector<HostCall> HostCalls::Of(HostCallKind kind) const {
  std::vector<HostCall> out;
  for (const HostCall& c : calls) {
    if (c.kind == kind) out.push_back(c);
  }
  return out;
}

namespace {

// "Optimizer.step#Shampoo.step" -> "Shampoo": what torch.optim's profiling
// hook writes, "Optimizer.step#" + the class + ".step".
std::string_view OptimizerClass(std::string_view name) {
  constexpr std::string_view kPrefix = "Optimizer.step#";
  constexpr std::string_view kSuffix = ".step";
  std::string_view c = name.substr(kPrefix.size());
  if (c.size() >= kSuffix.size() && c.substr(c.size() - kSuffix.size()) == kSuffix) {
    c.remove_suffix(kSuffix.size());
  }
  return c;
}

}  // namespace

HostCalls CollectHostCalls(const model::Trace& trace, const IntervalSet& window) {
  HostCalls out;
  const model::SliceTable& s = trace.slices;
  for (SliceId i = 0; i < s.size(); ++i) {
    const model::Track& track = trace.tracks[s.track[i]];
    if (!out.host_recorded)
      out.host_recorded = !model::IsDeviceTrack(track.kind) && track.kind != TrackKind::kCounter;
    if (!window.Contains(s.ts_ns[i])) continue;
    const std::string_view name = trace.slice_name(i);
    for (HostCallKind kind :
         ClassifyHostCall(s.kind[i], track.kind, name, trace.str(s.category[i]))) {
      out.calls.push_back(
          {kind, s.ts_ns[i], s.dur_ns[i], track.tid.is_text ? -1 : track.tid.number});
      if (kind == HostCallKind::kOptimizerStep) {
        out.optimizer_classes.emplace_back(OptimizerClass(name));
      }
    }
  }
  std::sort(out.optimizer_classes.begin(), out.optimizer_classes.end());
  out.optimizer_classes.erase(
      std::unique(out.optimizer_classes.begin(), out.optimizer_classes.end()),
      out.optimizer_classes.end());
  return out;
}

}  // namespace perfdx::analysis
