// The peak of each Ascend link type, one direction, in GB/s: what a link's
// achieved bandwidth is measured against. One table for the cluster
// section's links and the low_bus_bandwidth rule; its values are the
// thresholds' (advisor/thresholds.def hccs_peak_gbps, pcie_peak_gbps,
// rdma_peak_gbps, sdma_peak_gbps: documented defaults, configurable in
// perfdx.toml), passed in by whoever holds them.
#pragma once

#include <string_view>

namespace perfdx::analysis {

struct LinkPeaks {
  double hccs_gbps = 0;
  double pcie_gbps = 0;
  double rdma_gbps = 0;
  // SDMA links without a peak of their own (SIO, HCCL's "other" links).
  double sdma_gbps = 0;
};

// The peak of a transport as collectives.h and the links key it ("HCCS",
// "PCIE", "RDMA", "SIO", "SDMA"); 0 where there is none to compare with:
// on-chip copies ("LOCAL", not link traffic) and a transport not recorded.
double PeakOf(const LinkPeaks& peaks, std::string_view transport);

}  // namespace perfdx::analysis
