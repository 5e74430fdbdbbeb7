// Unfused elementwise chains: runs of elementwise operators that follow each
// other in the step, each paying its own dispatch (on the CPU) or kernel
// launch and memory round trip (on a device), where one fused kernel
// (torch.compile, a fused op) would do the work once.
//
// A CPU-only trace: the operators the user called (framework ops with no
// framework op around them, outside data loading and optimizer.step(), whose
// per-parameter updates are the fused optimizer's business), per host thread
// in time order. A trace with device work: the compute kernels of each device
// stream in order. A chain is a maximal run of at least kMinChainOps
// consecutive elementwise members, each starting at most kMaxChainGapNs after
// the previous ends, inside one step. Elementwise-ness comes from an exact
// table of operator names (IsElementwiseOpName); for device kernels from
// IsElementwiseDeviceWork (the launching operator, until the kernel
// taxonomy classifies kernel names).
//
// Times: span = first member start to last member end (the dispatch or
// launch gaps inside are part of what fusion removes); fusable = span x
// (k-1)/k per chain of k, the chain as one member as long as an average one.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "perfdx/analysis/op_attribution.h"
#include "perfdx/analysis/steps.h"
#include "perfdx/model/trace.h"

namespace perfdx::analysis {

inline constexpr size_t kMinChainOps = 3;
inline constexpr int64_t kMaxChainGapNs = 1'000'000;

// aten::add, aten::mul, aten::tanh, ... and their in-place forms.
bool IsElementwiseOpName(std::string_view name);

// Is device slice i elementwise work? The one place device kernels are
// judged, so the kernel taxonomy can take over here.
bool IsElementwiseDeviceWork(const model::Trace& trace, const OpAttribution& attribution,
                             model::SliceId i);

struct ElementwiseOpCount {
  std::string name;
  uint64_t count = 0;    // members of chains
  int64_t total_ns = 0;  // their own durations
};

struct ElementwiseChainPattern {
  std::string sequence;  // "aten::mul > aten::add > aten::tanh ..." (first names)
  uint64_t count = 0;    // chains with exactly this sequence
  size_t ops = 0;        // members per chain
  int64_t span_ns = 0;   // summed over those chains
};

struct ElementwiseChainSummary {
  bool on_device = false;
  uint64_t chains = 0;
  uint64_t ops = 0;
  int64_t span_ns = 0;
  int64_t op_ns = 0;
  int64_t fusable_ns = 0;
  size_t longest = 0;
  std::vector<ElementwiseOpCount> op_names;           // by total_ns, descending
  std::vector<ElementwiseChainPattern> patterns;      // by span_ns, descending (at most 5)
  std::vector<uint64_t> ops_per_step;                 // chain members in each analysed step
  std::vector<std::pair<int64_t, int64_t>> examples;  // [start, end) of the longest few chains
  // Each chain's fusable time as an interval on the trace's clock: its last
  // span x (k-1)/k (the chain kept as one average member): what the replay
  // removes for fusion on a CPU-only trace. By chain, in the order found.
  std::vector<std::pair<int64_t, int64_t>> fusable_intervals;
};

// Over `steps` (the analysed ones); the whole trace when it is empty.
ElementwiseChainSummary FindElementwiseChains(const model::Trace& trace,
                                              const OpAttribution& attribution,
                                              const std::vector<StepWindow>& steps, bool cpu_only);

}  // namespace perfdx::analysis
