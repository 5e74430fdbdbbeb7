#include "perfdx/analysis/collectives.h"

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <unordered_map>
#include <vector>

#include "perfdx/analysis/slice_sets.h"
#include "perfdx/analysis/step_index.h"
#include "perfdx/base/saturating.h"

namespace perfdx::analysis {
namespace {

using model::ArgKey;
using model::EventKind;
using model::SliceId;
using model::TrackKind;

// msprof's large-message thresholds, MB (meta_parser.py MessageSizeThreshold;
// NumberConstant.*_MESSAGE_SIZE_THRESHOLD), in bytes of MB = 10^6.
constexpr int64_t kLargeLinkBytes = 32'000'000;  // HCCS, PCIE, SIO
constexpr int64_t kLargeRdmaBytes = 500'000;     // RDMA
// Tasks closing an RDMA payload run: notify + ack for send/receive (3), plus
// the barrier pair otherwise (5) (RDMA_NO_BARRIER_TASK_NUM / _WITH_BARRIER_).
constexpr size_t kRdmaTasksNoBarrier = 3;
constexpr size_t kRdmaTasksWithBarrier = 5;

std::string Canonical(std::string_view s) {
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

// "Plane 3" / "Group 1 Plane 3" -> plane 3, group 1 (-1 when not named).
void ParsePlaneName(std::string_view name, int64_t* group, int64_t* plane) {
  auto number_after = [&](std::string_view word) -> int64_t {
    const size_t at = name.find(word);
    if (at == std::string_view::npos) return -1;
    size_t i = at + word.size();
    while (i < name.size() && name[i] == ' ') ++i;
    int64_t v = 0;
    size_t digits = 0;
    while (i < name.size() && std::isdigit(static_cast<unsigned char>(name[i])) && digits < 12) {
      v = v * 10 + (name[i] - '0');
      ++i;
      ++digits;
    }
    return digits > 0 ? v : -1;
  };
  *group = number_after("Group");
  *plane = number_after("Plane");
}

// The transport key of an SDMA transfer (meta communication_parser.py
// get_communication_bandwidth_info_type).
std::string SdmaKey(std::string_view link) {
  if (link == "HCCS_SW") return "HCCS";
  if (link == "HCCS" || link == "PCIE" || link == "SIO") return std::string(link);
  return "SDMA";
}

struct Transfer {
  std::string key;
  int64_t bytes;
  int64_t start_ns;
  int64_t end_ns;
};

struct PlaneTask {
  int64_t plane;
  SliceId slice;
};

void AddTransfer(std::map<std::string, TransportTransit>* by_key, const Transfer& t) {
  TransportTransit& tr = (*by_key)[t.key];
  tr.transport = t.key;
  base::AddSaturating(tr.transit_bytes, t.bytes);
  base::AddSaturating(tr.transit_ns, t.end_ns - t.start_ns);
  ++tr.transfers;
  const int64_t large = t.key == "RDMA" ? kLargeRdmaBytes : kLargeLinkBytes;
  if (t.bytes > large) ++tr.large_transfers;
  auto it = std::find_if(tr.size_distribution.begin(), tr.size_distribution.end(),
                         [&](const PacketSize& p) { return p.bytes == t.bytes; });
  if (it == tr.size_distribution.end()) {
    tr.size_distribution.push_back({t.bytes, 0, 0});
    it = tr.size_distribution.end() - 1;
  }
  ++it->count;
  base::AddSaturating(it->transit_ns, t.end_ns - t.start_ns);
}

// Orders transports as communication.json lists them, SDMA (the sum) last.
std::vector<TransportTransit> Ordered(std::map<std::string, TransportTransit> by_key) {
  // SDMA = HCCS + PCIE + SIO + transfers over other SDMA links.
  TransportTransit sdma = by_key.count("SDMA") ? by_key["SDMA"] : TransportTransit{};
  sdma.transport = "SDMA";
  sdma.size_distribution.clear();
  for (std::string_view k : {"HCCS", "PCIE", "SIO"}) {
    auto it = by_key.find(std::string(k));
    if (it == by_key.end()) continue;
    base::AddSaturating(sdma.transit_bytes, it->second.transit_bytes);
    base::AddSaturating(sdma.transit_ns, it->second.transit_ns);
    sdma.transfers += it->second.transfers;
    sdma.large_transfers += it->second.large_transfers;
  }
  by_key.erase("SDMA");
  std::vector<TransportTransit> out;
  for (std::string_view k : {"HCCS", "PCIE", "SIO", "RDMA"}) {
    auto it = by_key.find(std::string(k));
    if (it == by_key.end()) continue;
    out.push_back(std::move(it->second));
    by_key.erase(it);
  }
  for (auto& [key, t] : by_key) out.push_back(std::move(t));  // UB, ... as named
  for (TransportTransit& t : out) {
    std::sort(t.size_distribution.begin(), t.size_distribution.end(),
              [](const PacketSize& a, const PacketSize& b) { return a.bytes < b.bytes; });
  }
  if (sdma.transfers > 0) out.push_back(std::move(sdma));
  return out;
}

class AscendCollectiveParser {
 public:
  AscendCollectiveParser(const model::Trace& trace, CollectiveStats* op) : t_(trace), op_(op) {}

  void Run(std::vector<PlaneTask> tasks) {
    op_->tasks = tasks.size();
    // Tasks of each plane in time order (stable: the file's order for ties).
    std::stable_sort(tasks.begin(), tasks.end(), [&](const PlaneTask& a, const PlaneTask& b) {
      return std::tie(a.plane, t_.slices.ts_ns[a.slice]) <
             std::tie(b.plane, t_.slices.ts_ns[b.slice]);
    });
    const bool send_recv = op_->type == CollectiveType::kSend ||
                           op_->type == CollectiveType::kReceive ||
                           op_->type == CollectiveType::kBatchSendRecv;
    const size_t rdma_closing = send_recv ? kRdmaTasksNoBarrier : kRdmaTasksWithBarrier;
    std::map<std::string, TransportTransit> by_key;
    std::map<int64_t, std::vector<Transfer>> transfers_by_plane;
    for (size_t begin = 0; begin < tasks.size();) {
      size_t end = begin;
      while (end < tasks.size() && tasks[end].plane == tasks[begin].plane) ++end;
      std::vector<Transfer>& plane_transfers = transfers_by_plane[tasks[begin].plane];
      size_t i = begin;
      while (i < end) {
        const SliceId s = tasks[i].slice;
        const std::string_view rdma = t_.ArgString(s, ArgKey::kRdmaType).value_or("");
        if (rdma == "RDMA_SEND_PAYLOAD") {
          size_t run = 0;
          int64_t bytes = 0;
          while (i + run < end &&
                 t_.ArgString(tasks[i + run].slice, ArgKey::kRdmaType).value_or("") ==
                     "RDMA_SEND_PAYLOAD") {
            base::AddSaturating(bytes,
                                t_.ArgInt(tasks[i + run].slice, ArgKey::kSizeBytes).value_or(0));
            ++run;
          }
          const size_t closing = i + run + rdma_closing - 2;
          if (closing >= end) {  // the run is not closed inside this op
            i += run;
            continue;
          }
          const std::string transport(t_.ArgString(s, ArgKey::kTransportType).value_or("RDMA"));
          Transfer tr{transport, bytes, t_.slices.ts_ns[s], t_.slices.end_ns(tasks[closing].slice)};
          AddTransfer(&by_key, tr);
          plane_transfers.push_back(tr);
          i += run + rdma_closing - 1;
          continue;
        }
        if (auto tr = SimpleTransfer(s)) {
          AddTransfer(&by_key, *tr);
          plane_transfers.push_back(*tr);
        }
        ++i;
      }
      begin = end;
    }
    op_->transports = Ordered(std::move(by_key));
    TimeInfo(tasks, transfers_by_plane);
    for (const PlaneTask& p : tasks) {
      const int64_t dur = t_.slices.dur_ns[p.slice];
      if (dur <= op_->longest_task_ns) continue;
      op_->longest_task = std::string(t_.slice_name(p.slice));
      op_->longest_task_plane = p.plane;
      op_->longest_task_ns = dur;
    }
  }

 private:
  // An SDMA copy over a link, or (traces without rdma types) one RDMA task.
  std::optional<Transfer> SimpleTransfer(SliceId s) const {
    const std::string_view name = t_.slice_name(s);
    const std::string_view transport = t_.ArgString(s, ArgKey::kTransportType).value_or("");
    const std::string_view link = t_.ArgString(s, ArgKey::kLinkType).value_or("");
    const int64_t bytes = t_.ArgInt(s, ArgKey::kSizeBytes).value_or(0);
    const Transfer base{"", bytes, t_.slices.ts_ns[s], t_.slices.end_ns(s)};
    if ((name == "Memcpy" || name == "Reduce_Inline") && transport == "SDMA" && link != "ON_CHIP" &&
        !link.empty()) {
      Transfer t = base;
      t.key = SdmaKey(link);
      return t;
    }
    if (transport == "RDMA" && bytes > 0 && !t_.ArgString(s, ArgKey::kRdmaType)) {
      Transfer t = base;
      t.key = "RDMA";
      return t;
    }
    return std::nullopt;
  }

  void TimeInfo(const std::vector<PlaneTask>& tasks,
                const std::map<int64_t, std::vector<Transfer>>& transfers_by_plane) {
    if (tasks.empty()) return;
    int64_t master = tasks.front().plane;
    for (const auto& [plane, transfers] : transfers_by_plane) {
      if (!transfers.empty()) {
        master = plane;
        break;
      }
    }
    int64_t transit = 0;
    int64_t first_transit = INT64_MAX;
    auto it = transfers_by_plane.find(master);
    if (it != transfers_by_plane.end()) {
      for (const Transfer& tr : it->second) {
        base::AddSaturating(transit, tr.end_ns - tr.start_ns);
        first_transit = std::min(first_transit, tr.start_ns);
      }
    }
    int64_t wait = 0;
    int64_t sync = 0;
    for (const PlaneTask& p : tasks) {
      if (p.plane != master) continue;
      const std::string_view name = t_.slice_name(p.slice);
      if (name != "Notify_Wait" && name != "Notify Wait") continue;
      base::AddSaturating(wait, t_.slices.dur_ns[p.slice]);
      if (t_.slices.ts_ns[p.slice] < first_transit)
        base::AddSaturating(sync, t_.slices.dur_ns[p.slice]);
    }
    op_->transit_ns = transit;
    op_->wait_ns = wait;
    op_->synchronization_ns = sync;
    op_->idle_ns = op_->dur_ns - transit - wait;
    if (wait + transit > 0) {
      op_->wait_ratio = static_cast<double>(wait) / static_cast<double>(wait + transit);
    }
    if (sync + transit > 0) {
      op_->synchronization_ratio = static_cast<double>(sync) / static_cast<double>(sync + transit);
    }
  }

  const model::Trace& t_;
  CollectiveStats* op_;
};

// Kineto record_param_comms args, on the kernel itself or on an op above the
// runtime call that launched it.
// `found` remembers the answer for every slice a walk passed (-1: none
// above it), so each slice is walked over once: a walk per kernel was
// kernels x depth (#17).
std::optional<SliceId> CommArgsSlice(const model::Trace& trace, SliceId kernel,
                                     const std::unordered_map<SliceId, SliceId>& launcher,
                                     std::unordered_map<SliceId, int64_t>* found) {
  auto has_args = [&](SliceId id) {
    return trace.ArgInt(id, ArgKey::kInMsgNelems) || trace.ArgInt(id, ArgKey::kOutMsgNelems);
  };
  if (has_args(kernel)) return kernel;
  auto it = launcher.find(kernel);
  if (it == launcher.end()) return std::nullopt;
  std::vector<SliceId> path;
  int64_t result = -1;
  for (int64_t s = it->second; s >= 0; s = trace.slices.parent[static_cast<SliceId>(s)]) {
    const auto id = static_cast<SliceId>(s);
    if (auto known = found->find(id); known != found->end()) {
      result = known->second;
      break;
    }
    if (has_args(id)) {
      result = s;
      break;
    }
    path.push_back(id);
  }
  for (SliceId id : path) found->emplace(id, result);
  if (result < 0) return std::nullopt;
  return static_cast<SliceId>(result);
}

// Per transport over the collectives (only those in the window when asked),
// as communication.json's "Total Op Info" sums them.
std::vector<TransportTransit> SumTransports(const std::vector<CollectiveStats>& collectives,
                                            bool only_in_window) {
  std::map<std::string, TransportTransit> totals;
  auto add = [&](const TransportTransit& t, bool with_sizes) {
    TransportTransit& total = totals[t.transport];
    total.transport = t.transport;
    base::AddSaturating(total.transit_bytes, t.transit_bytes);
    base::AddSaturating(total.transit_ns, t.transit_ns);
    total.transfers += t.transfers;
    total.large_transfers += t.large_transfers;
    if (!with_sizes) return;
    for (const PacketSize& p : t.size_distribution) {
      auto it = std::find_if(total.size_distribution.begin(), total.size_distribution.end(),
                             [&](const PacketSize& q) { return q.bytes == p.bytes; });
      if (it == total.size_distribution.end()) {
        total.size_distribution.push_back(p);
      } else {
        it->count += p.count;
        base::AddSaturating(it->transit_ns, p.transit_ns);
      }
    }
  };
  for (const CollectiveStats& c : collectives) {
    if (only_in_window && !c.in_window) continue;
    for (const TransportTransit& t : c.transports) {
      if (t.transport != "SDMA") add(t, true);  // SDMA is recomputed from the others
    }
    // Transfers over other SDMA links (neither HCCS, PCIE nor SIO).
    const TransportTransit other = OtherSdmaLinks(c.transports);
    if (other.transfers > 0) add(other, false);
  }
  return Ordered(std::move(totals));
}

}  // namespace

double BusBandwidthFactor(CollectiveType type, int64_t n) {
  if (n < 1) return 0;
  const double d = static_cast<double>(n);
  switch (type) {
    case CollectiveType::kAllReduce:
      return 2 * (d - 1) / d;
    case CollectiveType::kAllGather:
    case CollectiveType::kReduceScatter:
    case CollectiveType::kAllToAll:
      return (d - 1) / d;
    case CollectiveType::kUnknown:
      return 0;
    default:
      return 1;
  }
}

std::string_view CollectiveTypeName(CollectiveType type) {
  switch (type) {
    case CollectiveType::kUnknown:
      return "unknown";
    case CollectiveType::kAllReduce:
      return "allreduce";
    case CollectiveType::kAllGather:
      return "allgather";
    case CollectiveType::kReduceScatter:
      return "reducescatter";
    case CollectiveType::kAllToAll:
      return "alltoall";
    case CollectiveType::kBroadcast:
      return "broadcast";
    case CollectiveType::kReduce:
      return "reduce";
    case CollectiveType::kSend:
      return "send";
    case CollectiveType::kReceive:
      return "receive";
    case CollectiveType::kBatchSendRecv:
      return "batchsendrecv";
    case CollectiveType::kScatter:
      return "scatter";
  }
  return "unknown";
}

CollectiveType ParseCollectiveType(std::string_view name) {
  const std::string n = Canonical(name);
  // Longest names first: "allreduce" and "reducescatter" both hold "reduce".
  if (Has(n, "allreduce")) return CollectiveType::kAllReduce;
  if (Has(n, "reducescatter")) return CollectiveType::kReduceScatter;
  if (Has(n, "allgather")) return CollectiveType::kAllGather;
  if (Has(n, "alltoall")) return CollectiveType::kAllToAll;
  if (Has(n, "batchsendrecv")) return CollectiveType::kBatchSendRecv;
  if (Has(n, "broadcast")) return CollectiveType::kBroadcast;
  if (Has(n, "scatter")) return CollectiveType::kScatter;
  if (Has(n, "send")) return CollectiveType::kSend;
  if (Has(n, "recv") || Has(n, "receive")) return CollectiveType::kReceive;
  if (Has(n, "reduce")) return CollectiveType::kReduce;
  return CollectiveType::kUnknown;
}

bool IsPointToPoint(CollectiveType type) {
  return type == CollectiveType::kSend || type == CollectiveType::kReceive ||
         type == CollectiveType::kBatchSendRecv;
}

int64_t DtypeBytes(std::string_view dtype) {
  static const std::unordered_map<std::string, int64_t> kSizes = {
      {"float", 4},          {"float32", 4},        {"fp32", 4},         {"int", 4},
      {"int32", 4},          {"uint32", 4},         {"double", 8},       {"float64", 8},
      {"fp64", 8},           {"long", 8},           {"int64", 8},        {"uint64", 8},
      {"half", 2},           {"float16", 2},        {"fp16", 2},         {"bfloat16", 2},
      {"bf16", 2},           {"bfp16", 2},          {"short", 2},        {"int16", 2},
      {"uint16", 2},         {"byte", 1},           {"char", 1},         {"bool", 1},
      {"int8", 1},           {"uint8", 1},          {"hif8", 1},         {"int128", 16},
      {"complexfloat", 8},   {"complexdouble", 16}, {"float8e4m3fn", 1}, {"float8e5m2", 1},
      {"float8e4m3fnuz", 1}, {"float8e5m2fnuz", 1},
  };
  auto it = kSizes.find(Canonical(dtype));
  return it == kSizes.end() ? 0 : it->second;
}

namespace {

// The collectives of one bucket (same pid, one kind of group) in start
// order, with a max tree over their ends: the latest-starting one holding a
// time is a binary search for the last start at or before it, then a descent
// to the rightmost end at or after it, O(log n). Looking back from the time
// over every earlier collective was tasks x collectives once one collective
// spanned the profile (#17).
class LatestHolding {
 public:
  // Collectives in increasing index (= start) order.
  void Add(size_t k, int64_t start_ns, int64_t end_ns) {
    index_.push_back(k);
    start_.push_back(start_ns);
    end_.push_back(end_ns);
  }

