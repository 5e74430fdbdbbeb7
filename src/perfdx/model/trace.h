// model::Trace — one rank's profile in columnar, immutable form.
//
// Importers build it through TraceBuilder; analyses read it through const
// references and never change it. Every timestamp is integer nanoseconds on the
// profiler's own clock (epoch or relative, as the source wrote it).
//
// Layout invariants (established by TraceBuilder::Finalize):
//   - slices are grouped by track, and sorted by (ts asc, dur desc) within a
//     track; tracks[t].slice_begin/slice_end delimit a track's slices;
//   - parent[i] is the innermost slice on the same track that contains slice i
//     (-1 for top level), depth[i] its nesting depth; parent[i] < i, so one
//     pass in index order sees every slice after all its ancestors (the
//     analyses compute what encloses each slice that way, not by walking up);
//   - counters are sorted by (track, ts); memory events by ts; steps by start.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "perfdx/base/hash.h"
#include "perfdx/model/arg_key.h"
#include "perfdx/model/ascend.h"
#include "perfdx/model/event_kind.h"
#include "perfdx/model/framework.h"
#include "perfdx/model/load_stats.h"
#include "perfdx/model/string_pool.h"

namespace perfdx::model {

using TrackId = uint32_t;
using SliceId = uint32_t;
inline constexpr int32_t kNoParent = -1;
inline constexpr int64_t kNoCorrelation = -1;

// A process or thread id as the profiler wrote it: a number, or text
// ("CPU functions", "stream 7"). Digit-only text is stored as the number.
struct RawId {
  int64_t number = 0;
  StringId text = kEmptyString;
  bool is_text = false;
  friend bool operator==(const RawId&, const RawId&) = default;
};

// The one hash of a RawId (track keys, pid maps).
struct RawIdHash {
  size_t operator()(const RawId& id) const {
    return HashMix(static_cast<uint64_t>(id.number) * 31 + id.text * 7 + (id.is_text ? 1 : 0));
  }
};

struct Track {
  TrackKind kind = TrackKind::kHostThread;
  RawId pid;
  RawId tid;
  StringId process_name = kEmptyString;
  StringId thread_name = kEmptyString;
  StringId process_label = kEmptyString;  // Chrome "process_labels": "CPU", "GPU 0", "NPU"
  int32_t device_id = -1;                 // GPU/NPU index where known
  int64_t stream_id = -1;                 // device stream where known
  uint32_t slice_begin = 0;
  uint32_t slice_end = 0;
  uint32_t slice_count() const { return slice_end - slice_begin; }
};

enum SliceFlags : uint8_t {
  kSliceInstant = 1 << 0,       // a point event (i/I/n), dur 0
  kSliceUnterminated = 1 << 1,  // B or b never ended; closed at trace end
  kSliceFromBeginEnd = 1 << 2,  // built from a B/E pair
};

class SliceTable {
 public:
  std::vector<int64_t> ts_ns;
  std::vector<int64_t> dur_ns;
  std::vector<TrackId> track;
  std::vector<StringId> name;
  std::vector<StringId> category;
  std::vector<EventKind> kind;
  std::vector<uint8_t> flags;
  std::vector<int32_t> parent;
  std::vector<uint16_t> depth;
  // Links host launches to device work: Kineto "correlation", Ascend
  // "connection_id". kNoCorrelation when absent.
  std::vector<int64_t> correlation;
  // Kineto "External id": groups an operator with its runtime calls.
  std::vector<int64_t> external_id;
  std::vector<uint32_t> args_begin;
  std::vector<uint8_t> args_count;

  size_t size() const { return ts_ns.size(); }
  int64_t end_ns(SliceId i) const { return ts_ns[i] + dur_ns[i]; }
};

enum class ArgType : uint8_t { kInt, kDouble, kString };

class ArgTable {
 public:
  std::vector<ArgKey> key;
  std::vector<ArgType> type;
  std::vector<int64_t> bits;  // int64, double bits, or StringId

