#include "perfdx/analysis/interval_set.h"

#include <algorithm>

namespace perfdx::analysis {
namespace {

// Appends `next` to sorted `out`, merging it with the last interval when they
// overlap or touch.
void AppendMerged(std::vector<Interval>& out, const Interval& next) {
  if (next.end <= next.start) return;
  if (!out.empty() && next.start <= out.back().end) {
    out.back().end = std::max(out.back().end, next.end);
  } else {
    out.push_back(next);
  }
}

}  // namespace

IntervalSet::IntervalSet(std::vector<Interval> sorted_merged)
    : intervals_(std::move(sorted_merged)) {
  prefix_.reserve(intervals_.size());
  int64_t total = 0;
  for (const Interval& i : intervals_) {
    total += i.length();
    prefix_.push_back(total);
  }
}

IntervalSet IntervalSet::FromUnsorted(std::vector<Interval> intervals) {
  std::sort(intervals.begin(), intervals.end(),
            [](const Interval& a, const Interval& b) { return a.start < b.start; });
  std::vector<Interval> merged;
  merged.reserve(intervals.size());
  for (const Interval& i : intervals) AppendMerged(merged, i);
  return IntervalSet(std::move(merged));
}

IntervalSet IntervalSet::FromSorted(const std::vector<Interval>& intervals) {
  std::vector<Interval> merged;
  merged.reserve(intervals.size());
  for (const Interval& i : intervals) AppendMerged(merged, i);
  return IntervalSet(std::move(merged));
}

IntervalSet IntervalSet::UnionAll(std::vector<IntervalSet> sets) {
  if (sets.empty()) return IntervalSet();
  while (sets.size() > 1) {
    std::vector<IntervalSet> next;
    next.reserve((sets.size() + 1) / 2);
    for (size_t i = 0; i + 1 < sets.size(); i += 2) next.push_back(Union(sets[i], sets[i + 1]));
    if (sets.size() % 2 == 1) next.push_back(std::move(sets.back()));
    sets = std::move(next);
  }
  return std::move(sets.front());
}

IntervalSet IntervalSet::Single(int64_t start, int64_t end) {
  std::vector<Interval> v;
  if (end > start) v.push_back({start, end});
  return IntervalSet(std::move(v));
}

int64_t IntervalSet::LengthBefore(int64_t t) const {
  // First interval that ends after t.
  auto it = std::upper_bound(intervals_.begin(), intervals_.end(), t,
                             [](int64_t v, const Interval& i) { return v < i.end; });
  const size_t k = static_cast<size_t>(it - intervals_.begin());
  int64_t length = k == 0 ? 0 : prefix_[k - 1];
  if (it != intervals_.end() && it->start < t) length += t - it->start;
  return length;
}

int64_t IntervalSet::LengthIn(int64_t start, int64_t end) const {
  if (end <= start || intervals_.empty()) return 0;
  return LengthBefore(end) - LengthBefore(start);
}

IntervalSet IntervalSet::Clip(int64_t start, int64_t end) const {
  std::vector<Interval> out;
  if (end <= start) return IntervalSet(std::move(out));
  auto it = std::upper_bound(intervals_.begin(), intervals_.end(), start,
                             [](int64_t v, const Interval& i) { return v < i.end; });
  for (; it != intervals_.end() && it->start < end; ++it) {
    AppendMerged(out, {std::max(it->start, start), std::min(it->end, end)});
  }
  return IntervalSet(std::move(out));
}

IntervalSet IntervalSet::GapsIn(int64_t start, int64_t end) const {
  return Subtract(Single(start, end), *this);
}

bool IntervalSet::Contains(int64_t t) const {
  auto it = std::upper_bound(intervals_.begin(), intervals_.end(), t,
                             [](int64_t v, const Interval& i) { return v < i.end; });
  return it != intervals_.end() && it->start <= t;
}

IntervalSet Union(const IntervalSet& a, const IntervalSet& b) {
  std::vector<Interval> out;
  out.reserve(a.size() + b.size());
  size_t i = 0;
  size_t j = 0;
  while (i < a.size() || j < b.size()) {
    const bool take_a =
        j == b.size() || (i < a.size() && a.intervals_[i].start <= b.intervals_[j].start);
    AppendMerged(out, take_a ? a.intervals_[i++] : b.intervals_[j++]);
  }
  return IntervalSet(std::move(out));
}

IntervalSet Intersect(const IntervalSet& a, const IntervalSet& b) {
  std::vector<Interval> out;
  size_t i = 0;
  size_t j = 0;
  while (i < a.size() && j < b.size()) {
    const Interval& x = a.intervals_[i];
    const Interval& y = b.intervals_[j];
    const int64_t start = std::max(x.start, y.start);
    const int64_t end = std::min(x.end, y.end);
    if (start < end) out.push_back({start, end});
    (x.end < y.end) ? ++i : ++j;
  }
  return IntervalSet(std::move(out));
}

IntervalSet Subtract(const IntervalSet& a, const IntervalSet& b) {
  std::vector<Interval> out;
  size_t j = 0;
  for (const Interval& x : a.intervals_) {
    int64_t cursor = x.start;
    // The first interval of b ending after x starts, by binary search: a
    // linear skip from 0 made GapsIn of one step O(|b|), and gap finding,
    // one GapsIn per step, quadratic (#17).
    j = static_cast<size_t>(
        std::upper_bound(b.intervals_.begin() + static_cast<std::ptrdiff_t>(j), b.intervals_.end(),
                         cursor, [](int64_t v, const Interval& i) { return v < i.end; }) -
        b.intervals_.begin());
    size_t k = j;
    while (k < b.size() && b.intervals_[k].start < x.end) {
      const Interval& y = b.intervals_[k];
      if (y.start > cursor) out.push_back({cursor, y.start});
      cursor = std::max(cursor, y.end);
      ++k;
    }
    if (cursor < x.end) out.push_back({cursor, x.end});
  }
  return IntervalSet(std::move(out));
}

}  // namespace perfdx::analysis