  void Build() {
    leaves_ = 1;
    while (leaves_ < end_.size()) leaves_ *= 2;
    max_end_.assign(2 * leaves_, std::numeric_limits<int64_t>::min());
    std::copy(end_.begin(), end_.end(), max_end_.begin() + static_cast<std::ptrdiff_t>(leaves_));
    for (size_t node = leaves_ - 1; node >= 1; --node) {
      max_end_[node] = std::max(max_end_[2 * node], max_end_[2 * node + 1]);
    }
  }

  // The largest index k with start <= t <= end, or -1.
  int64_t Find(int64_t t_ns) const {
    const auto last = std::upper_bound(start_.begin(), start_.end(), t_ns) - start_.begin();
    if (last == 0) return -1;
    const int64_t at = Rightmost(1, 0, leaves_ - 1, static_cast<size_t>(last - 1), t_ns);
    return at < 0 ? -1 : static_cast<int64_t>(index_[static_cast<size_t>(at)]);
  }

 private:
  // The rightmost leaf of `node` (covering [lo, hi]) at or before `last`
  // whose end is at or after t.
  int64_t Rightmost(size_t node, size_t lo, size_t hi, size_t last, int64_t t_ns) const {
    if (lo > last || max_end_[node] < t_ns) return -1;
    if (lo == hi) return static_cast<int64_t>(lo);
    const size_t mid = lo + (hi - lo) / 2;
    const int64_t right = Rightmost(2 * node + 1, mid + 1, hi, last, t_ns);
    return right >= 0 ? right : Rightmost(2 * node, lo, mid, last, t_ns);
  }