  size_t size() const { return key.size(); }
  double AsDouble(uint32_t row) const {
    return type[row] == ArgType::kDouble ? std::bit_cast<double>(bits[row])
                                         : static_cast<double>(bits[row]);
  }
};

struct FlowTable {
  std::vector<SliceId> from;
  std::vector<SliceId> to;
  std::vector<FlowKind> kind;
  size_t size() const { return from.size(); }
};

struct CounterTable {
  std::vector<TrackId> track;  // a TrackKind::kCounter track per series
  std::vector<int64_t> ts_ns;
  std::vector<double> value;
  size_t size() const { return ts_ns.size(); }
};

// Allocator records (Kineto "[memory]" instant events, Ascend memory records).
struct MemoryEventTable {
  std::vector<int64_t> ts_ns;
  std::vector<int64_t> bytes;            // signed: + allocation, - free
  std::vector<int64_t> total_allocated;  // bytes after the event, -1 unknown
  std::vector<int64_t> total_reserved;   // bytes after the event, -1 unknown
  std::vector<int16_t> device_id;        // -1 = host memory
  std::vector<int8_t> device_type;       // the profiler's device-type code
  std::vector<uint64_t> addr;
  size_t size() const { return ts_ns.size(); }
};

struct Step {
  int64_t id = 0;        // N of ProfilerStep#N
  int64_t start_ns = 0;  // host-side marker start
  int64_t end_ns = 0;    // host-side marker end
  SliceId marker = 0;
};

struct DeviceProperties {
  int32_t id = -1;
  std::string name;
  int64_t total_memory_bytes = -1;
  int32_t compute_major = -1;
  int32_t compute_minor = -1;
  int32_t num_sms = -1;
};

struct RankInfo {
  std::optional<int64_t> rank;
  std::optional<int64_t> world_size;
  std::string path;  // the file the events came from
  SourceFormat source = SourceFormat::kChromeJson;
  DeviceType device_type = DeviceType::kUnknown;
  std::string device_name;
  std::string distributed_backend;      // "nccl", "gloo", "hccl", ...
  std::optional<int64_t> base_time_ns;  // Kineto baseTimeNanoseconds
  std::vector<DeviceProperties> devices;
  // Framework, platform and execution features (formats/framework_detection).
  FrameworkInfo runtime;
};

// What the importer saw, before any interpretation: every element of the
// event array, by phase.
struct RawCounts {
  uint64_t events = 0;
  std::map<std::string, uint64_t> by_phase;
};

struct Trace {
  RankInfo info;
  StringPool strings;
  std::vector<Track> tracks;
  SliceTable slices;
  ArgTable args;
  FlowTable flows;
  CounterTable counters;
  MemoryEventTable memory;
  std::vector<Step> steps;
  RawCounts raw;
  LoadStats load_stats;
  // Ascend-only detail (kernel PMU metrics, profiler config, memory records,
  // ...) for Ascend profiles; empty for every other source. model/ascend.h.
  std::optional<AscendData> ascend;

  std::string_view str(StringId id) const { return strings.Get(id); }
  std::string_view slice_name(SliceId i) const { return strings.Get(slices.name[i]); }

  // Argument lookup for one slice (linear in its few args).
  std::optional<int64_t> ArgInt(SliceId slice, ArgKey key) const;
  std::optional<double> ArgDouble(SliceId slice, ArgKey key) const;
  std::optional<std::string_view> ArgString(SliceId slice, ArgKey key) const;

  // The deepest slice of `track` containing time t (ts <= t < end, or an
  // instant at t), or -1 when none does. O(depth): a walk up the nesting.
  // For many times in order, InnermostSliceCursor (model/slice_cursor.h).
  int64_t InnermostSliceAt(TrackId track, int64_t t_ns) const;
};

}  // namespace perfdx::model
