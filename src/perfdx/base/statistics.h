// The statistics every stage uses: medians, quantiles and percentiles, and
// the bootstrap behind "did a change move the step time beyond noise?".
//
// Bootstrap: a percentile bootstrap confidence interval of the ratio of median
// step times, new / base (docs/baseline.md explains the choice). Each of B
// resamples draws n_base steps from the base run and n_new from the new run,
// with replacement, and takes the ratio of their medians; the interval is
// the (1 - c)/2 and (1 + c)/2 quantiles of the B ratios.
//
//   base = {100, 100, 100}, new = {120, 120, 120}   -> ratio 1.2, CI [1.2, 1.2]
//
// The random generator is SplitMix64 with a fixed seed and a portable bounded
// draw (no std::*_distribution, whose output differs between standard
// libraries), so the same inputs give the same interval on every machine.
//
// Header-only and standard-library-only: baseline/perf_monitor.h, which users
// copy into their training code, uses the same implementation as `perfdx check`.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string_view>
#include <vector>

namespace perfdx {

// SplitMix64 (Steele, Lea, Flood 2014): tiny, fast, and well-mixed enough for
// resampling indices.
class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}

  uint64_t Next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

  // Uniform in [0, n), n > 0: rejection of the top partial block keeps every
  // index equally likely.
  uint64_t Below(uint64_t n) {
    const uint64_t limit =
        std::numeric_limits<uint64_t>::max() - std::numeric_limits<uint64_t>::max() % n;
    uint64_t x = Next();
    while (x >= limit) x = Next();
    return x % n;
  }

 private:
  uint64_t state_;
};

// The median (mean of the two middle values for an even count, in T's own
// arithmetic: integer division for integers); 0 for none. Reorders `values`.
template <typename T>
T MedianInPlace(std::vector<T>& values) {
  const size_t n = values.size();
  if (n == 0) return 0;
  auto mid = values.begin() + static_cast<std::ptrdiff_t>(n / 2);
  std::nth_element(values.begin(), mid, values.end());
  const T upper = *mid;
  if (n % 2 == 1) return upper;
  const T lower = *std::max_element(values.begin(), mid);
  return (lower + upper) / 2;
}

template <typename T>
T Median(std::vector<T> values) {
  return MedianInPlace(values);
}

// The nearest-rank percentile p in [0, 100] (the smallest value with at
// least p% of the values at or below it); 0 for none.
template <typename T>
T NearestRankPercentile(std::vector<T> values, double p) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const double rank = std::ceil(p / 100.0 * static_cast<double>(values.size()));
  const size_t index =
      static_cast<size_t>(std::clamp(rank, 1.0, static_cast<double>(values.size()))) - 1;
  return values[index];
}

// The summary every report gives of a distribution (step times, above all).
struct DistributionSummary {
  size_t count = 0;
  double mean = 0;
  double median = 0;  // Median()
  double p90 = 0;     // NearestRankPercentile(.., 90)
  double min = 0;
  double max = 0;
  double cv = 0;  // population standard deviation / mean; 0 when the mean is not positive
};

inline DistributionSummary Summarize(std::vector<double> values) {
  DistributionSummary out;
  out.count = values.size();
  if (values.empty()) return out;
  double sum = 0;
  for (double v : values) sum += v;
  out.mean = sum / static_cast<double>(values.size());
  double var = 0;
  for (double v : values) var += (v - out.mean) * (v - out.mean);
  var /= static_cast<double>(values.size());
  out.cv = out.mean > 0 ? std::sqrt(var) / out.mean : 0;
  out.min = *std::min_element(values.begin(), values.end());
  out.max = *std::max_element(values.begin(), values.end());
  out.p90 = NearestRankPercentile(values, 90);
  out.median = MedianInPlace(values);
  return out;
}

// part / whole, 0 when whole is not positive: every share (0..1) of a
// duration in perfdx is this.
inline double ShareOf(int64_t part, int64_t whole) {
  return whole > 0 ? static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}

// Quantile q in [0, 1] of sorted values, linear between closest ranks
// (Hyndman & Fan type 7, the default of R and numpy).
inline double SortedQuantile(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return 0;
  const double pos = q * static_cast<double>(sorted.size() - 1);
  const auto lo = static_cast<size_t>(std::floor(pos));
  const size_t hi = std::min(lo + 1, sorted.size() - 1);
  const double frac = pos - static_cast<double>(lo);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * frac;
}

inline constexpr uint64_t kDefaultBootstrapSeed = 0x70657266647821ULL;  // "perfdx!"
inline constexpr std::string_view kBootstrapMethod = "bootstrap_median_ratio";

struct BootstrapOptions {
  // Resamples; 0 chooses 10000, fewer for very long runs so that one check
  // stays under ~2e7 draws (a second or so).
  int resamples = 0;
  double confidence = 0.95;
  uint64_t seed = kDefaultBootstrapSeed;
};

struct RatioInterval {
  bool valid = false;  // false: a side is empty or its median is not positive
  double ratio = 0;    // median(new) / median(base) of the data itself
  double low = 0;      // the confidence interval of that ratio
  double high = 0;
  double confidence = 0;
  int resamples = 0;
  uint64_t seed = 0;
};

inline int ChooseResamples(size_t n_base, size_t n_new, int requested) {
  if (requested > 0) return requested;
  constexpr double kMaxDraws = 2e7;
  constexpr int kMost = 10000;
  constexpr int kLeast = 1000;
  const double per_resample = static_cast<double>(n_base + n_new);
  return static_cast<int>(std::clamp(kMaxDraws / std::max(per_resample, 1.0),
                                     static_cast<double>(kLeast), static_cast<double>(kMost)));
}

inline RatioInterval BootstrapMedianRatio(const std::vector<double>& base,
                                          const std::vector<double>& current,
                                          const BootstrapOptions& options = {}) {
  RatioInterval out;
  if (base.empty() || current.empty()) return out;
  const double base_median = Median(base);
  if (!(base_median > 0)) return out;
  out.ratio = Median(current) / base_median;
  out.confidence = options.confidence;
  out.seed = options.seed;
  out.resamples = ChooseResamples(base.size(), current.size(), options.resamples);

  SplitMix64 rng(options.seed);
  std::vector<double> ratios;
  ratios.reserve(static_cast<size_t>(out.resamples));
  std::vector<double> draw_base(base.size());
  std::vector<double> draw_new(current.size());
  for (int b = 0; b < out.resamples; ++b) {
    for (double& v : draw_base) v = base[rng.Below(base.size())];
    for (double& v : draw_new) v = current[rng.Below(current.size())];
    const double m_base = MedianInPlace(draw_base);
    if (!(m_base > 0)) continue;  // only with zero-length steps in the base
    ratios.push_back(MedianInPlace(draw_new) / m_base);
  }
  if (ratios.empty()) return out;
  std::sort(ratios.begin(), ratios.end());
  const double tail = (1 - options.confidence) / 2;
  out.low = SortedQuantile(ratios, tail);
  out.high = SortedQuantile(ratios, 1 - tail);
  out.valid = true;
  return out;
}

}  // namespace perfdx
