// TraceBuilder: the only way to make a model::Trace.
//
// An importer feeds RawEvents in file order (AddEvent), then calls Finalize
// with a Classifier that knows its format's spellings. Finalize resolves
// metadata, classifies tracks and slices into the model vocabulary, sorts the
// columns, computes nesting, binds flows and extracts steps. The model itself
// knows no format spellings.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "perfdx/base/status.h"
#include "perfdx/model/trace.h"

namespace perfdx::model {

// The times a trace may hold, so that no end, difference or span of them
// overflows int64 ns anywhere downstream: timestamps from -2^61 ns (1896 as
// epoch time) to 2^62 ns (2116; Kineto's epoch microseconds are ~1.7e18 ns),
// durations up to 2^60 ns (36 years). Events beyond them are counted
// (event_ts_out_of_range, event_invalid_dur) and skipped.
inline constexpr int64_t kMinTimestampNs = -(int64_t{1} << 61);
inline constexpr int64_t kMaxTimestampNs = int64_t{1} << 62;
inline constexpr int64_t kMaxDurationNs = int64_t{1} << 60;
// Finalize takes its second thread from this many slices on: below, the
// thread costs more than the few milliseconds it would save.
inline constexpr size_t kParallelFinalizeSlices = size_t{1} << 14;

// An id as it appears in the file, before interning.
struct RawIdView {
  int64_t number = 0;
  std::string_view text;
  bool is_text = false;
  bool present = false;
  bool text_hashed = false;
  uint64_t text_hash = 0;  // StringPool::Hash(text) where text_hashed
};

struct RawArg {
  ArgKey key;
  ArgType type;
  int64_t int_value = 0;
  double double_value = 0;
  std::string_view string_value;
  uint64_t string_hash = 0;  // StringPool::Hash(string_value) once hashed
};

enum class FieldState : uint8_t { kMissing, kInvalid, kOk };

// One event of the Chrome trace event format, fields already decoded. String
// views only need to live until AddEvent returns.
struct RawEvent {
  // The fields a slice reads first, in the first three cache lines: the
  // thread that builds the model reads them from the decoding thread's cache.
  std::string_view phase;
  std::string_view name;
  std::string_view category;
  // StringPool::Hash of name, category, the string args and ids, set by
  // HashStrings for those it pays to hash ahead (StringPool::HashAheadPays): a
  // decoding thread hashes, so that the one thread that builds the model need
  // not.
  uint64_t name_hash = 0;
  uint64_t category_hash = 0;
  int64_t ts_ns = 0;
  int64_t dur_ns = 0;
  FieldState ts_state = FieldState::kMissing;
  FieldState dur_state = FieldState::kMissing;
  bool strings_hashed = false;
  bool is_memory_event = false;  // allocator record (importer decides)
  // The known args (arg_key.h), read through Args(): in `args`, or, where
  // `shared_args` is set, in that store from `shared_args_begin`. A decoding
  // thread puts all the events of its chunk in one store: the thread that
  // builds the model then reads them in one run of memory, where a vector per
  // event was a stall on the other core's cache at every event (1 GB trace,
  // two threads: a third of the loading thread's time in AppendSlice).
  std::vector<RawArg>* shared_args = nullptr;
  size_t shared_args_begin = 0;
  size_t shared_args_count = 0;
  RawIdView pid;
  RawIdView tid;
  // The rest, for flows, counters and metadata.
  std::vector<RawArg> args;
  RawIdView id;              // flow / async id ("id", or "id2".local/global)
  std::string_view binding;  // flow "bp"
  // Numeric args by their own names (the series of a "C" counter event).
  std::vector<std::pair<std::string_view, double>> numeric_args;
  // Metadata ("M") payload: args.name / args.labels / args.sort_index.
  std::string_view meta_name;
  std::string_view meta_labels;

  std::span<const RawArg> Args() const { return ArgsOf<const RawArg>(*this); }
  std::span<RawArg> Args() { return ArgsOf<RawArg>(*this); }
  void AddArg(const RawArg& arg) {
    if (shared_args == nullptr) {
      args.push_back(arg);
      return;
    }
    shared_args->push_back(arg);
    ++shared_args_count;
  }

  void HashStrings();
  // Empties every field; the shared store keeps what earlier events put in it.
  void Clear();

