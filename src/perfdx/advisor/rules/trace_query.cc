#include "perfdx/advisor/rules/trace_query.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <map>

#include <fmt/format.h>

#include "perfdx/advisor/knobs.h"

namespace perfdx::advisor {
namespace {

using analysis::Interval;
using analysis::IntervalSet;
using model::EventKind;
using model::SliceId;

// The link an HCCL task moved its bytes over; empty for on-chip copies,
// local transports and anything the profiler left unnamed.
std::string LinkOf(std::string_view transport, std::string_view link) {
  if (transport == "RDMA" || link == "ROCE" || link == "STANDARD_ROCE") return "RDMA";
  if (transport != "SDMA") return "";
  if (link.empty() || link == "ON_CHIP" || link == "INVALID_TYPE" || link == "N/A") return "";
  return std::string(link);
}

// Calls fn(slice, link, bytes) for every HCCL transfer task of the window.
template <typename Fn>
void ForEachTransfer(const model::Trace& trace, const IntervalSet& window, Fn&& fn) {
  const model::SliceTable& s = trace.slices;
  for (SliceId i = 0; i < s.size(); ++i) {
    if (s.kind[i] != EventKind::kCollectiveTask || !DeviceSliceIn(trace, i, window)) continue;
    const auto bytes = trace.ArgInt(i, model::ArgKey::kSizeBytes);
    if (!bytes || *bytes <= 0) continue;
    const std::string link = LinkOf(trace.ArgString(i, model::ArgKey::kTransportType).value_or(""),
                                    trace.ArgString(i, model::ArgKey::kLinkType).value_or(""));
    if (link.empty()) continue;
    fn(i, link, *bytes);
  }
}

}  // namespace

bool DeviceSliceIn(const model::Trace& trace, SliceId i, const IntervalSet& window) {
  return model::IsDeviceTrack(trace.tracks[trace.slices.track[i]].kind) &&
         window.Contains(trace.slices.ts_ns[i]);
}

IntervalSet DeviceComputeIn(const model::Trace& trace, const IntervalSet& window) {
  return DeviceIntervalsIn(
      trace, window, [&](SliceId i) { return trace.slices.kind[i] == EventKind::kComputeKernel; });
}

std::vector<Collective> CollectivesIn(const model::Trace& trace, const IntervalSet& window) {
  using model::ArgKey;
  const model::SliceTable& s = trace.slices;
  std::vector<Collective> out;
  for (SliceId i = 0; i < s.size(); ++i) {
    if (s.kind[i] != EventKind::kCollective || !DeviceSliceIn(trace, i, window)) continue;
    Collective col;
    col.slice = i;
    const auto collective_name = trace.ArgString(i, ArgKey::kCollectiveName);
    col.type =
        analysis::ParseCollectiveType(collective_name ? *collective_name : trace.slice_name(i));
    const auto in = trace.ArgInt(i, ArgKey::kInMsgNelems);
    const auto out_nelems = trace.ArgInt(i, ArgKey::kOutMsgNelems);
    const auto dtype = trace.ArgString(i, ArgKey::kDtype);
    const auto count = trace.ArgInt(i, ArgKey::kElementCount);
    const auto data_type = trace.ArgString(i, ArgKey::kDataType);
    if ((in || out_nelems) && dtype && analysis::DtypeBytes(*dtype) > 0) {
      col.message_bytes =
          std::max(in.value_or(0), out_nelems.value_or(0)) * analysis::DtypeBytes(*dtype);
    } else if (count && data_type && analysis::DtypeBytes(*data_type) > 0) {
      col.message_bytes = *count * analysis::DtypeBytes(*data_type);
    }
    col.group_size =
        trace.ArgInt(i, ArgKey::kGroupSize).value_or(trace.info.world_size.value_or(-1));
    out.push_back(col);
  }
  if (out.empty()) return out;

  // Each transfer task belongs to the collective running when it starts.
  std::sort(out.begin(), out.end(), [&](const Collective& a, const Collective& b) {
    return s.ts_ns[a.slice] < s.ts_ns[b.slice];
  });
  ForEachTransfer(trace, window, [&](SliceId task, const std::string& link, int64_t bytes) {
    const int64_t t = s.ts_ns[task];
    auto it = std::upper_bound(out.begin(), out.end(), t, [&](int64_t ts, const Collective& c) {
      return ts < s.ts_ns[c.slice];
    });
    if (it == out.begin()) return;
    --it;
    if (t >= s.end_ns(it->slice)) return;
    it->transit_bytes = std::max<int64_t>(it->transit_bytes, 0) + bytes;
    if (link == "RDMA") it->rdma = true;
  });
  return out;
}

std::vector<LinkTraffic> TransfersByLink(const model::Trace& trace, const IntervalSet& window) {
  std::map<std::string, LinkTraffic> by_link;
  ForEachTransfer(trace, window, [&](SliceId task, const std::string& link, int64_t bytes) {
    LinkTraffic& l = by_link[link];
    l.link = link;
    l.bytes += bytes;
    l.ns += trace.slices.dur_ns[task];
    ++l.tasks;
  });
  std::vector<LinkTraffic> out;
  for (auto& [link, traffic] : by_link) out.push_back(std::move(traffic));
  return out;
}

}  // namespace perfdx::advisor
