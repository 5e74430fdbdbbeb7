// msprof-analyze's slow link (slow_link): per-rank SDMA / RDMA bandwidths
// more than 5% apart; and a link slower than the job's other links of its
// transport by as much (cluster/stragglers.h SlowLink).
#include <algorithm>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "perfdx/advisor/rules/rule_util.h"
#include "perfdx/advisor/rules/rules.h"
#include "perfdx/base/saturating.h"

namespace perfdx::advisor {
namespace {

// msprof-analyze's slow link (row 2, ascend-cluster.md §7): per (step,
// rank), SDMA and RDMA bandwidth = sum of transit bytes / sum of transit
// time over all collectives (perfdx's own per-collective transit, from the
// HCCL tasks: analysis/collectives.h); a slow link when (max - min) / mean
// >= slow_link_gap_ratio, naming the rank with the lowest bandwidth (the
// one msprof drills into). Gain: that rank's transit time per step x (1 -
// min / max) — the what-if in which it moved its bytes at the fastest
// rank's bandwidth; an upper bound (not all transit time is exposed). No
// fix from the catalogue: a slow link is a hardware or network matter.
Finding SlowLinkOf(const std::vector<const cluster::RankSummary*>& ranks, const Thresholds& t) {
  Finding f;
  struct Entry {
    size_t rank = 0;
    int64_t step = -1;  // -1: collectives outside every step
    int64_t bytes = 0, ns = 0;
    double gbps() const {
      return ns > 0 ? static_cast<double>(bytes) / static_cast<double>(ns) : 0;
    }
  };
  double worst_ratio = 0;
  std::string title;
  for (std::string_view link : {"SDMA", "RDMA"}) {
    std::map<std::pair<int64_t, size_t>, Entry> entries;  // (step, rank)
    for (size_t r = 0; r < ranks.size(); ++r) {
      for (const cluster::SummaryCollective& col : ranks[r]->collectives) {
        for (const cluster::SummaryTransport& tr : col.transports) {
          if (tr.transport != link || tr.transit_ns <= 0) continue;
          Entry& e = entries[{col.step.value_or(-1), r}];
          e.rank = r;
          e.step = col.step.value_or(-1);
          base::AddSaturating(e.bytes, tr.bytes);
          base::AddSaturating(e.ns, tr.transit_ns);
        }
      }
    }
    if (entries.size() < 2) continue;
    double sum = 0;
    const Entry* lo = nullptr;
    const Entry* hi = nullptr;
    for (const auto& [key, e] : entries) {
      sum += e.gbps();
      if (lo == nullptr || e.gbps() < lo->gbps()) lo = &e;
      if (hi == nullptr || e.gbps() > hi->gbps()) hi = &e;
    }
    const double mean = sum / static_cast<double>(entries.size());
    const double ratio = mean > 0 ? (hi->gbps() - lo->gbps()) / mean : 0;
    const std::string key = std::string(link) == "SDMA" ? "sdma" : "rdma";
    f.evidence.details.emplace_back(key + "_mean_gbps", mean);
    f.evidence.details.emplace_back(key + "_max_gbps", hi->gbps());
    f.evidence.details.emplace_back(key + "_min_gbps", lo->gbps());
    f.evidence.details.emplace_back(key + "_gap_ratio", ratio);
    if (ratio < t.slow_link_gap_ratio) continue;
    if (!title.empty()) title += "; ";
    title += fmt::format(
        "{} bandwidth ranges from {:.1f} GB/s ({}) to {:.1f} GB/s (mean {:.1f}, "
        "{} apart)",
        link, lo->gbps(), RankLabel(*ranks[lo->rank]), hi->gbps(), mean, Pct(ratio));
    if (ratio > worst_ratio) {
      worst_ratio = ratio;
      const cluster::RankSummary& a = *ranks[lo->rank];
      // An entry is one step's transit, or the whole trace's without steps.
      const int64_t steps =
          lo->step >= 0 ? 1 : std::max<int64_t>(1, static_cast<int64_t>(a.steps.size()));
      const double saved = static_cast<double>(lo->ns) * (1.0 - lo->gbps() / hi->gbps());
      f.gain.ns_per_step = static_cast<int64_t>(saved) / steps;
      f.gain.share = ShareOf(f.gain.ns_per_step, a.gain_step_ns);
      f.rank = a.rank;
      f.path = a.path;
    }
  }
  if (worst_ratio <= 0) return Finding{};
  f.rule = "slow_link";
  f.category = Category::kCommunication;
  f.severity = PrioritySeverity(f.gain.share);
  f.title = title;
  f.evidence.metric = "link_bandwidth_gap_ratio";
  f.evidence.value = worst_ratio;
  f.evidence.threshold = t.slow_link_gap_ratio;
  f.evidence.unit = "share";
  return f;
}

// The link of one (group, src, dst) slower than the median of the job's
// links of its transport by at least slow_link_gap_ratio (the per-rank
// test's ratio, applied to one link against its peers). Gain: its transit
// per step x the shortfall, the what-if in which it moved its bytes at the
// median; an upper bound, as above.
void AddLinkShortfall(const JobRuleContext& c, Finding* f) {
  const cluster::SlowLink* worst = nullptr;
  for (const cluster::SlowLink& s : c.cluster.slow_links) {
    if (s.shortfall() >= c.thresholds.slow_link_gap_ratio &&
        (worst == nullptr || s.shortfall() > worst->shortfall()))
      worst = &s;
  }
  if (worst == nullptr) return;
  const cluster::ClusterLink& link = c.cluster.links[worst->link];
  // The rank whose transfers the link carries: its sender.
  const cluster::RankSummary* sender = nullptr;
  for (const cluster::RankSummary* r : c.ranks) {
    for (const cluster::ClusterLink& l : r->links) {
      if (l == link) sender = r;
    }
  }
  const std::string line = fmt::format(
      "the {} link {} -> {} of group {} runs at {:.1f} GB/s, {} below the median {:.1f} GB/s of "
      "the job's {} {} links",
      link.transport, link.src_rank, link.dst_rank, link.group, worst->bandwidth_gbps,
      Pct(worst->shortfall()), worst->transport_median_gbps, worst->transport_links,
      link.transport);
  f->evidence.details.emplace_back("link_bandwidth_gbps", worst->bandwidth_gbps);
  f->evidence.details.emplace_back("link_transport_median_gbps", worst->transport_median_gbps);
  f->evidence.details.emplace_back("link_shortfall", worst->shortfall());
  f->evidence.details.emplace_back("link_src_rank", static_cast<double>(link.src_rank));
  f->evidence.details.emplace_back("link_dst_rank", static_cast<double>(link.dst_rank));
  if (f->rule.empty()) {
    f->rule = "slow_link";
    f->category = Category::kCommunication;
    f->title = line;
    f->title[0] = 'T';
    f->evidence.metric = "link_bandwidth_shortfall";
    f->evidence.value = worst->shortfall();
    f->evidence.threshold = c.thresholds.slow_link_gap_ratio;
    f->evidence.unit = "share";
    if (sender != nullptr) {
      const int64_t steps = std::max<int64_t>(1, static_cast<int64_t>(sender->steps.size()));
      f->gain.ns_per_step =
          static_cast<int64_t>(static_cast<double>(link.transit_ns) * worst->shortfall()) / steps;
      f->gain.share = ShareOf(f->gain.ns_per_step, sender->gain_step_ns);
      f->rank = sender->rank;
      f->path = sender->path;
    }
    f->severity = PrioritySeverity(f->gain.share);
  } else {
    f->title += "; " + line;
  }
}

class SlowLinkRule final : public JobRule {
 public:
  std::string_view id() const override { return "slow_link"; }

  void Evaluate(const JobRuleContext& c, std::vector<Finding>* out) const override {
    if (c.ranks.size() < 2) return;
    Finding f = SlowLinkOf(c.ranks, c.thresholds);
    AddLinkShortfall(c, &f);
    if (!f.rule.empty()) out->push_back(std::move(f));
  }
};

}  // namespace

const JobRule& SlowLink() {
  static const SlowLinkRule rule;
  return rule;
}

}  // namespace perfdx::advisor