 private:
  // The one place that says where an event's args are, for both Args().
  template <typename Arg, typename Self>
  static std::span<Arg> ArgsOf(Self& self) {
    return self.shared_args == nullptr
               ? std::span<Arg>(self.args)
               : std::span<Arg>(self.shared_args->data() + self.shared_args_begin,
                                self.shared_args_count);
  }
};

// Inline: every decoded event starts with it.
inline void RawEvent::Clear() {
  phase = {};
  name = {};
  category = {};
  pid = {};
  tid = {};
  ts_state = FieldState::kMissing;
  ts_ns = 0;
  dur_state = FieldState::kMissing;
  dur_ns = 0;
  id = {};
  binding = {};
  args.clear();
  if (shared_args != nullptr) shared_args_begin = shared_args->size();
  shared_args_count = 0;
  numeric_args.clear();
  meta_name = {};
  meta_labels = {};
  is_memory_event = false;
  strings_hashed = false;
}

class Classifier {
 public:
  virtual ~Classifier() = default;
  // Sets kind, device_id and stream_id of every track (names are resolved).
  // Tracks the builder already made kCounter or kAsync keep their kind.
  // `track_categories[t]` lists the distinct slice categories of track t.
  virtual void ClassifyTracks(std::vector<Track>& tracks, const StringPool& strings,
                              const std::vector<std::vector<StringId>>& track_categories) = 0;
  // The kind of slice `i` of the trace under construction (tracks classified,
  // slices and args readable, nothing sorted yet); sets *step_id for a step
  // marker.
  virtual EventKind ClassifySlice(const Trace& partial, SliceId i,
                                  std::optional<int64_t>* step_id) = 0;
  virtual FlowKind ClassifyFlow(std::string_view category, std::string_view name) = 0;
  // Fills info.device_type / device_name from what the trace holds.
  virtual void DescribeRank(const Trace& trace, RankInfo* info) = 0;
};

class TraceBuilder {
 public:
  explicit TraceBuilder(RankInfo info);

  // Counts one element of the event array and records it.
  void AddEvent(const RawEvent& event);
  // Counts one element of the event array that could not be decoded.
  void AddBadEvent(LoadStat why);

  LoadStats& load_stats() { return trace_.load_stats; }
  RankInfo& info() { return trace_.info; }
  // Threads Finalize may use (1: only the caller's). With two, the slices'
  // order is found while they are classified and the flows sorted, and the
  // slice columns are permuted in two halves; the trace is the same.
  void set_finalize_threads(unsigned threads) { finalize_threads_ = threads; }
  // Off: every flow record is kept and bound by the search, none taken as
  // the correlation it restates (RestatedFlow). The trace is the same; the
  // tests build it both ways.
  void set_restate_flows(bool restate) { restate_flows_ = restate; }
  // Flow records taken so far as the correlation they restate.
  size_t restated_flow_records() const { return restated_flows_.size(); }
  // Room for about `events` events before the first is added, from the
  // input's size: grown by doubling, the columns fault in twice their final
  // size (a third of a large trace's load time was the kernel zeroing pages);
  // room never touched costs address space, not memory.
  void ReserveEvents(size_t events);

  Result<Trace> Finalize(Classifier& classifier) &&;

 private:
  struct TrackKey {
    RawId pid;
    RawId tid;
    StringId space;  // kEmptyString for threads; counter/async namespaces otherwise
    friend bool operator==(const TrackKey&, const TrackKey&) = default;
  };
  struct TrackKeyHash {
    size_t operator()(const TrackKey& k) const;
  };
  struct RawFlow {
    RawId id;
    StringId category;
    StringId name;
    int64_t ts_ns;
    TrackId track;
    uint32_t ordinal;  // among the flow records kept, in file order
    char phase;        // 's', 't', 'f'
    bool bind_enclosing;
  };
  // A flow record that restates the correlation of the slice added just
  // before it: the same track and time, its id that slice's "correlation",
  // bound to the enclosing slice ('s', or 'f' with "bp": "e"). Kineto writes
  // one after every runtime call and device kernel, a third of its events.
  // Kept as the slice it sits on, not as a record to sort by time and bind
  // by a search (GroupRestatedFlows, BindRestatedFlows).
  struct RestatedFlow {
    int64_t id;        // the slice's correlation
    uint32_t slice;    // the builder's index until ApplySliceOrder, then the bound one
    uint32_t ordinal;  // as RawFlow::ordinal
    char phase;        // 's' or 'f'
  };
  struct AsyncKey {
    RawId pid;
    StringId category;
    StringId name;
    RawId id;
    friend bool operator==(const AsyncKey&, const AsyncKey&) = default;
  };
  struct AsyncKeyHash {
    size_t operator()(const AsyncKey& k) const;
  };

