// Collectives that use their link poorly (guide 000 §一: achieved bandwidth
// / link peak < 50% abnormal, target 75%). Only where the trace has the
// numbers:
//   Ascend  the window's per-transport transit totals of the collectives
//           (analysis/collectives.h, communication.json's definitions:
//           HCCS with HCCS_SW folded in, PCIE, SIO, RDMA, and the transfers
//           over other SDMA links): Σ size / Σ duration, msprof-analyze's
//           Transit Size / Transit Time.
//   GPU     collectives with Kineto message args: bus bandwidth = S / t x
//           the nccl-tests factor (2(n-1)/n for all-reduce, n = Group size).
//           A kernel's time includes waiting for the other ranks, so the
//           rule judges the link by the fastest large collective; small
//           ones are latency-bound and belong to small_collectives.
// Link peaks come from Thresholds (documented defaults, configurable):
// hccs_peak_gbps, pcie_peak_gbps, rdma_peak_gbps, and sdma_peak_gbps for
// SDMA links without a peak of their own. A GPU trace does not record its
// interconnect: unless gpu_link_peak_gbps says what it is, the NVLink of
// the GPU's generation is only assumed (an SXM A100 has it, a PCIe A100 has
// not), so the finding is information with no gain: the measured bus
// bandwidth, and how to learn the link.
// Gain: the what-if in which every transfer ran at the target efficiency,
// counting only the exposed part of each collective (time hidden under
// compute costs nothing). An upper bound: for GPU collectives it includes
// any time spent waiting for peers.
#include <algorithm>
#include <map>
#include <set>
#include <string>

#include <fmt/format.h>

#include "perfdx/advisor/advisor.h"
#include "perfdx/advisor/knobs.h"
#include "perfdx/advisor/rules/rule_util.h"
#include "perfdx/advisor/rules/rules.h"
#include "perfdx/base/saturating.h"

namespace perfdx::advisor {
namespace {

// One link's verdict.
struct LinkUse {
  std::string link;
  double achieved_gbps = 0;  // the value judged (aggregate on Ascend, best collective on GPUs)
  double peak_gbps = 0;
  int64_t saved_ns = 0;    // window total of the what-if
  uint64_t transfers = 0;  // tasks (Ascend) or collectives (GPU) judged
  double efficiency() const { return peak_gbps > 0 ? achieved_gbps / peak_gbps : 1; }
};

// The intra-node GPU link and its peak (see Thresholds::gpu_link_peak_gbps);
// `assumed`: from the GPU's generation, not from the configuration.
struct GpuLinkPeak {
  std::string link;
  double peak_gbps = 0;
  bool assumed = true;
};
GpuLinkPeak GpuLink(const model::RankInfo& info, const Thresholds& th) {
  if (th.gpu_link_peak_gbps > 0) return {"GPU link", th.gpu_link_peak_gbps, false};
  if (info.device_type != model::DeviceType::kCuda) return {"", 0};
  for (const model::DeviceProperties& d : info.devices) {
    if (d.compute_major < 0) continue;
    if (d.compute_minor == 0) {
      if (d.compute_major == 7) return {"NVLink", 150};
      if (d.compute_major == 8) return {"NVLink", 300};
      if (d.compute_major == 9) return {"NVLink", 450};
      if (d.compute_major == 10) return {"NVLink", 900};
    }
    return {"PCIe", th.pcie_peak_gbps};
  }
  return {"", 0};
}

class LowBusBandwidthRule final : public Rule {
 public:
  std::string_view id() const override { return "low_bus_bandwidth"; }

