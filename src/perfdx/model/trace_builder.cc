#include "perfdx/model/trace_builder.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstring>
#include <iterator>
#include <memory>
#include <numeric>
#include <optional>
#include <string>
#include <tuple>
#include <utility>

#include "perfdx/base/hash.h"
#include "perfdx/base/run_beside.h"
#include "perfdx/base/sort.h"
#include "perfdx/model/slice_cursor.h"

namespace perfdx::model {
namespace {

constexpr size_t kMaxArgsPerSlice = 255;
// Profilers that write whole microseconds (torch's legacy exporter) round a
// child's end past its parent's; up to this much is rounding, not overlap.
constexpr int64_t kNestingToleranceNs = 1000;
constexpr size_t kMaxCategoriesPerTrack = 16;

uint64_t HashRawId(const RawId& id) {
  return RawIdHash()(id);
}

// Reads column[order[i]] as it steps through `order`: a forward iterator, so
// vector::assign sizes its block once from the distance and copies, without
// the zero fill of resize or the capacity check of push_back. Hand-written,
// not std::views::transform: Clang 14 cannot instantiate libstdc++ 12's
// ranges.
template <typename T>
class GatherIterator {
 public:
  using iterator_category = std::forward_iterator_tag;
  using value_type = T;
  using difference_type = std::ptrdiff_t;
  using pointer = const T*;
  using reference = const T&;

  GatherIterator() = default;
  GatherIterator(const T* column, const uint32_t* at) : column_(column), at_(at) {}
  reference operator*() const { return column_[*at_]; }
  pointer operator->() const { return &column_[*at_]; }
  GatherIterator& operator++() {
    ++at_;
    return *this;
  }
  GatherIterator operator++(int) {
    GatherIterator before = *this;
    ++at_;
    return before;
  }
  bool operator==(const GatherIterator& other) const { return at_ == other.at_; }