  RawId Intern(const RawIdView& id);
  [[gnu::noinline]] RawId InternText(const RawIdView& id);
  // The event's strings interned, by the hashes it carries when it has them.
  StringId InternHashedAhead(const RawEvent& event, std::string_view s, uint64_t hash);
  StringId InternName(const RawEvent& event);
  StringId InternCategory(const RawEvent& event);
  StringId InternArgString(const RawEvent& event, const RawArg& arg);
  TrackId GetTrack(const RawId& pid, const RawId& tid, StringId space);
  uint32_t AppendSlice(TrackId track, int64_t ts, int64_t dur, StringId name, StringId cat,
                       uint8_t flags, const RawEvent& event);
  void AddMetadata(const RawEvent& event, const RawId& pid, const RawId& tid);
  void AddCounter(const RawEvent& event, const RawId& pid);
  void AddMemoryEvent(const RawEvent& event);
  void AddAsync(const RawEvent& event, const RawId& pid, char phase);
  void CountPhase(std::string_view phase);
  void FlushPhaseCounts();

  void CloseOpenSlices();
  void ApplyMetadata();
  void ClassifySlices(Classifier& classifier);
  // The slices grouped by track, each track by (ts, -dur): order[j] is the
  // slice that goes to position j.
  struct SliceOrder {
    std::vector<uint32_t> order;
    std::vector<uint32_t> track_offsets;  // track t holds [t], [t + 1])
  };
  SliceOrder ComputeSliceOrder() const;
  void ApplySliceOrder(const SliceOrder& sorted);
  void ComputeNesting();
  bool TryRestateFlow(const RawEvent& event, TrackId track, int64_t ts, char phase);
  void SortRawFlows();
  // Groups the restated records by id, unless a kept record shares one's
  // (id, category, name).
  void GroupRestatedFlows();
  // After ApplySliceOrder: binds each restated record to the slice the
  // search would find; if they were not grouped, makes them all RawFlows
  // again (their file order kept) and sorts them with the rest.
  void BindRestatedFlows();
  void BindFlows(Classifier& classifier);
  // (runtime call, device slice) for each correlation id both carry, in
  // device-slice order; reads the sorted, classified slices only.
  std::vector<std::pair<SliceId, SliceId>> PairLaunches() const;
  // Appends the launches as flows, then keeps one flow per (from, to).
  void BuildLaunchFlows(const std::vector<std::pair<SliceId, SliceId>>& launches);
  void BuildSteps();
  void SortCountersAndMemory();

  Trace trace_;
  std::unordered_map<TrackKey, TrackId, TrackKeyHash> track_ids_;
  // The tracks GetTrack found last, newest first: a trace's events rotate
  // among a few threads and streams (one entry missed most of them).
  static constexpr size_t kRecentTracks = 4;
  std::array<TrackKey, kRecentTracks> recent_keys_{};
  std::array<TrackId, kRecentTracks> recent_tracks_{UINT32_MAX, UINT32_MAX, UINT32_MAX, UINT32_MAX};
  struct ThreadKeyHash {
    size_t operator()(const std::pair<RawId, RawId>& k) const;
  };
  std::unordered_map<RawId, StringId, RawIdHash> process_names_;
  std::unordered_map<RawId, StringId, RawIdHash> process_labels_;
  std::unordered_map<std::pair<RawId, RawId>, StringId, ThreadKeyHash> thread_names_;
  std::vector<std::vector<uint32_t>> open_begins_;  // per track: B slices not yet ended
  std::unordered_map<AsyncKey, std::vector<uint32_t>, AsyncKeyHash> open_async_;
  std::vector<RawFlow> raw_flows_;
  std::vector<uint32_t> flows_by_time_;  // SortRawFlows: see BindFlows
  std::vector<RestatedFlow> restated_flows_;
  // The restated records' (category, name): the first one's. A record of
  // another is kept as a RawFlow.
  StringId restated_category_ = kEmptyString;
  StringId restated_name_ = kEmptyString;
  bool restated_class_set_ = false;
  bool restated_grouped_ = false;                           // by GroupRestatedFlows
  uint32_t flow_records_ = 0;                               // ordinals given
  uint32_t last_slice_ = UINT32_MAX;                        // AppendSlice's latest
  std::vector<std::pair<uint32_t, int64_t>> step_markers_;  // (slice, step id)
  // Events by phase letter; buckets 0 and 1 count missing and unknown phases.
  std::array<uint64_t, 256> phase_counts_{};
  StringId async_space_ = kEmptyString;
  int64_t max_ts_ns_ = INT64_MIN;
  unsigned finalize_threads_ = 1;
  bool restate_flows_ = true;
  size_t reserved_events_ = 0;  // ReserveEvents' estimate
};

}  // namespace perfdx::model
