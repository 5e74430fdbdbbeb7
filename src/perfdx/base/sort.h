// Sorts for trace records, which arrive mostly in order: merging the runs
// already there takes far fewer comparisons than std::sort, and records with
// many runs go to a radix sort of their int64 keys.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace perfdx::base {

// Sorts `v` stably by key_of(x), an int64: a least-significant-digit radix
// sort of the keys' offsets from their smallest, 12 bits a pass, as many
// passes as their range needs (3 for a trace of 68 s). Kineto writes a host
// thread's operators as they end, children before parents, so its track is
// thousands of short runs (the slices' order of ResNet-50: 9.8 M instructions
// with std::sort there, 8.0 M with this).
// `lo` and `hi` are the smallest and largest key.
template <typename T, typename KeyOf>
void RadixSortByKey(std::vector<T>& v, KeyOf key_of, int64_t lo, int64_t hi) {
  const uint64_t range = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo);
  constexpr unsigned kBits = 12;
  constexpr size_t kBuckets = size_t{1} << kBits;
  std::vector<T> out(v.size());
  std::vector<uint32_t> start(kBuckets);
  for (unsigned shift = 0; shift < 64 && (range >> shift) != 0; shift += kBits) {
    auto digit = [&](const T& x) {
      return static_cast<size_t>(
          ((static_cast<uint64_t>(key_of(x)) - static_cast<uint64_t>(lo)) >> shift) &
          (kBuckets - 1));
    };
    std::fill(start.begin(), start.end(), 0);
    for (const T& x : v) ++start[digit(x)];
    uint32_t sum = 0;
    for (uint32_t& c : start) sum += std::exchange(c, sum);
    for (const T& x : v) out[start[digit(x)]++] = x;
    v.swap(out);
  }
}

// Sorts `v` by `less`. Trace records arrive mostly in order — a host thread's
// slices come as a few ascending runs (operators, then the runtime calls made
// inside them) — so merging the runs already there takes far fewer
// comparisons than std::sort; input with many runs goes to `sort_all`
// (std::sort by default). The merge is stable, so equal elements keep their
// order only if std::sort is not used: callers needing one result pass a
// strict total order. Returns false when `v` was already sorted.
template <typename T, typename Less, typename SortAll>
bool SortByRuns(std::vector<T>& v, Less less, SortAll sort_all) {
  const size_t n = v.size();
  std::vector<size_t> bounds = {0};
  for (size_t i = 1; i < n; ++i) {
    if (less(v[i], v[i - 1])) bounds.push_back(i);
  }
  if (bounds.size() == 1) return false;
  if (bounds.size() > n / 8) {
    sort_all(v);
    return true;
  }
  bounds.push_back(n);
  std::vector<T> merged(n);
  std::vector<size_t> next;
  while (bounds.size() > 2) {
    next.assign(1, 0);
    size_t k = 0;
    for (; k + 2 < bounds.size(); k += 2) {
      std::merge(v.begin() + bounds[k], v.begin() + bounds[k + 1], v.begin() + bounds[k + 1],
                 v.begin() + bounds[k + 2], merged.begin() + bounds[k], less);
      next.push_back(bounds[k + 2]);
    }
    if (k + 1 < bounds.size()) {  // an odd run out
      std::copy(v.begin() + bounds[k], v.begin() + bounds[k + 1], merged.begin() + bounds[k]);
      next.push_back(bounds[k + 1]);
    }
    v.swap(merged);
    // Merged runs that now follow each other in order are one run (windows of
    // a long trace: each sorted once its two runs are merged).
    bounds.assign(1, 0);
    for (size_t j = 1; j < next.size(); ++j) {
      const size_t b = next[j];
      if (b == n || less(v[b], v[b - 1])) bounds.push_back(b);
    }
  }
  return true;
}

template <typename T, typename Less>
bool SortByRuns(std::vector<T>& v, Less less) {
  return SortByRuns(v, less,
                    [&less](std::vector<T>& all) { std::sort(all.begin(), all.end(), less); });
}

// Sorts `v` stably by key_of(x): merged runs, or a radix sort when that is
// less work. Merging r runs takes about log2(r) sequential passes over `v`;
// the radix sort one per 12 bits of the keys' range, each a count and a
// scatter to 4,096 places, measured at about three merge passes. Kineto's
// flow records (1 GB trace: 1.2 M of 40 bytes) come as 1,821 runs of ids
// spanning 36 bits: 11 merge passes, 0.059 s, against 3 radix passes,
// 0.051 s.
template <typename T, typename KeyOf>
bool StableSortByKey(std::vector<T>& v, KeyOf key_of) {
  if (v.size() < 2) return false;
  size_t runs = 1;
  int64_t lo = key_of(v[0]);
  int64_t hi = lo;
  for (size_t i = 1; i < v.size(); ++i) {
    const int64_t k = key_of(v[i]);
    runs += k < key_of(v[i - 1]) ? 1 : 0;
    lo = std::min(lo, k);
    hi = std::max(hi, k);
  }
  if (runs == 1) return false;
  const auto merge_passes = static_cast<unsigned>(std::bit_width(runs - 1));
  const unsigned radix_passes = (static_cast<unsigned>(std::bit_width(static_cast<uint64_t>(hi) -
                                                                      static_cast<uint64_t>(lo))) +
                                 11) /
                                12;
  if (3 * radix_passes < merge_passes) {
    RadixSortByKey(v, key_of, lo, hi);
    return true;
  }
  return SortByRuns(
      v, [&key_of](const T& a, const T& b) { return key_of(a) < key_of(b); },
      [&key_of, lo, hi](std::vector<T>& all) { RadixSortByKey(all, key_of, lo, hi); });
}

}  // namespace perfdx::base
