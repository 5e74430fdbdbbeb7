#include "perfdx/analysis/job_grouping.h"

#include <algorithm>
#include <set>
#include <string_view>

#include <fmt/format.h>

namespace perfdx::analysis {
namespace {

// Timestamps past 1000 s are read off a system clock (epoch or boot time):
// ranks of one job profile the same steps, so their spans overlap. Smaller
// ones are relative to the profiler's start and say nothing about when.
constexpr int64_t kClockTimeNs = int64_t{1000} * 1'000'000'000;
// Clocks of different hosts disagree a little: spans this far apart still
// count as overlapping.
constexpr int64_t kSpanSlackNs = int64_t{1'000'000'000};
// The names that make up this share of device time define a trace's work.
constexpr double kCoreWorkShare = 0.99;

// The kernel names that make up most of the device time; the operators
// instead on a CPU-only trace.
std::set<std::string_view> CoreWork(const RankAnalysis& a) {
  std::set<std::string_view> names;
  if (!a.kernels.kernels.empty()) {
    double covered = 0;
    for (const KernelStat& k : a.kernels.kernels) {  // by time, descending
      if (covered >= kCoreWorkShare) break;
      names.insert(k.name);
      covered += k.share;
    }
    return names;
  }
  for (const OpStat& op : a.ops.ops) names.insert(op.name);
  return names;
}

double Jaccard(const std::set<std::string_view>& a, const std::set<std::string_view>& b) {
  if (a.empty() && b.empty()) return 1;
  size_t common = 0;
  for (std::string_view n : a) common += b.count(n);
  const size_t all = a.size() + b.size() - common;
  return all ? static_cast<double>(common) / static_cast<double>(all) : 1;
}

std::string RankName(const model::RankInfo& info) {
  return info.rank ? fmt::format("rank {}", *info.rank) : std::string("a rank");
}

}  // namespace

std::string WhyNotOneJob(const RankAnalysis& a, const RankAnalysis& b) {
  const model::RankInfo& x = a.info();
  const model::RankInfo& y = b.info();
  if (x.rank && y.rank && *x.rank == *y.rank) {
    return fmt::format("both are rank {}", *x.rank);
  }
  auto distributed = [](const model::RankInfo& i) {
    return i.rank.has_value() || i.world_size.has_value() || !i.distributed_backend.empty();
  };
  if (!distributed(x) && !distributed(y)) {
    return "neither says it is a rank of a distributed job (no rank, world size or backend)";
  }
  if (x.world_size && y.world_size && *x.world_size != *y.world_size) {
    return fmt::format("world sizes differ ({} and {})", *x.world_size, *y.world_size);
  }
  if (!x.distributed_backend.empty() && !y.distributed_backend.empty() &&
      x.distributed_backend != y.distributed_backend) {
    return fmt::format("collective backends differ ({} and {})", x.distributed_backend,
                       y.distributed_backend);
  }
  if (x.runtime.framework != y.runtime.framework || x.runtime.platform != y.runtime.platform) {
    return fmt::format(
        "frameworks differ ({} on {} and {} on {})", model::FrameworkName(x.runtime.framework),
        model::PlatformName(x.runtime.platform), model::FrameworkName(y.runtime.framework),
        model::PlatformName(y.runtime.platform));
  }
  const IntervalSet& sx = a.trace_span;
  const IntervalSet& sy = b.trace_span;
  if (!sx.empty() && !sy.empty()) {
    const Interval ix = sx.intervals().front();
    const Interval iy = sy.intervals().front();
    if (ix.start >= kClockTimeNs && iy.start >= kClockTimeNs &&
        (ix.end + kSpanSlackNs < iy.start || iy.end + kSpanSlackNs < ix.start)) {
      return "they were recorded at different times";
    }
  }
  const double overlap = Jaccard(CoreWork(a), CoreWork(b));
  if (overlap < kSameJobMinKernelOverlap) {
    return fmt::format("they ran different work ({:.0f}% of their kernel names in common)",
                       overlap * 100);
  }
  return {};
}

JobGrouping GroupIntoJobs(const std::vector<const RankAnalysis*>& ranks) {
  JobGrouping out;
  for (size_t i = 0; i < ranks.size(); ++i) {
    bool placed = false;
    std::string first_reason;
    for (Job& job : out.jobs) {
      // A trace joins a job when it agrees with every member.
      std::string why;
      for (size_t m : job.members) {
        why = WhyNotOneJob(*ranks[m], *ranks[i]);
        if (!why.empty()) break;
      }
      if (why.empty()) {
        job.members.push_back(i);
        placed = true;
        break;
      }
      if (first_reason.empty()) first_reason = why;
    }
    if (placed) continue;
    if (!out.jobs.empty()) {
      out.reasons.push_back(fmt::format(
          "{} ({}) is analysed as a job of its own, not as a rank of the traces before it: {}",
          ranks[i]->info().path, RankName(ranks[i]->info()), first_reason));
    }
    out.jobs.push_back({{i}});
  }
  return out;
}

}  // namespace perfdx::analysis