  std::vector<size_t> index_;
  std::vector<int64_t> start_, end_;
  std::vector<int64_t> max_end_;  // the tree: node 1 the root, leaves from leaves_
  size_t leaves_ = 1;
};

// `collectives` sorted by start. For each plane task, the latest-starting
// collective with start <= task end <= its end, on the same pid, whose group
// matches the task's (either one without a group matches any).
std::vector<FiledTask> FileCollectiveTasks(const model::Trace& trace,
                                           const std::vector<CollectiveStats>& collectives) {
  std::vector<FiledTask> out;
  const model::SliceTable& s = trace.slices;
  bool have_comm_ops = false;
  for (const model::Track& t : trace.tracks) have_comm_ops |= t.kind == TrackKind::kCommOps;
  if (!have_comm_ops) return out;
  // Buckets by pid: every collective of it (for tasks without a group), and
  // by group (for tasks with one: their group's and the group-less).
  struct PidBuckets {
    LatestHolding all, no_group;
    std::map<int64_t, LatestHolding> by_group;
  };
  std::unordered_map<model::RawId, PidBuckets, model::RawIdHash> buckets;
  for (size_t k = 0; k < collectives.size(); ++k) {
    const model::Track& op_track = trace.tracks[collectives[k].track];
    int64_t group = -1;
    int64_t plane = -1;
    ParsePlaneName(trace.str(op_track.thread_name), &group, &plane);
    const int64_t start = collectives[k].start_ns;
    const int64_t end = collectives[k].start_ns + collectives[k].dur_ns;
    PidBuckets& b = buckets[op_track.pid];
    b.all.Add(k, start, end);
    (group >= 0 ? b.by_group[group] : b.no_group).Add(k, start, end);
  }
  for (auto& [pid, b] : buckets) {
    b.all.Build();
    b.no_group.Build();
    for (auto& [group, g] : b.by_group) g.Build();
  }
  for (model::TrackId t = 0; t < trace.tracks.size(); ++t) {
    const model::Track& track = trace.tracks[t];
    if (track.kind != TrackKind::kCommTasks) continue;
    int64_t group = -1;
    int64_t plane = -1;
    ParsePlaneName(trace.str(track.thread_name), &group, &plane);
    if (plane < 0) plane = t;
    const auto pid = buckets.find(track.pid);
    if (pid == buckets.end()) continue;
    const PidBuckets& b = pid->second;
    const LatestHolding* same_group = nullptr;
    if (group >= 0) {
      auto it = b.by_group.find(group);
      if (it != b.by_group.end()) same_group = &it->second;
    }
    for (SliceId i = track.slice_begin; i < track.slice_end; ++i) {
      if (s.kind[i] != EventKind::kCollectiveTask) continue;
      const int64_t end = s.end_ns(i);
      int64_t k = -1;
      if (group < 0) {
        k = b.all.Find(end);
      } else {
        k = b.no_group.Find(end);
        if (same_group != nullptr) k = std::max(k, same_group->Find(end));
      }
      if (k >= 0) out.push_back({i, plane, static_cast<size_t>(k)});
    }
  }
  return out;
}

}  // namespace

CollectiveSummary AnalyzeCollectives(const model::Trace& trace, const StepTimeline* timeline,
                                     const IntervalSet* window) {
  CollectiveSummary out;
  const model::SliceTable& s = trace.slices;
  bool have_comm_ops = false;
  for (const model::Track& t : trace.tracks) have_comm_ops |= t.kind == TrackKind::kCommOps;

  auto is_collective = [&](SliceId i) {
    if (s.kind[i] != EventKind::kCollective || !OnDevice(trace, i)) return false;
    return !have_comm_ops || trace.tracks[s.track[i]].kind == TrackKind::kCommOps;
  };
  // The launching host call of each collective kernel without Kineto's
  // comm args on it (only those: a map of every launch would cost a node
  // per kernel on large traces).
  std::unordered_map<SliceId, SliceId> launcher;  // device slice -> launching host call
  for (SliceId i = 0; i < s.size(); ++i) {
    if (is_collective(i) && !trace.ArgInt(i, ArgKey::kInMsgNelems) &&
        !trace.ArgInt(i, ArgKey::kOutMsgNelems) && !have_comm_ops) {
      launcher.emplace(i, i);  // placeholder until a launch flow names the caller
    }
  }
  if (!launcher.empty()) {
    for (size_t k = 0; k < trace.flows.size(); ++k) {
      if (trace.flows.kind[k] != model::FlowKind::kLaunch) continue;
      auto it = launcher.find(trace.flows.to[k]);
      if (it != launcher.end()) it->second = trace.flows.from[k];
    }
    std::erase_if(launcher, [](const auto& kv) { return kv.first == kv.second; });
  }

  std::unordered_map<SliceId, int64_t> comm_args_found;  // CommArgsSlice's memo
  std::optional<StepIndex> step_index;
  if (timeline != nullptr) step_index.emplace(timeline->steps);
  for (SliceId i = 0; i < s.size(); ++i) {
    if (!is_collective(i)) continue;
    CollectiveStats c;
    c.slice = i;
    c.track = s.track[i];
    c.name = std::string(trace.slice_name(i));
    c.start_ns = s.ts_ns[i];
    c.dur_ns = s.dur_ns[i];
    const auto args = CommArgsSlice(trace, i, launcher, &comm_args_found);
    const SliceId a = args.value_or(i);
    const auto collective_name = trace.ArgString(a, ArgKey::kCollectiveName);
    c.type = ParseCollectiveType(collective_name ? *collective_name : c.name);
    if (args) {
      const int64_t nelems = std::max(trace.ArgInt(a, ArgKey::kInMsgNelems).value_or(0),
                                      trace.ArgInt(a, ArgKey::kOutMsgNelems).value_or(0));
      const int64_t size = DtypeBytes(trace.ArgString(a, ArgKey::kDtype).value_or(""));
      if (nelems > 0 && size > 0) c.message_bytes = base::SaturatingMul(nelems, size);
      c.group_size = trace.ArgInt(a, ArgKey::kGroupSize).value_or(-1);
    } else {
      const auto count = trace.ArgInt(i, ArgKey::kElementCount);
      const int64_t size = DtypeBytes(trace.ArgString(i, ArgKey::kDataType).value_or(""));
      if (count && *count > 0 && size > 0) c.message_bytes = base::SaturatingMul(*count, size);
    }
    if (c.message_bytes > 0 && c.dur_ns > 0) {
      c.algbw_gbps = static_cast<double>(c.message_bytes) / static_cast<double>(c.dur_ns);
      const double factor = BusBandwidthFactor(c.type, c.group_size);
      if (factor > 0) c.busbw_gbps = *c.algbw_gbps * factor;
    }
    // A binary search: a loop over the steps per collective was
    // collectives x steps (#17).
    if (step_index) {
      const int64_t k = step_index->StepOf(c.start_ns);
      if (k >= 0) c.step_id = timeline->steps[static_cast<size_t>(k)].id;
    }
    out.collectives.push_back(std::move(c));
  }
  std::stable_sort(
      out.collectives.begin(), out.collectives.end(),
      [](const CollectiveStats& a, const CollectiveStats& b) { return a.start_ns < b.start_ns; });

  std::vector<std::vector<PlaneTask>> tasks_of(out.collectives.size());
  out.filed_tasks = FileCollectiveTasks(trace, out.collectives);
  for (const FiledTask& t : out.filed_tasks) tasks_of[t.collective].push_back({t.plane, t.slice});
  for (size_t k = 0; k < out.collectives.size(); ++k) {
    if (tasks_of[k].empty()) continue;
    AscendCollectiveParser(trace, &out.collectives[k]).Run(std::move(tasks_of[k]));
  }
  if (window != nullptr) {
    for (CollectiveStats& c : out.collectives) c.in_window = window->Contains(c.start_ns);
  }
  out.totals = SumTransports(out.collectives, false);
  out.window_totals = SumTransports(out.collectives, true);
  CommTimeSplit& w = out.window_time;
  for (size_t k = 0; k < out.collectives.size(); ++k) {
    const CollectiveStats& c = out.collectives[k];
    if (!c.in_window) continue;
    if (c.transit_ns < 0) {
      ++w.without_tasks;
      continue;
    }
    ++w.collectives;
    base::AddSaturating(w.elapse_ns, c.dur_ns);
    base::AddSaturating(w.transit_ns, c.transit_ns);
    base::AddSaturating(w.wait_ns, c.wait_ns);
    base::AddSaturating(w.idle_ns, c.idle_ns);
    if (w.longest_task_collective < 0 ||
        c.longest_task_ns >
            out.collectives[static_cast<size_t>(w.longest_task_collective)].longest_task_ns) {
      w.longest_task_collective = static_cast<int64_t>(k);
    }
  }
  std::map<CollectiveType, CollectiveTypeTotal> by_type;
  for (const CollectiveStats& c : out.collectives) {
    CollectiveTypeTotal& t = by_type[c.type];
    t.type = c.type;
    ++t.count;
    if (c.in_window) ++t.in_window;
    base::AddSaturating(t.total_ns, c.dur_ns);
    if (c.message_bytes >= 0) {
      base::AddSaturating(t.message_bytes, c.message_bytes);
      ++t.sized;
    }
  }
  for (const auto& [type, t] : by_type) out.by_type.push_back(t);
  std::stable_sort(out.by_type.begin(), out.by_type.end(),
                   [](const CollectiveTypeTotal& a, const CollectiveTypeTotal& b) {
                     return a.total_ns > b.total_ns;
                   });
  return out;
}

TransportTransit OtherSdmaLinks(const std::vector<TransportTransit>& transports) {
  TransportTransit other;
  other.transport = "SDMA";
  auto find = [&](std::string_view key) -> const TransportTransit* {
    for (const TransportTransit& t : transports) {
      if (t.transport == key) return &t;
    }
    return nullptr;
  };
  const TransportTransit* sdma = find("SDMA");
  if (sdma == nullptr) return other;
  other.transit_bytes = sdma->transit_bytes;
  other.transit_ns = sdma->transit_ns;
  other.transfers = sdma->transfers;
  other.large_transfers = sdma->large_transfers;
  for (std::string_view key : {"HCCS", "PCIE", "SIO"}) {
    if (const TransportTransit* t = find(key)) {
      other.transit_bytes -= t->transit_bytes;
      other.transit_ns -= t->transit_ns;
      other.transfers -= t->transfers;
      other.large_transfers -= t->large_transfers;
    }
  }
  return other;
}

}  // namespace perfdx::analysis
