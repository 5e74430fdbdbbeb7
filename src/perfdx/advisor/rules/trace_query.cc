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

std::string Canonical(std::string_view s) {
  // Lower case without separators: "reduce_scatter" and "reduceScatter" meet.
  std::string out;
  for (char ch : s) {
    if (ch == '_' || ch == ' ' || ch == '-') continue;
    out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(ch))));
  }
  return out;
}

bool Has(const std::string& s, std::string_view part) {
  return s.find(part) != std::string::npos;
}

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

IntervalSet AnalysedWindow(const RuleContext& c) {
  const analysis::RankAnalysis& a = c.analysis;
  std::vector<Interval> v;
  if (a.window != analysis::AnalysisWindow::kAll) {
    size_t n = a.steps.size();
    if (a.window == analysis::AnalysisWindow::kHta && n >= 2) --n;
    for (size_t k = 0; k < n; ++k)
      v.push_back({a.steps[k].window.start_ns, a.steps[k].window.end_ns});
  }
  IntervalSet window = IntervalSet::FromUnsorted(std::move(v));
  if (!window.empty()) return window;
  const model::Trace& t = c.trace();
  int64_t first = std::numeric_limits<int64_t>::max();
  int64_t last = std::numeric_limits<int64_t>::min();
  for (SliceId i = 0; i < t.slices.size(); ++i) {
    if (t.tracks[t.slices.track[i]].kind == model::TrackKind::kProfilerInternal) continue;
    first = std::min(first, t.slices.ts_ns[i]);
    last = std::max(last, t.slices.end_ns(i));
  }
  return first < last ? IntervalSet::Single(first, last) : IntervalSet();
}

bool DeviceSliceIn(const model::Trace& trace, SliceId i, const IntervalSet& window) {
  return model::IsDeviceTrack(trace.tracks[trace.slices.track[i]].kind) &&
         window.Contains(trace.slices.ts_ns[i]);
}

IntervalSet DeviceComputeIn(const model::Trace& trace, const IntervalSet& window) {
  return DeviceIntervalsIn(
      trace, window, [&](SliceId i) { return trace.slices.kind[i] == EventKind::kComputeKernel; });
}

int64_t PerStep(const RuleContext& c, int64_t total_ns) {
  return total_ns / static_cast<int64_t>(c.step_count());
}

int64_t DtypeBytes(std::string_view dtype) {
  static const std::map<std::string, int64_t> kSizes = {
      {"float", 4},          {"float32", 4},        {"fp32", 4},       {"int", 4},
      {"int32", 4},          {"uint32", 4},         {"double", 8},     {"float64", 8},
      {"fp64", 8},           {"long", 8},           {"int64", 8},      {"uint64", 8},
      {"complexfloat", 8},   {"complexdouble", 16}, {"half", 2},       {"float16", 2},
      {"fp16", 2},           {"bfloat16", 2},       {"bf16", 2},       {"bfp16", 2},
      {"short", 2},          {"int16", 2},          {"uint16", 2},     {"byte", 1},
      {"char", 1},           {"bool", 1},           {"int8", 1},       {"uint8", 1},
      {"hif8", 1},           {"float8e4m3fn", 1},   {"float8e5m2", 1}, {"float8e4m3fnuz", 1},
      {"float8e5m2fnuz", 1},
  };
  auto it = kSizes.find(Canonical(dtype));
  return it == kSizes.end() ? 0 : it->second;
}

CollectiveOp ParseCollectiveOp(std::string_view name) {
  const std::string n = Canonical(name);
  // Longest names first: "allreduce" and "reducescatter" both hold "reduce".
  if (Has(n, "allreduce")) return CollectiveOp::kAllReduce;
  if (Has(n, "reducescatter")) return CollectiveOp::kReduceScatter;
  if (Has(n, "allgather")) return CollectiveOp::kAllGather;
  if (Has(n, "alltoall")) return CollectiveOp::kAllToAll;
  if (Has(n, "broadcast")) return CollectiveOp::kBroadcast;
  if (Has(n, "send") || Has(n, "recv") || Has(n, "receive")) return CollectiveOp::kPointToPoint;
  if (Has(n, "reduce")) return CollectiveOp::kReduce;
  return CollectiveOp::kUnknown;
}

double BusBandwidthFactor(CollectiveOp op, int64_t group_size) {
  if (group_size < 1) return 0;
  const double n = static_cast<double>(group_size);
  switch (op) {
    case CollectiveOp::kAllReduce:
      return 2 * (n - 1) / n;
    case CollectiveOp::kAllGather:
    case CollectiveOp::kReduceScatter:
    case CollectiveOp::kAllToAll:
      return (n - 1) / n;
    case CollectiveOp::kBroadcast:
    case CollectiveOp::kReduce:
    case CollectiveOp::kPointToPoint:
      return 1;
    case CollectiveOp::kUnknown:
      return 0;
  }
  return 0;
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
    col.op = ParseCollectiveOp(collective_name ? *collective_name : trace.slice_name(i));
    const auto in = trace.ArgInt(i, ArgKey::kInMsgNelems);
    const auto out_nelems = trace.ArgInt(i, ArgKey::kOutMsgNelems);
    const auto dtype = trace.ArgString(i, ArgKey::kDtype);
    const auto count = trace.ArgInt(i, ArgKey::kElementCount);
    const auto data_type = trace.ArgString(i, ArgKey::kDataType);
    if ((in || out_nelems) && dtype && DtypeBytes(*dtype) > 0) {
      col.message_bytes = std::max(in.value_or(0), out_nelems.value_or(0)) * DtypeBytes(*dtype);
    } else if (count && data_type && DtypeBytes(*data_type) > 0) {
      col.message_bytes = *count * DtypeBytes(*data_type);
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

std::string Mb(int64_t bytes) {
  const double b = static_cast<double>(bytes);
  if (b >= 1e6) return fmt::format("{:.1f} MB", b / 1e6);
  if (b >= 1e3) return fmt::format("{:.1f} KB", b / 1e3);
  return fmt::format("{} B", bytes);
}

void AppendFixes(std::vector<Recommendation>* out,
                 std::initializer_list<std::string_view> fix_ids) {
  for (std::string_view fix : fix_ids) {
    for (Recommendation& r : RecommendationsFor(fix)) out->push_back(std::move(r));
  }
}

}  // namespace perfdx::advisor