  void Evaluate(const RuleContext& c, std::vector<Finding>* out) const override {
    const Thresholds& th = c.thresholds;
    const double target = th.link_bandwidth_efficiency.healthy;
    const analysis::CollectiveSummary& collectives = c.analysis.collectives;
    std::vector<LinkUse> links;
    bool bus_bandwidth = false;
    std::set<std::string> assumed_peak;  // links whose peak the trace does not give

    // The links of the window's transfers: the named transports, and SDMA
    // only for the links it holds beyond HCCS, PCIE and SIO (it is their sum).
    std::vector<analysis::TransportTransit> traffic;
    for (const analysis::TransportTransit& t : collectives.window_totals) {
      if (t.transport != "SDMA") traffic.push_back(t);
    }
    if (analysis::TransportTransit other = analysis::OtherSdmaLinks(collectives.window_totals);
        other.transfers > 0) {
      traffic.push_back(std::move(other));
    }
    if (!traffic.empty()) {
      // Transfer tasks carry no overlap of their own: scale by the share of
      // all communication that is exposed.
      const analysis::HealthMetrics& h = c.analysis.summary;
      const double exposed = h.comm_share > 0 ? h.comm_not_overlapped_share / h.comm_share : 0;
      for (const analysis::TransportTransit& l : traffic) {
        const double peak = analysis::PeakOf(LinkPeaksOf(th), l.transport);
        if (peak <= 0 || l.transit_ns <= 0) continue;
        const double ideal_ns = static_cast<double>(l.transit_bytes) / (target * peak);
        LinkUse u{l.transport, l.bandwidth_gbps(), peak, 0, l.transfers};
        u.saved_ns = static_cast<int64_t>(
            std::max(0.0, static_cast<double>(l.transit_ns) - ideal_ns) * exposed);
        links.push_back(u);
      }
    } else {
      bus_bandwidth = true;
      const auto local_devices = static_cast<int64_t>(c.info().devices.size());
      const GpuLinkPeak gpu = GpuLink(c.info(), th);
      // Compute clipped to the window: what can hide a collective's time.
      const analysis::IntervalSet compute =
          Intersect(c.analysis.activity.device_compute, c.analysis.window_intervals);
      std::map<std::string, LinkUse> by_link;
      for (const analysis::CollectiveStats& col : collectives.collectives) {
        if (!col.in_window) continue;
        const double factor = analysis::BusBandwidthFactor(col.type, col.group_size);
        const int64_t dur = col.dur_ns;
        if (factor <= 0 || col.group_size < 2 || dur <= 0) continue;
        const bool inter_node = local_devices > 0 && col.group_size > local_devices;
        const double small_limit =
            inter_node ? th.small_collective_rdma_bytes : th.small_collective_sdma_bytes;
        if (static_cast<double>(col.message_bytes) < small_limit) continue;
        const std::string link = inter_node ? "RDMA" : gpu.link;
        const double peak = inter_node ? th.rdma_peak_gbps : gpu.peak_gbps;
        if (!inter_node && gpu.assumed) assumed_peak.insert(link);
        if (peak <= 0) continue;
        const double bus_bytes = static_cast<double>(col.message_bytes) * factor;
        LinkUse& u = by_link[link];
        u.link = link;
        u.peak_gbps = peak;
        u.achieved_gbps = std::max(u.achieved_gbps, bus_bytes / static_cast<double>(dur));
        ++u.transfers;
        const int64_t start = col.start_ns;
        const double exposed_share =
            1.0 -
            static_cast<double>(compute.LengthIn(start, start + dur)) / static_cast<double>(dur);
        const double excess = std::max(0.0, static_cast<double>(dur) - bus_bytes / (target * peak));
        base::AddSaturating(u.saved_ns, static_cast<int64_t>(excess * exposed_share));
      }
      for (auto& [link, u] : by_link) links.push_back(u);
    }
    if (links.empty()) return;
    const LinkUse worst = *std::min_element(
        links.begin(), links.end(),
        [](const LinkUse& a, const LinkUse& b) { return a.efficiency() < b.efficiency(); });
    const Band& band = th.link_bandwidth_efficiency;
    const double efficiency = worst.efficiency();
    if (advisor::Evaluate(band, efficiency) == HealthStatus::kHealthy) return;

    Finding f;
    f.rule = std::string(id());
    f.category = Category::kCommunication;
    f.gain.ns_per_step = PerStep(c, worst.saved_ns);
    f.gain.share = ShareOfStep(c, f.gain.ns_per_step);
    f.severity = SeverityFor(band, efficiency, f.gain.share);
    f.title = bus_bandwidth
                  ? fmt::format(
                        "The fastest large collective reaches {:.1f} GB/s bus bandwidth, {} of the "
                        "{:.0f} GB/s {} peak",
                        worst.achieved_gbps, Pct(efficiency), worst.peak_gbps, worst.link)
                  : fmt::format("{} transfers reach {:.1f} GB/s, {} of the {:.0f} GB/s link peak",
                                worst.link, worst.achieved_gbps, Pct(efficiency), worst.peak_gbps);
    f.evidence.metric = bus_bandwidth ? "bus_bandwidth_efficiency" : "link_bandwidth_efficiency";
    f.evidence.value = efficiency;
    f.evidence.threshold = band.healthy;
    f.evidence.unit = "share";
    f.evidence.details = {{"achieved_gbps", worst.achieved_gbps},
                          {"peak_gbps", worst.peak_gbps},
                          {"transfers", static_cast<double>(worst.transfers)}};
    for (const LinkUse& u : links) {
      f.evidence.details.emplace_back(u.link + "_efficiency", u.efficiency());
    }
    if (assumed_peak.contains(worst.link)) {
      // Measured, not judged: no severity above information, no gain, no fix.
      f.severity = Severity::kInfo;
      f.gain.total_ns = worst.saved_ns;
      f.gain.ns_per_step = 0;
      f.gain.share = 0;
      f.gain.basis = std::string(kAssumedLinkPeak);
      f.title += fmt::format(
          " — assumed: the trace does not record the link; `nvidia-smi topo -m` shows it and "
          "nccl-tests' all_reduce_perf its bus bandwidth; set gpu_link_peak_gbps in perfdx.toml");
      out->push_back(std::move(f));
      return;
    }
    AddTag(&f, "low_bandwidth");
    if (AllReduceDominates(c.analysis.collectives)) AddTag(&f, "allreduce");
    AppendFixes(&f.recommendations, {"hccl_env", "ddp_bucket"});
    out->push_back(std::move(f));
  }
};

}  // namespace

const Rule& LowBusBandwidth() {
  static const LowBusBandwidthRule rule;
  return rule;
}

}  // namespace perfdx::advisor
