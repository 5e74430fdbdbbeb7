#include "perfdx/model/trace.h"

#include <algorithm>

namespace perfdx::model {
namespace {

std::optional<uint32_t> FindArgRow(const Trace& trace, SliceId slice, ArgKey key) {
  const uint32_t begin = trace.slices.args_begin[slice];
  const uint32_t end = begin + trace.slices.args_count[slice];
  for (uint32_t row = begin; row < end; ++row) {
    if (trace.args.key[row] == key) return row;
  }
  return std::nullopt;
}

}  // namespace

std::optional<int64_t> Trace::ArgInt(SliceId slice, ArgKey key) const {
  auto row = FindArgRow(*this, slice, key);
  if (!row) return std::nullopt;
  switch (args.type[*row]) {
    case ArgType::kInt:
      return args.bits[*row];
    case ArgType::kDouble:
      return static_cast<int64_t>(args.AsDouble(*row));
    case ArgType::kString:
      return std::nullopt;
  }
  return std::nullopt;
}

std::optional<double> Trace::ArgDouble(SliceId slice, ArgKey key) const {
  auto row = FindArgRow(*this, slice, key);
  if (!row || args.type[*row] == ArgType::kString) return std::nullopt;
  return args.AsDouble(*row);
}

std::optional<std::string_view> Trace::ArgString(SliceId slice, ArgKey key) const {
  auto row = FindArgRow(*this, slice, key);
  if (!row || args.type[*row] != ArgType::kString) return std::nullopt;
  return strings.Get(static_cast<StringId>(args.bits[*row]));
}

int64_t Trace::InnermostSliceAt(TrackId track, int64_t t_ns) const {
  const Track& tr = tracks[track];
  const auto first = slices.ts_ns.begin() + tr.slice_begin;
  const auto last = slices.ts_ns.begin() + tr.slice_end;
  auto it = std::upper_bound(first, last, t_ns);
  if (it == first) return -1;
  // The last slice starting at or before t; with nesting, the slice that
  // contains t is it or one of its ancestors.
  int64_t i = (it - slices.ts_ns.begin()) - 1;
  while (i >= 0) {
    const auto s = static_cast<SliceId>(i);
    const int64_t end = slices.end_ns(s);
    if (t_ns < end || (slices.dur_ns[s] == 0 && slices.ts_ns[s] == t_ns)) return i;
    i = slices.parent[s];
  }
  return -1;
}

}  // namespace perfdx::model
