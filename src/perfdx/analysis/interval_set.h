// Sorted, merged sets of half-open time intervals [start, end) in ns: the one
// interval algebra every analysis uses (device busy time, overlap, idle gaps,
// step partitions). Touching intervals merge, as HTA's merge does.
//
//   IntervalSet busy = IntervalSet::FromUnsorted({{0, 10}, {5, 20}, {30, 40}});
//   busy.TotalLength();                         // 25
//   Intersect(busy, IntervalSet::Single(8, 35)).TotalLength();  // 12 + 5 = 17
//   busy.LengthIn(15, 35);                      // 5 + 5 = 10, O(log n)
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace perfdx::analysis {

struct Interval {
  int64_t start = 0;
  int64_t end = 0;
  int64_t length() const { return end - start; }
  friend bool operator==(const Interval&, const Interval&) = default;
};

class IntervalSet {
 public:
  IntervalSet() = default;

  // Any order, any overlap; empty and inverted intervals are dropped.
  static IntervalSet FromUnsorted(std::vector<Interval> intervals);
  // The same for intervals already sorted by start (linear, no sort).
  static IntervalSet FromSorted(const std::vector<Interval>& intervals);
  // The union of many sets, merged pairwise (n log k for k sets).
  static IntervalSet UnionAll(std::vector<IntervalSet> sets);
  static IntervalSet Single(int64_t start, int64_t end);

  const std::vector<Interval>& intervals() const { return intervals_; }
  bool empty() const { return intervals_.empty(); }
  size_t size() const { return intervals_.size(); }
  int64_t TotalLength() const { return prefix_.empty() ? 0 : prefix_.back(); }

  // |this ∩ [start, end)| without building the intersection.
  int64_t LengthIn(int64_t start, int64_t end) const;
  // this ∩ [start, end).
  IntervalSet Clip(int64_t start, int64_t end) const;
  // [start, end) minus this: the gaps, including any before the first and
  // after the last interval.
  IntervalSet GapsIn(int64_t start, int64_t end) const;
  bool Contains(int64_t t) const;

  friend IntervalSet Union(const IntervalSet& a, const IntervalSet& b);
  friend IntervalSet Intersect(const IntervalSet& a, const IntervalSet& b);
  // a minus b.
  friend IntervalSet Subtract(const IntervalSet& a, const IntervalSet& b);
  friend bool operator==(const IntervalSet& a, const IntervalSet& b) {
    return a.intervals_ == b.intervals_;
  }

 private:
  // `sorted_merged` must already be sorted, disjoint and non-touching.
  explicit IntervalSet(std::vector<Interval> sorted_merged);
  // Length of this ∩ (-inf, t).
  int64_t LengthBefore(int64_t t) const;

  std::vector<Interval> intervals_;
  std::vector<int64_t> prefix_;  // prefix_[i] = total length of intervals_[0..i]
};

}  // namespace perfdx::analysis
