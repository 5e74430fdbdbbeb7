// Many small collectives: each pays the fixed latency of a launch and a
// handshake, so small messages reach a fraction of the link bandwidth
// (msprof-analyze packet rule: more than 20% of the ops move less than
// 16 MB over SDMA or 1 MB over RDMA). Sizes: an Ascend op's link transit
// bytes (analysis/collectives.h: SDMA + RDMA, msprof-analyze's Transit
// Size), else the message of the call — Kineto "In/Out msg nelems" x dtype
// size, HCCL count x data type. The collectives are those of the analysis
// window (CollectiveStats::in_window).
//
// Recommended bucket: all small messages of a step in one bucket when they
// fit under the small-packet limit, else buckets of the limit itself (the
// smallest that is no longer "small"), rounded up to whole MiB as DDP's
// bucket_cap_mb counts. Gain: the small collectives' exposed time per step x
// (1 - buckets / small collectives) — the what-if in which n latency-bound
// collectives become m fused ones that each take about as long as one of
// them did (small messages are latency-bound, so a fused one costs about
// the same). An estimate and an upper bound.
#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "perfdx/advisor/advisor.h"
#include "perfdx/advisor/knobs.h"
#include "perfdx/advisor/rules/rule_util.h"
#include "perfdx/advisor/rules/rules.h"
#include "perfdx/base/saturating.h"

namespace perfdx::advisor {
namespace {

constexpr size_t kMaxContributors = 5;
constexpr double kMib = 1024.0 * 1024.0;
// Fusing needs at least two collectives per step.
constexpr double kMinSmallPerStep = 2;

class SmallCollectivesRule final : public Rule {
 public:
  std::string_view id() const override { return "small_collectives"; }

  void Evaluate(const RuleContext& c, std::vector<Finding>* out) const override {
    const analysis::IntervalSet& window = c.analysis.window_intervals;
    // A Kineto trace lists the GPUs of its node; a larger group spans nodes.
    // (A process that sees one GPU makes every group look inter-node: the
    // smaller RDMA limit then applies and the rule errs on the quiet side.)
    const auto local_devices = static_cast<int64_t>(c.info().devices.size());
    struct Sized {
      const analysis::CollectiveStats* col;
      int64_t bytes;
    };
    std::vector<Sized> small;
    size_t sized = 0;
    double limit_bytes = 0;  // the largest limit a small collective was held to
    for (const analysis::CollectiveStats& col : c.analysis.collectives.collectives) {
      if (!col.in_window) continue;
      const bool transits = !col.transports.empty();
      const int64_t bytes = transits ? col.link_bytes() : col.message_bytes;
      if (bytes <= 0) continue;
      ++sized;
      const bool inter_node =
          col.rdma() || (!transits && local_devices > 0 && col.group_size > local_devices);
      const double limit = inter_node ? c.thresholds.small_collective_rdma_bytes
                                      : c.thresholds.small_collective_sdma_bytes;
      if (static_cast<double>(bytes) >= limit) continue;
      small.push_back({&col, bytes});
      limit_bytes = std::max(limit_bytes, limit);
    }
    if (sized == 0) return;
    const double ratio = static_cast<double>(small.size()) / static_cast<double>(sized);
    const Band& band = c.thresholds.small_collective_ratio;
    if (advisor::Evaluate(band, ratio) == HealthStatus::kHealthy) return;
    const double steps = static_cast<double>(c.step_count());
    const double small_per_step = static_cast<double>(small.size()) / steps;
    if (small_per_step < kMinSmallPerStep) return;

    std::vector<int64_t> sizes;
    int64_t small_bytes = 0;
    for (const Sized& s : small) {
      sizes.push_back(s.bytes);
      base::AddSaturating(small_bytes, s.bytes);
    }
    std::sort(sizes.begin(), sizes.end());
    const int64_t median = sizes[(sizes.size() - 1) / 2];
    const double small_bytes_per_step = static_cast<double>(small_bytes) / steps;
    const double bucket_bytes = std::min(small_bytes_per_step, limit_bytes);
    const double bucket_mib = std::max(1.0, std::ceil(bucket_bytes / kMib));
    const double fused_per_step =
        std::max(1.0, std::ceil(small_bytes_per_step / (bucket_mib * kMib)));

    // Exposed time of the small collectives.
    std::vector<analysis::Interval> intervals;
    std::map<std::string_view, Contributor> by_name;
    for (const Sized& s : small) {
      intervals.push_back({s.col->start_ns, s.col->start_ns + s.col->dur_ns});
      Contributor& x = by_name[s.col->name];
      base::AddSaturating(x.ns, s.col->dur_ns);
      x.share += 1;  // count for now
    }
    const analysis::IntervalSet exposed =
        Subtract(Intersect(analysis::IntervalSet::FromUnsorted(std::move(intervals)), window),
                 c.analysis.activity.device_compute);
    const int64_t exposed_per_step = PerStep(c, exposed.TotalLength());

    Finding f;
    f.rule = std::string(id());
    f.category = Category::kCommunication;
    f.gain.ns_per_step = static_cast<int64_t>(static_cast<double>(exposed_per_step) *
                                              std::max(0.0, 1.0 - fused_per_step / small_per_step));
    f.gain.share = ShareOfStep(c, f.gain.ns_per_step);
    f.severity = SeverityFor(band, ratio, f.gain.share);
    f.title = fmt::format(
        "{:.0f} collectives per step move less than {} each ({} of all collectives, median {}); "
        "{:.0f} MiB buckets would fuse them into {:.0f}",
        small_per_step, Mb(static_cast<int64_t>(limit_bytes)), Pct(ratio), Mb(median), bucket_mib,
        fused_per_step);
    f.evidence.metric = "small_collective_ratio";
    f.evidence.value = ratio;
    f.evidence.threshold = band.healthy;
    f.evidence.unit = "share";
    f.evidence.details = {{"small_collectives_per_step", small_per_step},
                          {"median_small_bytes", static_cast<double>(median)},
                          {"small_bytes_per_step", small_bytes_per_step},
                          {"small_size_limit_bytes", limit_bytes},
                          {"recommended_bucket_mib", bucket_mib},
                          {"fused_collectives_per_step", fused_per_step},
                          {"small_exposed_ns_per_step", static_cast<double>(exposed_per_step)}};
    std::vector<Contributor> contributors;
    for (auto& [name, x] : by_name) {
      x.name = std::string(name);
      // By count, of all sized collectives (the ratio's denominator).
      x.share = x.share / static_cast<double>(sized);
      contributors.push_back(std::move(x));
    }
    KeepLargest(&contributors, kMaxContributors);
    f.evidence.contributors = std::move(contributors);
    if (AllReduceDominates(c.analysis.collectives)) AddTag(&f, "allreduce");
    AppendFixes(&f.recommendations, {"ddp_bucket", "hccl_env"});
    out->push_back(std::move(f));
  }
};

}  // namespace

const Rule& SmallCollectives() {
  static const SmallCollectivesRule rule;
  return rule;
}

}  // namespace perfdx::advisor
