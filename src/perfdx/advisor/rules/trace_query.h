// Trace queries shared by the memory, communication and operator rules: the
// analysed window as an interval set, device intervals inside it, and the
// collectives with the sizes and transfers the profiler recorded. The rules
// use them for their own what-if gains and for per-collective numbers that
// no analysis module holds; every metric the analysis has is read from it.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "perfdx/advisor/finding.h"
#include "perfdx/advisor/rule.h"
#include "perfdx/analysis/collectives.h"
#include "perfdx/analysis/interval_set.h"
#include "perfdx/model/trace.h"

namespace perfdx::advisor {

// Is slice i device work whose start lies in the window (the kernel
// summary's rule for what a window holds)?
bool DeviceSliceIn(const model::Trace& trace, model::SliceId i,
                   const analysis::IntervalSet& window);

// The union of the device slices that `keep` accepts, clipped to the window.
template <typename Keep>
analysis::IntervalSet DeviceIntervalsIn(const model::Trace& trace,
                                        const analysis::IntervalSet& window, Keep&& keep) {
  std::vector<analysis::Interval> v;
  const model::SliceTable& s = trace.slices;
  for (model::SliceId i = 0; i < s.size(); ++i) {
    if (s.dur_ns[i] <= 0 || !model::IsDeviceTrack(trace.tracks[s.track[i]].kind) || !keep(i))
      continue;
    v.push_back({s.ts_ns[i], s.end_ns(i)});
  }
  return Intersect(analysis::IntervalSet::FromUnsorted(std::move(v)), window);
}

// Device compute kernels (what "hidden under compute" means), clipped.
analysis::IntervalSet DeviceComputeIn(const model::Trace& trace,
                                      const analysis::IntervalSet& window);

// One collective on the device inside the analysed window.
struct Collective {
  model::SliceId slice = 0;
  analysis::CollectiveType type = analysis::CollectiveType::kUnknown;
  // The payload of the call: Kineto max(In, Out msg nelems) x dtype size,
  // HCCL op count x data type size; -1 when the trace does not say.
  int64_t message_bytes = -1;
  int64_t group_size = -1;  // Kineto "Group size", else the world size; -1 unknown
  // Ascend: bytes the op's HCCL transfer tasks moved over a link (SDMA or
  // RDMA, on-chip copies left out), msprof-analyze's "Transit Size"; -1
  // when the trace has no tasks for it.
  int64_t transit_bytes = -1;
  bool rdma = false;  // some of those transfers used RDMA
};

std::vector<Collective> CollectivesIn(const model::Trace& trace,
                                      const analysis::IntervalSet& window);

// Ascend HCCL transfer tasks (size(Byte) > 0 over a link, on-chip copies
// left out) of the window, summed per link: "HCCS", "PCIE", "SIO",
// "HCCS_SW", or "RDMA" for every RDMA transfer. The bandwidth is bytes / ns
// = GB/s, msprof-analyze's Transit Size / Transit Time.
struct LinkTraffic {
  std::string link;
  int64_t bytes = 0;
  int64_t ns = 0;
  uint64_t tasks = 0;
  double gbps() const { return ns > 0 ? static_cast<double>(bytes) / static_cast<double>(ns) : 0; }
};
std::vector<LinkTraffic> TransfersByLink(const model::Trace& trace,
                                         const analysis::IntervalSet& window);

}  // namespace perfdx::advisor
