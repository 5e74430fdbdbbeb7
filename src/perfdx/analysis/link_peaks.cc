#include "perfdx/analysis/link_peaks.h"

namespace perfdx::analysis {

double PeakOf(const LinkPeaks& peaks, std::string_view transport) {
  if (transport == "HCCS") return peaks.hccs_gbps;
  if (transport == "PCIE") return peaks.pcie_gbps;
  if (transport == "RDMA") return peaks.rdma_gbps;
  if (transport.empty() || transport == "LOCAL") return 0;
  // SIO and the other on-server links are SDMA transfers with no peak of
  // their own: judged against msprof-analyze's SDMA baseline.
  return peaks.sdma_gbps;
}

}  // namespace perfdx::analysis