 private:
  const T* column_ = nullptr;
  const uint32_t* at_ = nullptr;
};

// column[i] = column[order[i]] by a gather into `scratch` and a swap: the
// column's old block becomes the scratch of the next column of its type, so
// a table is permuted with one new block per element type, not per column.
// The gather is assigned, not written into a resized block: resize zeroed a
// fresh block first (ResNet-50: 1.1 MB of stores nobody read).
template <typename T>
void Permute(std::vector<T>& column, const std::vector<uint32_t>& order, std::vector<T>& scratch) {
  const uint32_t* at = order.data();
  scratch.assign(GatherIterator<T>(column.data(), at),
                 GatherIterator<T>(column.data(), at + order.size()));
  column.swap(scratch);
}

template <typename T>
void Permute(std::vector<T>& column, const std::vector<uint32_t>& order) {
  std::vector<T> scratch;
  Permute(column, order, scratch);
}

// end - start, clamped to [0, INT64_MAX] (hostile timestamps must not overflow).
int64_t DurationBetween(int64_t start, int64_t end) {
  int64_t d = 0;
  if (__builtin_sub_overflow(end, start, &d)) return end > start ? INT64_MAX : 0;
  return std::max<int64_t>(d, 0);
}

// The phases AddEvent turns into slices, counters, flows or async slices. A
// loop the compiler unrolls: string_view::find here was a memchr call per
// event.
bool IsModelledPhase(char ph) {
  constexpr std::string_view kModelled = "XBEiIRCstfbenSF";
  for (char c : kModelled) {
    if (c == ph) return true;
  }
  return false;
}

// Phases of the trace event format that perfdx reads but does not model.
bool IsIgnoredKnownPhase(char ph) {
  switch (ph) {
    case 'P':  // samples
    case 'O':  // object snapshot
    case 'N':  // object created
    case 'D':  // object destroyed
    case 'T':  // legacy async step
    case 'p':  // legacy async step past
    case '(':  // context enter
    case ')':  // context leave
    case 'c':  // clock sync
    case 'V':  // memory dump (global)
    case 'v':  // memory dump (process)
    case 'L':  // mark (legacy)
      return true;
    default:
      return false;
  }
}

}  // namespace

void RawEvent::HashStrings() {
  if (StringPool::HashAheadPays(name)) name_hash = StringPool::Hash(name);
  if (StringPool::HashAheadPays(category)) category_hash = StringPool::Hash(category);
  for (RawArg& arg : Args()) {
    if (arg.type == ArgType::kString && StringPool::HashAheadPays(arg.string_value)) {
      arg.string_hash = StringPool::Hash(arg.string_value);
    }
  }
  for (RawIdView* raw_id : {&pid, &tid, &id}) {
    if (!raw_id->is_text || !StringPool::HashAheadPays(raw_id->text)) continue;
    raw_id->text_hash = StringPool::Hash(raw_id->text);
    raw_id->text_hashed = true;
  }
  strings_hashed = true;
}

size_t TraceBuilder::TrackKeyHash::operator()(const TrackKey& k) const {
  return HashMix(HashRawId(k.pid) ^ (HashRawId(k.tid) * 3) ^ (uint64_t{k.space} << 40));
}
size_t TraceBuilder::AsyncKeyHash::operator()(const AsyncKey& k) const {
  return HashMix(HashRawId(k.pid) ^ (HashRawId(k.id) * 3) ^ (uint64_t{k.category} << 20) ^
                 (uint64_t{k.name} << 42));
}
size_t TraceBuilder::ThreadKeyHash::operator()(const std::pair<RawId, RawId>& k) const {
  return HashMix(HashRawId(k.first) ^ (HashRawId(k.second) * 3));
}

TraceBuilder::TraceBuilder(RankInfo info) {
  trace_.info = std::move(info);
  async_space_ = trace_.strings.Intern(
      "\x01"
      "async");
}

// Inlined: nearly every pid and tid is a number, and the call around those
// few stores cost more than they did (ResNet-50: 40 instructions an id).
[[gnu::always_inline]] inline RawId TraceBuilder::Intern(const RawIdView& id) {
  RawId out;
  if (!id.present) return out;
  if (!id.is_text) {
    out.number = id.number;
    return out;
  }
  return InternText(id);
}

RawId TraceBuilder::InternText(const RawIdView& id) {
  RawId out;
  out.is_text = true;
  out.text = id.text_hashed ? trace_.strings.Intern(id.text, id.text_hash)
                            : trace_.strings.Intern(id.text);
  return out;
}

// Inlined into its few callers: a name or category is found by the pool's
// short-string slot or its hash, a few instructions beside the call's own.
[[gnu::always_inline]] inline StringId TraceBuilder::InternHashedAhead(const RawEvent& event,
                                                                       std::string_view s,
                                                                       uint64_t hash) {
  return event.strings_hashed && StringPool::HashAheadPays(s) ? trace_.strings.Intern(s, hash)
                                                              : trace_.strings.Intern(s);
}

StringId TraceBuilder::InternName(const RawEvent& event) {
  return InternHashedAhead(event, event.name, event.name_hash);
}

StringId TraceBuilder::InternCategory(const RawEvent& event) {
  return InternHashedAhead(event, event.category, event.category_hash);
}

StringId TraceBuilder::InternArgString(const RawEvent& event, const RawArg& arg) {
  return InternHashedAhead(event, arg.string_value, arg.string_hash);
}

TrackId TraceBuilder::GetTrack(const RawId& pid, const RawId& tid, StringId space) {
  TrackKey key{pid, tid, space};
  for (size_t i = 0; i < kRecentTracks; ++i) {
    if (recent_tracks_[i] != UINT32_MAX && recent_keys_[i] == key) return recent_tracks_[i];
  }
  auto [it, inserted] = track_ids_.try_emplace(key, static_cast<TrackId>(trace_.tracks.size()));
  if (inserted) {
    Track track;
    track.pid = pid;
    track.tid = tid;
    trace_.tracks.push_back(track);
    open_begins_.emplace_back();
  }
  // Oldest out.
  std::copy_backward(recent_keys_.begin(), recent_keys_.end() - 1, recent_keys_.end());
  std::copy_backward(recent_tracks_.begin(), recent_tracks_.end() - 1, recent_tracks_.end());
  recent_keys_[0] = key;
  recent_tracks_[0] = it->second;
  return it->second;
}

namespace {

// Only phases of the format get their own bucket: bad input must not grow
// RawCounts::by_phase without bound.
constexpr std::string_view kKnownPhases = "XBEiIRCMstfbenPONDTp()cVvLSF";
// Buckets of phase_counts_ that are not phase letters.
constexpr uint8_t kMissingPhaseBucket = 0;
constexpr uint8_t kUnknownPhaseBucket = 1;

struct PhaseBuckets {
  std::array<uint8_t, 256> bucket{};
  constexpr PhaseBuckets() {
    bucket.fill(kUnknownPhaseBucket);
    for (char c : kKnownPhases) bucket[static_cast<uint8_t>(c)] = static_cast<uint8_t>(c);
  }
};
constexpr PhaseBuckets kPhaseBuckets;

}  // namespace

void TraceBuilder::CountPhase(std::string_view phase) {
  // Counted in an array, not the map: this runs for every event.
  uint8_t bucket = kUnknownPhaseBucket;
  if (phase.empty()) {
    bucket = kMissingPhaseBucket;
  } else if (phase.size() == 1) {
    bucket = kPhaseBuckets.bucket[static_cast<uint8_t>(phase[0])];
  }
  ++phase_counts_[bucket];
}

void TraceBuilder::FlushPhaseCounts() {
  for (size_t b = 0; b < phase_counts_.size(); ++b) {
    if (phase_counts_[b] == 0) continue;
    std::string key = b == kMissingPhaseBucket   ? "missing"
                      : b == kUnknownPhaseBucket ? "unknown"
                                                 : std::string(1, static_cast<char>(b));
    trace_.raw.by_phase[key] += phase_counts_[b];
    phase_counts_[b] = 0;
  }
}

void TraceBuilder::AddBadEvent(LoadStat why) {
  ++trace_.raw.events;
  trace_.load_stats.Add(why);
}

// Flattened: GCC left each column's push_back a call, a fifth of the cost of
// adding a slice.
[[gnu::flatten]] uint32_t TraceBuilder::AppendSlice(TrackId track, int64_t ts, int64_t dur,
                                                    StringId name, StringId cat, uint8_t flags,
                                                    const RawEvent& event) {
  SliceTable& s = trace_.slices;
  const auto index = static_cast<uint32_t>(s.ts_ns.size());
  s.ts_ns.push_back(ts);
  s.dur_ns.push_back(dur);
  s.track.push_back(track);
  s.name.push_back(name);
  s.category.push_back(cat);
  s.flags.push_back(flags);
  int64_t correlation = kNoCorrelation;
  int64_t external_id = kNoCorrelation;
  const auto args_begin = static_cast<uint32_t>(trace_.args.key.size());
  size_t count = 0;
  for (const RawArg& arg : event.Args()) {
    switch (arg.key) {
      case ArgKey::kCorrelation:
      case ArgKey::kConnectionId:
        if (arg.type == ArgType::kInt) correlation = arg.int_value;
        continue;
      case ArgKey::kExternalId:
        if (arg.type == ArgType::kInt) external_id = arg.int_value;
        continue;
      default:
        break;
    }
    if (count == kMaxArgsPerSlice) break;
    trace_.args.key.push_back(arg.key);
    trace_.args.type.push_back(arg.type);
    switch (arg.type) {
      case ArgType::kInt:
        trace_.args.bits.push_back(arg.int_value);
        break;
      case ArgType::kDouble:
        trace_.args.bits.push_back(std::bit_cast<int64_t>(arg.double_value));
        break;
      case ArgType::kString:
        trace_.args.bits.push_back(InternArgString(event, arg));
        break;
    }
    ++count;
  }
  s.correlation.push_back(correlation);
  s.external_id.push_back(external_id);
  s.args_begin.push_back(args_begin);
  s.args_count.push_back(static_cast<uint8_t>(count));
  max_ts_ns_ = std::max(max_ts_ns_, ts + std::max<int64_t>(dur, 0));
  last_slice_ = index;
  return index;
}

void TraceBuilder::ReserveEvents(size_t events) {
  SliceTable& s = trace_.slices;
  s.ts_ns.reserve(events);
  s.dur_ns.reserve(events);
  s.track.reserve(events);
  s.name.reserve(events);
  s.category.reserve(events);
  s.flags.reserve(events);
  s.correlation.reserve(events);
  s.external_id.reserve(events);
  s.args_begin.reserve(events);
  s.args_count.reserve(events);
  // Kineto's events carry 2 to 3 of the args perfdx keeps.
  const size_t args = events * 3;
  trace_.args.key.reserve(args);
  trace_.args.type.reserve(args);
  trace_.args.bits.reserve(args);
  // Kineto writes a flow record ('s' or 'f') for about a third of its events
  // (HTA's control trace: 34 k of 109 k). Grown by doubling, each step was a
  // fresh block faulted in and the records copied (1 GB trace: 12 k page
  // faults on the loading thread); pages never reached cost address space.
  // Kineto's are nearly all restatements of a correlation; other formats'
  // are kept as they are.
  raw_flows_.reserve(events / 3);
  restated_flows_.reserve(events / 3);
  reserved_events_ = events;
}

void TraceBuilder::AddEvent(const RawEvent& event) {
  ++trace_.raw.events;
  CountPhase(event.phase);
  if (event.phase.empty()) {
    trace_.load_stats.Add(LoadStat::kEventMissingPhase);
    return;
  }
  const char ph = event.phase.size() == 1 ? event.phase[0] : '\0';
  const RawId pid = Intern(event.pid);
  const RawId tid = event.tid.present ? Intern(event.tid) : pid;

  if (ph == 'M') {
    AddMetadata(event, pid, tid);
    return;
  }
  if (ph == '\0') {
    trace_.load_stats.Add(LoadStat::kEventUnknownPhase);
    return;
  }
  if (IsIgnoredKnownPhase(ph)) return;
  if (!IsModelledPhase(ph)) {
    trace_.load_stats.Add(LoadStat::kEventUnknownPhase);
    return;
  }
  if (event.ts_state != FieldState::kOk) {
    trace_.load_stats.Add(event.ts_state == FieldState::kMissing ? LoadStat::kEventMissingTs
                                                                 : LoadStat::kEventInvalidTs);
    return;
  }
  const int64_t ts = event.ts_ns;
  if (ts < kMinTimestampNs || ts > kMaxTimestampNs) {
    trace_.load_stats.Add(LoadStat::kEventTsOutOfRange);
    return;
  }

  switch (ph) {
    case 'X': {
      if (event.dur_state != FieldState::kOk) {
        trace_.load_stats.Add(LoadStat::kEventInvalidDur);
        return;
      }
      if (event.dur_ns < 0) {
        trace_.load_stats.Add(LoadStat::kEventNegativeDur);
        return;
      }
      if (event.dur_ns > kMaxDurationNs) {
        trace_.load_stats.Add(LoadStat::kEventInvalidDur);
        return;
      }
      const TrackId track = GetTrack(pid, tid, kEmptyString);
      AppendSlice(track, ts, event.dur_ns, InternName(event), InternCategory(event), 0, event);
      return;
    }
    case 'B': {
      const TrackId track = GetTrack(pid, tid, kEmptyString);
      const uint32_t index = AppendSlice(track, ts, 0, InternName(event), InternCategory(event),
                                         kSliceFromBeginEnd, event);
      open_begins_[track].push_back(index);
      return;
    }
    case 'E': {
      const TrackId track = GetTrack(pid, tid, kEmptyString);
      auto& open = open_begins_[track];
      if (open.empty()) {
        trace_.load_stats.Add(LoadStat::kEndWithoutBegin);
        return;
      }
      const uint32_t index = open.back();
      open.pop_back();
      trace_.slices.dur_ns[index] = DurationBetween(trace_.slices.ts_ns[index], ts);
      max_ts_ns_ = std::max(max_ts_ns_, ts);
      return;
    }
    case 'i':
    case 'I':
    case 'R': {
      if (event.is_memory_event) {
        AddMemoryEvent(event);
        return;
      }
      const TrackId track = GetTrack(pid, tid, kEmptyString);
      AppendSlice(track, ts, 0, InternName(event), InternCategory(event), kSliceInstant, event);
      return;
    }
    case 'C':
      AddCounter(event, pid);
      return;
    case 's':
    case 't':
    case 'f': {
      const TrackId track = GetTrack(pid, tid, kEmptyString);
      const bool bind_enclosing = ph != 'f' || event.binding == "e";
      if (ph != 't' && bind_enclosing && TryRestateFlow(event, track, ts, ph)) return;
      RawFlow flow;
      flow.id = Intern(event.id);
      flow.category = InternCategory(event);
      flow.name = InternName(event);
      flow.ts_ns = ts;
      flow.track = track;
      flow.phase = ph;
      flow.bind_enclosing = bind_enclosing;
      if (!event.id.present) {
        trace_.load_stats.Add(LoadStat::kFlowUnmatched);
        return;
      }
      flow.ordinal = flow_records_++;
      raw_flows_.push_back(flow);
      max_ts_ns_ = std::max(max_ts_ns_, ts);
      return;
    }
    case 'b':
    case 'e':
    case 'n':
    case 'S':
    case 'F':
      AddAsync(event, pid, ph == 'S' ? 'b' : ph == 'F' ? 'e' : ph);
      return;
    default:
      trace_.load_stats.Add(LoadStat::kEventUnknownPhase);
      return;
  }
}

void TraceBuilder::AddMetadata(const RawEvent& event, const RawId& pid, const RawId& tid) {
  if (event.name == "process_name") {
    if (event.meta_name.empty()) {
      trace_.load_stats.Add(LoadStat::kMetadataInvalid);
      return;
    }
    process_names_[pid] = trace_.strings.Intern(event.meta_name);
  } else if (event.name == "process_labels") {
    process_labels_[pid] = trace_.strings.Intern(event.meta_labels);
  } else if (event.name == "thread_name") {
    if (event.meta_name.empty()) {
      trace_.load_stats.Add(LoadStat::kMetadataInvalid);
      return;
    }
    thread_names_[{pid, tid}] = trace_.strings.Intern(event.meta_name);
  }
  // Sort indices and other metadata only affect display.
}

void TraceBuilder::AddCounter(const RawEvent& event, const RawId& pid) {
  if (event.numeric_args.empty()) {
    trace_.load_stats.Add(LoadStat::kCounterInvalidValue);
    return;
  }
  std::string series;
  for (const auto& [key, value] : event.numeric_args) {
    series.assign(event.name);
    if (event.numeric_args.size() > 1) {
      series += '.';
      series += key;
    }
    RawId series_id;
    series_id.is_text = true;
    series_id.text = trace_.strings.Intern(series);
    const TrackId track = GetTrack(pid, series_id, series_id.text);
    Track& t = trace_.tracks[track];
    t.kind = TrackKind::kCounter;
    t.thread_name = series_id.text;
    trace_.counters.track.push_back(track);
    trace_.counters.ts_ns.push_back(event.ts_ns);
    trace_.counters.value.push_back(value);
  }
  max_ts_ns_ = std::max(max_ts_ns_, event.ts_ns);
}

void TraceBuilder::AddMemoryEvent(const RawEvent& event) {
  MemoryEventTable& m = trace_.memory;
  int64_t bytes = 0;
  int64_t allocated = -1;
  int64_t reserved = -1;
  int64_t device_id = -1;
  int64_t device_type = -1;
  int64_t addr = 0;
  bool out_of_range = false;
  for (const RawArg& arg : event.Args()) {
    const bool used = arg.key == ArgKey::kMemBytes || arg.key == ArgKey::kTotalAllocated ||
                      arg.key == ArgKey::kTotalReserved || arg.key == ArgKey::kDeviceId ||
                      arg.key == ArgKey::kDeviceType || arg.key == ArgKey::kAddr;
    if (!used) continue;
    int64_t v = arg.type == ArgType::kInt ? arg.int_value : 0;
    if (arg.type == ArgType::kDouble) {
      // 2^63 is the first double past int64_t; NaN fails both tests.
      constexpr double kLimit = 9223372036854775808.0;
      if (!(arg.double_value >= -kLimit && arg.double_value < kLimit)) {
        out_of_range = true;
        continue;  // the field stays "not recorded"
      }
      v = static_cast<int64_t>(arg.double_value);
    }
    switch (arg.key) {
      case ArgKey::kMemBytes:
        bytes = v;
        break;
      case ArgKey::kTotalAllocated:
        allocated = v;
        break;
      case ArgKey::kTotalReserved:
        reserved = v;
        break;
      case ArgKey::kDeviceId:
        device_id = v;
        break;
      case ArgKey::kDeviceType:
        device_type = v;
        break;
      case ArgKey::kAddr:
        addr = v;
        break;
      default:
        break;
    }
  }
  if (out_of_range) trace_.load_stats.Add(LoadStat::kMemoryValueOutOfRange);
  if (m.ts_ns.empty()) {
    // A trace recorded with profile_memory has a memory event for about
    // every sixth event (ResNet-50: 12.8 k of 75.7 k); room for a quarter
    // spares the columns' copies as they double. Reserved at the first
    // one: most traces have none.
    const size_t rows = reserved_events_ / 4;
    m.ts_ns.reserve(rows);
    m.bytes.reserve(rows);
    m.total_allocated.reserve(rows);
    m.total_reserved.reserve(rows);
    m.device_id.reserve(rows);
    m.device_type.reserve(rows);
    m.addr.reserve(rows);
  }
  m.ts_ns.push_back(event.ts_ns);
  m.bytes.push_back(bytes);
  m.total_allocated.push_back(allocated);
  m.total_reserved.push_back(reserved);
  m.device_id.push_back(static_cast<int16_t>(std::clamp<int64_t>(device_id, -1, INT16_MAX)));
  m.device_type.push_back(static_cast<int8_t>(std::clamp<int64_t>(device_type, -1, INT8_MAX)));
  m.addr.push_back(static_cast<uint64_t>(addr));
  max_ts_ns_ = std::max(max_ts_ns_, event.ts_ns);
}

void TraceBuilder::AddAsync(const RawEvent& event, const RawId& pid, char phase) {
  const StringId cat = InternCategory(event);
  RawId lane;
  lane.is_text = true;
  lane.text = cat;
  const TrackId track = GetTrack(pid, lane, async_space_);
  trace_.tracks[track].kind = TrackKind::kAsync;
  trace_.tracks[track].thread_name = cat;
  const AsyncKey key{pid, cat, kEmptyString, Intern(event.id)};
  if (phase == 'n') {
    AppendSlice(track, event.ts_ns, 0, InternName(event), cat, kSliceInstant, event);
    return;
  }
  if (phase == 'b') {
    const uint32_t index =
        AppendSlice(track, event.ts_ns, 0, InternName(event), cat, kSliceFromBeginEnd, event);
    open_async_[key].push_back(index);
    return;
  }
  auto it = open_async_.find(key);
  if (it == open_async_.end() || it->second.empty()) {
    trace_.load_stats.Add(LoadStat::kAsyncEndWithoutBegin);
    return;
  }
  const uint32_t index = it->second.back();
  it->second.pop_back();
  trace_.slices.dur_ns[index] = DurationBetween(trace_.slices.ts_ns[index], event.ts_ns);
  max_ts_ns_ = std::max(max_ts_ns_, event.ts_ns);
}

void TraceBuilder::CloseOpenSlices() {
  auto close = [this](uint32_t index) {
    trace_.slices.dur_ns[index] = DurationBetween(trace_.slices.ts_ns[index], max_ts_ns_);
    trace_.slices.flags[index] |= kSliceUnterminated;
  };
  for (auto& open : open_begins_) {
    for (uint32_t index : open) {
      close(index);
      trace_.load_stats.Add(LoadStat::kBeginWithoutEnd);
    }
    open.clear();
  }
  for (auto& [key, open] : open_async_) {
    for (uint32_t index : open) {
      close(index);
      trace_.load_stats.Add(LoadStat::kAsyncBeginWithoutEnd);
    }
  }
  open_async_.clear();
}

void TraceBuilder::ApplyMetadata() {
  for (Track& track : trace_.tracks) {
    if (auto it = process_names_.find(track.pid); it != process_names_.end()) {
      track.process_name = it->second;
    }
    if (auto it = process_labels_.find(track.pid); it != process_labels_.end()) {
      track.process_label = it->second;
    }
    if (track.kind == TrackKind::kCounter || track.kind == TrackKind::kAsync) continue;
    if (auto it = thread_names_.find({track.pid, track.tid}); it != thread_names_.end()) {
      track.thread_name = it->second;
    }
  }
}

void TraceBuilder::ClassifySlices(Classifier& classifier) {
  SliceTable& s = trace_.slices;
  s.kind.assign(s.size(), EventKind::kOther);
  for (SliceId i = 0; i < s.size(); ++i) {
    std::optional<int64_t> step_id;
    s.kind[i] = classifier.ClassifySlice(trace_, i, &step_id);
    if (s.kind[i] == EventKind::kStepMarker && step_id) step_markers_.emplace_back(i, *step_id);
  }
}

// Reads only the ts, dur and track columns: runs beside the flow sort.
TraceBuilder::SliceOrder TraceBuilder::ComputeSliceOrder() const {
  const SliceTable& s = trace_.slices;
  const size_t n = s.size();
  const size_t num_tracks = trace_.tracks.size();
  SliceOrder result;
  std::vector<uint32_t>& offset = result.track_offsets;
  std::vector<uint32_t>& order = result.order;

  // Group by track with a counting sort, then order each track by
  // (ts asc, dur desc); most tracks arrive already in order.
  offset.assign(num_tracks + 1, 0);
  for (size_t i = 0; i < n; ++i) ++offset[s.track[i] + 1];
  std::partial_sum(offset.begin(), offset.end(), offset.begin());
  order.resize(n);
  {
    std::vector<uint32_t> cursor(offset.begin(), offset.end() - 1);
    for (size_t i = 0; i < n; ++i) order[cursor[s.track[i]]++] = static_cast<uint32_t>(i);
  }
  // No duration in the key: only ties of ts read it, from its column. The
  // keys and the sort's scratch are fresh blocks of the largest track's size
  // (16 bytes a slice, not 24: 1 GB trace, 6 k page faults fewer).
  struct Key {
    int64_t ts;
    uint32_t index;
  };
  // Sized once for the largest track: grown by doubling, each step was a
  // fresh block, a copy and its pages faulted in again (1 GB trace: 12 k
  // of the load's 186 k page faults).
  size_t largest = 0;
  for (size_t t = 0; t < num_tracks; ++t)
    largest = std::max<size_t>(largest, offset[t + 1] - offset[t]);
  std::vector<Key> keys;
  keys.reserve(largest);
  for (size_t t = 0; t < num_tracks; ++t) {
    const uint32_t begin = offset[t];
    const uint32_t end = offset[t + 1];
    auto less = [&s](const Key& a, const Key& b) {
      return std::tie(a.ts, s.dur_ns[b.index], a.index) <
             std::tie(b.ts, s.dur_ns[a.index], b.index);
    };
    keys.clear();
    for (uint32_t j = begin; j < end; ++j) keys.push_back({s.ts_ns[order[j]], order[j]});
    // By ts first, then each run of equal ts by the whole key: profilers list
    // slices starting together in no particular order, and every such pair
    // would otherwise start a new run for SortByRuns.
    bool moved = base::StableSortByKey(keys, [](const Key& k) { return k.ts; });
    for (size_t j = 0; j < keys.size();) {
      size_t k = j + 1;
      while (k < keys.size() && keys[k].ts == keys[j].ts) ++k;
      if (k - j > 1 && !std::is_sorted(keys.begin() + j, keys.begin() + k, less)) {
        std::sort(keys.begin() + j, keys.begin() + k, less);
        moved = true;
      }
      j = k;
    }
    if (!moved) continue;
    for (uint32_t j = begin; j < end; ++j) order[j] = keys[j - begin].index;
  }
  return result;
}

void TraceBuilder::ApplySliceOrder(const SliceOrder& sorted) {
  SliceTable& s = trace_.slices;
  const size_t n = s.size();
  const std::vector<uint32_t>& order = sorted.order;
  for (size_t t = 0; t < trace_.tracks.size(); ++t) {
    trace_.tracks[t].slice_begin = sorted.track_offsets[t];
    trace_.tracks[t].slice_end = sorted.track_offsets[t + 1];
  }
  bool identity = true;
  for (size_t i = 0; i < n && identity; ++i) identity = order[i] == i;
  if (!identity) {
    // Two halves of about the same bytes per slice, on two threads if given.
    auto first = [&] {
      std::vector<int64_t> wide;
      std::vector<uint32_t> narrow;
      Permute(s.ts_ns, order, wide);
      Permute(s.dur_ns, order, wide);
      Permute(s.track, order, narrow);
      Permute(s.name, order, narrow);
      Permute(s.category, order, narrow);
    };
    auto second = [&] {
      std::vector<int64_t> wide;
      Permute(s.correlation, order, wide);
      Permute(s.external_id, order, wide);
      std::vector<EventKind> kinds;
      Permute(s.kind, order, kinds);
      std::vector<uint8_t> bytes;
      Permute(s.flags, order, bytes);
      Permute(s.args_count, order, bytes);
      std::vector<uint32_t> narrow;
      Permute(s.args_begin, order, narrow);
    };
    base::RunBeside(finalize_threads_ > 1 && n >= kParallelFinalizeSlices, second, first);
    auto new_index = std::make_unique_for_overwrite<uint32_t[]>(n);  // every entry written
    for (size_t i = 0; i < n; ++i) new_index[order[i]] = static_cast<uint32_t>(i);
    for (auto& [slice, id] : step_markers_) slice = new_index[slice];
    for (RestatedFlow& f : restated_flows_) f.slice = new_index[f.slice];
  }
}

void TraceBuilder::ComputeNesting() {
  SliceTable& s = trace_.slices;
  s.parent.assign(s.size(), kNoParent);
  s.depth.assign(s.size(), 0);
  std::vector<uint32_t> stack;
  for (const Track& track : trace_.tracks) {
    stack.clear();
    for (uint32_t i = track.slice_begin; i < track.slice_end; ++i) {
      const int64_t ts = s.ts_ns[i];
      // A slice ending exactly where this one starts is a sibling, not a parent.
      while (!stack.empty() && s.end_ns(stack.back()) <= ts) stack.pop_back();
      if (!stack.empty()) {
        const uint32_t top = stack.back();
        if (s.end_ns(i) > s.end_ns(top) + kNestingToleranceNs) {
          // Partial overlap: not nested. Keep it at the same level as `top`.
          trace_.load_stats.Add(LoadStat::kSliceOverlap);
          s.parent[i] = s.parent[top];
          s.depth[i] = s.depth[top];
          stack.pop_back();
          stack.push_back(i);
          continue;
        }
        s.parent[i] = static_cast<int32_t>(top);
        s.depth[i] = static_cast<uint16_t>(std::min<int>(s.depth[top] + 1, UINT16_MAX));
      }
      stack.push_back(i);
    }
  }
}

namespace {
// a == b. Flow categories and names are short: up to 16 bytes compare as
// two overlapping words, where string_view's compare was a call (45
// instructions a record).
bool SameText(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  const size_t n = a.size();
  if (n < 8 || n > 16) return a == b;
  uint64_t a0, a1, b0, b1;
  std::memcpy(&a0, a.data(), 8);
  std::memcpy(&b0, b.data(), 8);
  std::memcpy(&a1, a.data() + n - 8, 8);
  std::memcpy(&b1, b.data() + n - 8, 8);
  return ((a0 ^ b0) | (a1 ^ b1)) == 0;
}
}  // namespace

bool TraceBuilder::TryRestateFlow(const RawEvent& event, TrackId track, int64_t ts, char phase) {
  if (!restate_flows_ || last_slice_ == UINT32_MAX || !event.id.present || event.id.is_text) {
    return false;
  }
  const SliceTable& s = trace_.slices;
  const int64_t id = event.id.number;
  if (id == kNoCorrelation || s.correlation[last_slice_] != id || s.track[last_slice_] != track ||
      s.ts_ns[last_slice_] != ts) {
    return false;
  }
  if (!restated_class_set_) {
    // Interned where a kept record would have been: the pool is the same.
    restated_category_ = InternCategory(event);
    restated_name_ = InternName(event);
    restated_class_set_ = true;
  } else if (!SameText(event.category, trace_.str(restated_category_)) ||
             !SameText(event.name, trace_.str(restated_name_))) {
    return false;
  }
  restated_flows_.push_back({id, last_slice_, flow_records_++, phase});
  return true;
}

namespace {
// A flow's records in the order they are paired: starts, steps, finishes.
int FlowPhaseRank(char ph) {
  return ph == 's' ? 0 : ph == 't' ? 1 : 2;
}
}  // namespace

void TraceBuilder::SortRawFlows() {
  // A flow is the set of s/t/f records sharing (id, category, name). Records
  // are paired by identity, not by time: device clocks can place the 'f'
  // before its 's' (torch_npu HostToDevice), and one 's' may fan out to
  // several 'f' (one API call, several device tasks).
  auto phase_rank = FlowPhaseRank;
  // Lexicographic on (id, category, name, phase rank, ts), field by field,
  // stable: equal records keep their file order.
  auto less = [&](const RawFlow& a, const RawFlow& b) {
    if (a.id.is_text != b.id.is_text) return a.id.is_text < b.id.is_text;
    if (a.id.number != b.id.number) return a.id.number < b.id.number;
    if (a.id.text != b.id.text) return a.id.text < b.id.text;
    if (a.category != b.category) return a.category < b.category;
    if (a.name != b.name) return a.name < b.name;
    const int rank_a = phase_rank(a.phase);
    const int rank_b = phase_rank(b.phase);
    if (rank_a != rank_b) return rank_a < rank_b;
    return a.ts_ns < b.ts_ns;
  };
  // Kineto's ids are numbers that grow with time, its records an 'f' then
  // its 's' (or the reverse) per id: a run per id for the whole key, a few
  // runs for the id alone. So: stably by the number (merged runs), then each
  // id's few records by the whole key; std::sort of the whole key was 7% of
  // loading HTA's trace_diff traces.
  const bool all_numeric = std::none_of(raw_flows_.begin(), raw_flows_.end(),
                                        [](const RawFlow& f) { return f.id.is_text; });
  if (!all_numeric) {
    std::stable_sort(raw_flows_.begin(), raw_flows_.end(), less);
  } else {
    base::StableSortByKey(raw_flows_, [](const RawFlow& f) { return f.id.number; });
    for (size_t i = 0; i < raw_flows_.size();) {
      size_t j = i + 1;
      while (j < raw_flows_.size() && raw_flows_[j].id.number == raw_flows_[i].id.number) ++j;
      // Insertion: a group is an id's two or three records.
      for (size_t k = i + 1; k < j; ++k) {
        for (size_t m = k; m > i && less(raw_flows_[m], raw_flows_[m - 1]); --m) {
          std::swap(raw_flows_[m], raw_flows_[m - 1]);
        }
      }
      i = j;
    }
  }
  // The records bound to their enclosing slice, by (track, time), for one
  // cursor per track in BindFlows: grouped by track (a stable counting
  // sort), then each track by time. In identity order a track's records are
  // nearly in time order already (correlation ids grow with time), so its
  // runs merge in a few passes where a comparison sort of (track, time) was
  // a third of Finalize's loading-thread work. Records of one track and time
  // stay in identity order (BindFlows' result does not depend on it).
  flows_by_time_.clear();
  uint32_t tracks = 0;
  for (const RawFlow& f : raw_flows_) {
    if (f.bind_enclosing) tracks = std::max(tracks, f.track + 1);
  }
  std::vector<uint32_t> offset(tracks + 1, 0);
  for (const RawFlow& f : raw_flows_) {
    if (f.bind_enclosing) ++offset[f.track + 1];  // the others may lie past `tracks`
  }
  std::partial_sum(offset.begin(), offset.end(), offset.begin());
  flows_by_time_.resize(offset.back());
  {
    std::vector<uint32_t> cursor(offset.begin(), offset.end() - 1);
    for (size_t k = 0; k < raw_flows_.size(); ++k) {
      const RawFlow& f = raw_flows_[k];
      if (f.bind_enclosing) flows_by_time_[cursor[f.track]++] = static_cast<uint32_t>(k);
    }
  }
  struct Key {
    int64_t ts;
    uint32_t index;
  };
  std::vector<Key> keys;
  for (uint32_t t = 0; t < tracks; ++t) {
    keys.clear();
    for (uint32_t j = offset[t]; j < offset[t + 1]; ++j) {
      keys.push_back({raw_flows_[flows_by_time_[j]].ts_ns, flows_by_time_[j]});
    }
    // Stable by time: a track's records are in index order here, so ties
    // stay by index.
    if (!base::StableSortByKey(keys, [](const Key& k) { return k.ts; })) continue;
    for (uint32_t j = offset[t]; j < offset[t + 1]; ++j)
      flows_by_time_[j] = keys[j - offset[t]].index;
  }
}

namespace {

// Records grouped by id without sorting them (sorting by id was most of
// what restated records cost): a table from id to the group's latest
// record, open addressing on the hashed id (4 bytes a slot: the record
// holds the id), and each record's predecessor of the same id.
template <typename IdOf>
class IdChains {
 public:
  static constexpr uint32_t kNone = UINT32_MAX;

  IdChains(size_t n, IdOf id_of) : id_of_(id_of), earlier_(n) {
    size_t slots = 16;
    while (slots < 2 * n) slots *= 2;
    latest_.assign(slots, kNone);
    mask_ = slots - 1;
    for (size_t k = 0; k < n; ++k) {
      uint32_t& latest = latest_[SlotOf(id_of_(k))];
      earlier_[k] = latest;
      latest = static_cast<uint32_t>(k);
    }
  }
  bool Contains(int64_t id) const { return latest_[SlotOf(id)] != kNone; }
  // f(latest record) for each group, in no particular order.
  template <typename F>
  void ForEachGroup(F f) const {
    for (uint32_t latest : latest_) {
      if (latest != kNone) f(latest);
    }
  }
  // The record of the same id before `k`, or kNone.
  uint32_t Earlier(uint32_t k) const { return earlier_[k]; }

 private:
  // The slot holding `id`, or the empty one where it would go.
  size_t SlotOf(int64_t id) const {
    size_t i = HashMix(static_cast<uint64_t>(id)) & mask_;
    while (latest_[i] != kNone && id_of_(latest_[i]) != id) i = (i + 1) & mask_;
    return i;
  }

  IdOf id_of_;
  std::vector<uint32_t> latest_;
  std::vector<uint32_t> earlier_;
  size_t mask_ = 0;
};

}  // namespace

// Beside the slices' order (reads their times in the builder's order).
void TraceBuilder::GroupRestatedFlows() {
  restated_grouped_ = false;
  if (restated_flows_.empty()) return;
  const IdChains chains(restated_flows_.size(), [this](size_t k) { return restated_flows_[k].id; });
  // A kept record of a restated flow's (id, category, name) belongs to the
  // same flow: then all are bound by the search (BindRestatedFlows).
  const bool shared = std::any_of(raw_flows_.begin(), raw_flows_.end(), [&](const RawFlow& f) {
    return !f.id.is_text && f.category == restated_category_ && f.name == restated_name_ &&
           chains.Contains(f.id.number);
  });
  if (shared) return;
  // Each id's records together, as SortRawFlows orders a flow's: by
  // (phase, time), then file order. The groups' own order is free:
  // BuildLaunchFlows orders the flows.
  const std::vector<int64_t>& ts = trace_.slices.ts_ns;
  auto less = [&ts](const RestatedFlow& a, const RestatedFlow& b) {
    const int rank_a = FlowPhaseRank(a.phase);
    const int rank_b = FlowPhaseRank(b.phase);
    if (rank_a != rank_b) return rank_a < rank_b;
    if (ts[a.slice] != ts[b.slice]) return ts[a.slice] < ts[b.slice];
    return a.ordinal < b.ordinal;
  };
  std::vector<RestatedFlow> grouped;
  grouped.reserve(restated_flows_.size());
  chains.ForEachGroup([&](uint32_t latest) {
    const size_t begin = grouped.size();
    for (uint32_t m = latest; m != chains.kNone; m = chains.Earlier(m)) {
      grouped.push_back(restated_flows_[m]);
      for (size_t j = grouped.size() - 1; j > begin && less(grouped[j], grouped[j - 1]); --j) {
        std::swap(grouped[j], grouped[j - 1]);
      }
    }
  });
  restated_flows_ = std::move(grouped);
  restated_grouped_ = true;
}

void TraceBuilder::BindRestatedFlows() {
  if (restated_flows_.empty()) return;
  const SliceTable& s = trace_.slices;
  // BindFlows' search (InnermostSliceCursor) gives a record the instant
  // starting at its time, else the innermost slice open at it: for a record
  // at a slice's start, the last slice of the track to start then (a
  // zero-length runtime call may share its microsecond with the next).
  for (RestatedFlow& f : restated_flows_) {
    const uint32_t end = trace_.tracks[s.track[f.slice]].slice_end;
    while (f.slice + 1 < end && s.ts_ns[f.slice + 1] == s.ts_ns[f.slice]) ++f.slice;
  }
  if (restated_grouped_) return;
  // Left in file order by GroupRestatedFlows: each back to a RawFlow (the
  // slice's time is the record's), sorted as though none had been restated.
  for (const RestatedFlow& f : restated_flows_) {
    RawFlow flow;
    flow.id.number = f.id;
    flow.category = restated_category_;
    flow.name = restated_name_;
    flow.ts_ns = s.ts_ns[f.slice];
    flow.track = s.track[f.slice];
    flow.ordinal = f.ordinal;
    flow.phase = f.phase;
    flow.bind_enclosing = true;
    raw_flows_.push_back(flow);
  }
  restated_flows_.clear();
  std::sort(raw_flows_.begin(), raw_flows_.end(),
            [](const RawFlow& a, const RawFlow& b) { return a.ordinal < b.ordinal; });
  SortRawFlows();
}

// The kept flow records sorted by SortRawFlows, the restated ones grouped and
// bound (GroupRestatedFlows, BindRestatedFlows).
void TraceBuilder::BindFlows(Classifier& classifier) {
  const SliceTable& s = trace_.slices;
  // The slice enclosing each record bound that way, in (track, time) order
  // by one cursor per track: a walk up the nesting per record was
  // flows x depth (#17).
  // Written for every record bound that way, read for no other: not filled.
  auto enclosing = std::make_unique_for_overwrite<int64_t[]>(raw_flows_.size());
  {
    const std::vector<uint32_t>& by_time = flows_by_time_;
    std::optional<InnermostSliceCursor> cursor;
    for (size_t k = 0; k < by_time.size(); ++k) {
      const RawFlow& f = raw_flows_[by_time[k]];
      if (k == 0 || f.track != raw_flows_[by_time[k - 1]].track) cursor.emplace(trace_, f.track);
      enclosing[by_time[k]] = cursor->At(f.ts_ns);
    }
  }
  auto bind = [&](size_t k) -> int64_t {
    const RawFlow& f = raw_flows_[k];
    int64_t slice = -1;
    if (f.bind_enclosing) {
      slice = enclosing[k];
    } else {
      const Track& track = trace_.tracks[f.track];
      auto first = s.ts_ns.begin() + track.slice_begin;
      auto last = s.ts_ns.begin() + track.slice_end;
      auto it = std::lower_bound(first, last, f.ts_ns);
      if (it != last) slice = it - s.ts_ns.begin();
    }
    if (slice < 0) trace_.load_stats.Add(LoadStat::kFlowUnbound);
    return slice;
  };
  // At most one flow per record (reserved: see PairLaunches).
  const size_t records = raw_flows_.size() + restated_flows_.size();
  trace_.flows.from.reserve(records);
  trace_.flows.to.reserve(records);
  trace_.flows.kind.reserve(records);
  auto emit = [&](int64_t from, int64_t to, FlowKind kind) {
    if (from < 0 || to < 0 || from == to) return;
    trace_.flows.from.push_back(static_cast<SliceId>(from));
    trace_.flows.to.push_back(static_cast<SliceId>(to));
    trace_.flows.kind.push_back(kind);
  };

  std::vector<int64_t> starts, steps, finishes;
  // One flow's records, bound: its flows and the records left unpaired.
  auto emit_flow = [&](FlowKind kind) {
    if (starts.size() == 1 && finishes.size() == 1) {
      int64_t previous = starts[0];
      for (int64_t step : steps) {
        emit(previous, step, kind);
        previous = step;
      }
      emit(previous, finishes[0], kind);
    } else if (starts.size() == 1) {
      for (int64_t f : finishes) emit(starts[0], f, kind);
    } else if (finishes.size() == 1) {
      for (int64_t st : starts) emit(st, finishes[0], kind);
    } else {
      const size_t pairs = std::min(starts.size(), finishes.size());
      for (size_t k = 0; k < pairs; ++k) emit(starts[k], finishes[k], kind);
    }
    size_t unmatched = 0;
    if (starts.empty() || finishes.empty()) {
      unmatched = starts.size() + finishes.size();
    } else if (starts.size() > 1 && finishes.size() > 1) {
      unmatched = starts.size() + finishes.size() - 2 * std::min(starts.size(), finishes.size());
    }
    trace_.load_stats.Add(LoadStat::kFlowUnmatched, unmatched);
  };
  // Flows of one kind follow each other ("async_cpu_to_gpu"): the last
  // (category, name) classified is reused.
  std::optional<std::pair<StringId, StringId>> classified;
  FlowKind classified_kind = FlowKind::kOther;
  size_t i = 0;
  while (i < raw_flows_.size()) {
    const RawFlow& head = raw_flows_[i];
    size_t j = i;
    starts.clear();
    steps.clear();
    finishes.clear();
    for (; j < raw_flows_.size() && raw_flows_[j].id == head.id &&
           raw_flows_[j].category == head.category && raw_flows_[j].name == head.name;
         ++j) {
      const RawFlow& f = raw_flows_[j];
      (f.phase == 's' ? starts : f.phase == 't' ? steps : finishes).push_back(bind(j));
    }
    if (classified != std::pair(head.category, head.name)) {
      classified = std::pair(head.category, head.name);
      classified_kind = classifier.ClassifyFlow(trace_.str(head.category), trace_.str(head.name));
    }
    emit_flow(classified_kind);
    i = j;
  }
  raw_flows_.clear();
  raw_flows_.shrink_to_fit();
  // The restated records, each bound to its slice (BindRestatedFlows).
  const std::vector<RestatedFlow>& r = restated_flows_;
  if (!r.empty()) {
    const FlowKind kind =
        classifier.ClassifyFlow(trace_.str(restated_category_), trace_.str(restated_name_));
    for (size_t k = 0; k < r.size();) {
      starts.clear();
      steps.clear();
      finishes.clear();
      size_t end = k;
      for (; end < r.size() && r[end].id == r[k].id; ++end) {
        (r[end].phase == 's' ? starts : finishes).push_back(r[end].slice);
      }
      emit_flow(kind);
      k = end;
    }
  }
  restated_flows_.clear();
  restated_flows_.shrink_to_fit();
}

std::vector<std::pair<SliceId, SliceId>> TraceBuilder::PairLaunches() const {
  const SliceTable& s = trace_.slices;
  std::vector<std::pair<SliceId, SliceId>> launches;
  // correlation -> the first host call with it, as a sorted array: a hash map
  // here cost a node per runtime call (tens of MB on a 1 GB trace).
  // Every vector here is reserved for its most (one entry per slice): grown
  // by doubling, each step was a fresh block faulted in and copied; pages
  // never reached cost address space only.
  std::vector<std::pair<int64_t, SliceId>> launcher;
  launcher.reserve(s.size());
  // Device work by correlation, joined with the launchers in one merge pass
  // (both mostly arrive in correlation order; a binary search per kernel
  // missed the cache at every step). Both lists in one pass over the slices.
  std::vector<std::pair<int64_t, SliceId>> device;
  device.reserve(s.size());
  for (SliceId i = 0; i < s.size(); ++i) {
    if (s.correlation[i] <= 0) continue;
    if (IsDeviceTrack(trace_.tracks[s.track[i]].kind)) {
      device.emplace_back(s.correlation[i], i);
    } else if (s.kind[i] == EventKind::kRuntimeCall) {
      launcher.emplace_back(s.correlation[i], i);
    }
  }
  base::SortByRuns(launcher, std::less<>());
  launcher.erase(std::unique(launcher.begin(), launcher.end(),
                             [](const auto& a, const auto& b) { return a.first == b.first; }),
                 launcher.end());
  if (launcher.empty()) return launches;
  base::SortByRuns(device, std::less<>());
  launches.reserve(device.size());
  auto host = launcher.begin();
  for (const auto& [correlation, i] : device) {
    while (host != launcher.end() && host->first < correlation) ++host;
    if (host == launcher.end()) break;
    if (host->first != correlation) continue;
    launches.emplace_back(host->second, i);
  }
  return launches;
}

void TraceBuilder::BuildLaunchFlows(const std::vector<std::pair<SliceId, SliceId>>& launches) {
  // One flow per (from, to): explicit flow events often restate
  // correlations. The result is ordered by (from, to), and of the flows
  // sharing both the one with the least kind is kept, the explicit ones
  // before the launches on a tie, each list in its order.
  const FlowTable& f = trace_.flows;
  const size_t explicit_flows = f.size();
  const size_t total = explicit_flows + launches.size();
  auto from_of = [&](size_t k) {
    return k < explicit_flows ? f.from[k] : launches[k - explicit_flows].first;
  };
  auto to_of = [&](size_t k) {
    return k < explicit_flows ? f.to[k] : launches[k - explicit_flows].second;
  };
  auto kind_of = [&](size_t k) { return k < explicit_flows ? f.kind[k] : FlowKind::kLaunch; };
  // A stable counting sort by `from`, a slice id: a slice starts one or two
  // flows, so each from's few are then ordered by insertion. Merging the
  // lists' runs compared (from, to, kind) pairs in every pass, most of the
  // cost.
  std::vector<uint32_t> next(trace_.slices.size() + 1, 0);
  for (size_t k = 0; k < total; ++k) ++next[from_of(k) + 1];
  std::partial_sum(next.begin(), next.end(), next.begin());
  auto order = std::make_unique_for_overwrite<uint32_t[]>(total);  // every entry written
  for (size_t k = 0; k < total; ++k) order[next[from_of(k)]++] = static_cast<uint32_t>(k);
  auto before = [&](uint32_t a, uint32_t b) {
    return std::pair(to_of(a), kind_of(a)) < std::pair(to_of(b), kind_of(b));
  };
  FlowTable out;
  out.from.reserve(total);
  out.to.reserve(total);
  out.kind.reserve(total);
  for (size_t begin = 0; begin < total;) {
    const SliceId from = from_of(order[begin]);
    size_t end = begin + 1;
    while (end < total && from_of(order[end]) == from) ++end;
    for (size_t k = begin + 1; k < end; ++k) {
      for (size_t m = k; m > begin && before(order[m], order[m - 1]); --m) {
        std::swap(order[m], order[m - 1]);
      }
    }
    for (size_t k = begin; k < end; ++k) {
      const SliceId to = to_of(order[k]);
      if (k > begin && to == out.to.back()) continue;
      out.from.push_back(from);
      out.to.push_back(to);
      out.kind.push_back(kind_of(order[k]));
    }
    begin = end;
  }
  trace_.flows = std::move(out);
}

void TraceBuilder::BuildSteps() {
  std::sort(step_markers_.begin(), step_markers_.end(), [this](const auto& a, const auto& b) {
    return trace_.slices.ts_ns[a.first] < trace_.slices.ts_ns[b.first];
  });
  std::unordered_map<int64_t, bool> seen;
  for (const auto& [slice, id] : step_markers_) {
    if (!seen.emplace(id, true).second) {
      trace_.load_stats.Add(LoadStat::kDuplicateStep);
      continue;
    }
    Step step;
    step.id = id;
    step.start_ns = trace_.slices.ts_ns[slice];
    step.end_ns = trace_.slices.end_ns(slice);
    step.marker = slice;
    trace_.steps.push_back(step);
  }
}

void TraceBuilder::SortCountersAndMemory() {
  CounterTable& c = trace_.counters;
  std::vector<uint32_t> order(c.size());
  std::iota(order.begin(), order.end(), 0);
  auto counter_less = [&c](uint32_t a, uint32_t b) {
    return std::tie(c.track[a], c.ts_ns[a], a) < std::tie(c.track[b], c.ts_ns[b], b);
  };
  if (base::SortByRuns(order, counter_less)) {
    Permute(c.track, order);
    Permute(c.ts_ns, order);
    Permute(c.value, order);
  }
  MemoryEventTable& m = trace_.memory;
  order.resize(m.size());
  std::iota(order.begin(), order.end(), 0);
  auto memory_less = [&m](uint32_t a, uint32_t b) {
    return std::tie(m.ts_ns[a], a) < std::tie(m.ts_ns[b], b);
  };
  if (base::SortByRuns(order, memory_less)) {
    Permute(m.ts_ns, order);
    Permute(m.bytes, order);
    Permute(m.total_allocated, order);
    Permute(m.total_reserved, order);
    Permute(m.device_id, order);
    Permute(m.device_type, order);
    Permute(m.addr, order);
  }
}

Result<Trace> TraceBuilder::Finalize(Classifier& classifier) && {
  FlushPhaseCounts();
  CloseOpenSlices();
  ApplyMetadata();

  std::vector<std::vector<StringId>> categories(trace_.tracks.size());
  for (SliceId i = 0; i < trace_.slices.size(); ++i) {
    auto& list = categories[trace_.slices.track[i]];
    const StringId cat = trace_.slices.category[i];
    if (list.size() < kMaxCategoriesPerTrack &&
        std::find(list.begin(), list.end(), cat) == list.end()) {
      list.push_back(cat);
    }
  }
  classifier.ClassifyTracks(trace_.tracks, trace_.strings, categories);
  // The slices' order reads none of what ClassifySlices writes, and the flow
  // records need neither: with a second thread, the flow records' sort
  // there, the order and the classification here. Split by time, not
  // instructions: the sorts miss the cache and fault in their scratch (1 GB
  // trace, two threads: the flows' sort 0.08 s, the order 0.07 s, the
  // classification, its kinds cached by name, 0.013 s).
  const bool beside = finalize_threads_ > 1 && trace_.slices.size() >= kParallelFinalizeSlices;
  SliceOrder order;
  base::RunBeside(
      beside,
      [&] {
        SortRawFlows();
        GroupRestatedFlows();
      },
      [&] {
        order = ComputeSliceOrder();
        ClassifySlices(classifier);
      });
  ApplySliceOrder(order);
  BindRestatedFlows();
  // Launch pairing reads the sorted slices' kinds and correlations, and the
  // counters and memory records are sorted on their own: beside the nesting
  // and flow binding, which write the slices' parents and the flows.
  std::vector<std::pair<SliceId, SliceId>> launches;
  base::RunBeside(
      beside,
      [&] {
        launches = PairLaunches();
        SortCountersAndMemory();
      },
      [&] {
        ComputeNesting();
        BindFlows(classifier);
      });
  BuildLaunchFlows(launches);
  BuildSteps();
  classifier.DescribeRank(trace_, &trace_.info);
  return std::move(trace_);
}

}  // namespace perfdx::model
