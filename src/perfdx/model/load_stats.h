// Named load statistics: what an importer skipped or repaired, and why. A bad
// event is not a failed load: it increments one of these counters and the
// import goes on. `perfdx info` prints every nonzero counter.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace perfdx::model {

enum class StatSeverity : uint8_t {
  kInfo,     // expected in real traces; nothing lost
  kWarning,  // data was skipped or repaired
};

// X(enum, name, severity, description)
#define PERFDX_LOAD_STATS(X)                                                                       \
  X(kEventNotObject, "event_not_object", kWarning, "array elements that are not JSON objects")     \
  X(kEventInvalidJson, "event_invalid_json", kWarning, "events that are not valid JSON")           \
  X(kEventTooLarge, "event_too_large", kWarning, "events larger than the per-event size limit")    \
  X(kEventMissingPhase, "event_missing_phase", kWarning, "events without a \"ph\" string")         \
  X(kEventUnknownPhase, "event_unknown_phase", kWarning, "events with a phase outside the format") \
  X(kEventMissingTs, "event_missing_ts", kWarning, "timed events without \"ts\"")                  \
  X(kEventInvalidTs, "event_invalid_ts", kWarning, "events whose ts is not a number")              \
  X(kEventTsOutOfRange, "event_ts_out_of_range", kWarning,                                         \
    "events whose ts lies outside the times a trace may hold (1896 to 2116 as epoch time)")        \
  X(kEventInvalidDur, "event_invalid_dur", kWarning,                                               \
    "X events whose dur is missing, invalid or longer than 36 years")                              \
  X(kEventNegativeDur, "event_negative_dur", kWarning, "X events with a negative duration")        \
  X(kEventInvalidUtf8Replaced, "event_invalid_utf8_replaced", kWarning,                            \
    "events whose invalid UTF-8 bytes were replaced by '?'")                                       \
  X(kEventControlCharsReplaced, "event_control_chars_replaced", kWarning,                          \
    "events whose raw control characters in strings were replaced by spaces")                      \
  X(kEventRepaired, "event_repaired", kWarning, "events kept after repairing invalid JSON")        \
  X(kEndWithoutBegin, "end_without_begin", kWarning, "E events with no open B on their thread")    \
  X(kBeginWithoutEnd, "begin_without_end", kWarning,                                               \
    "B events never ended, closed at the last timestamp of the trace")                             \
  X(kAsyncEndWithoutBegin, "async_end_without_begin", kWarning, "e events with no matching b")     \
  X(kAsyncBeginWithoutEnd, "async_begin_without_end", kWarning,                                    \
    "b events never ended, closed at the last timestamp of the trace")                             \
  X(kCounterInvalidValue, "counter_invalid_value", kWarning,                                       \
    "counter series that are not numbers")                                                         \
  X(kMemoryValueOutOfRange, "memory_value_out_of_range", kWarning,                                 \
    "memory event values beyond 64-bit integers, read as not recorded")                            \
  X(kMetadataInvalid, "metadata_invalid", kWarning, "M events without a usable name")              \
  X(kFlowUnmatched, "flow_unmatched", kInfo, "flow ends whose other end is not in the trace")      \
  X(kFlowUnbound, "flow_unbound", kInfo, "flow ends that lie inside no slice")                     \
  X(kSliceOverlap, "slice_partial_overlap", kInfo,                                                 \
    "slices overlapping an earlier slice on their track without nesting in it")                    \
  X(kDuplicateStep, "duplicate_step", kInfo, "ProfilerStep markers seen more than once")           \
  X(kTopLevelValueSkipped, "top_level_value_skipped", kInfo,                                       \
    "top-level keys too large or malformed to read (the events are unaffected)")                   \
  X(kTrailingData, "trailing_data", kWarning, "non-whitespace bytes after the JSON document")      \
  X(kTruncated, "truncated", kWarning, "files that end before their trace is closed")              \
  X(kSideRowSkipped, "side_file_row_skipped", kWarning,                                            \
    "rows of Ascend side files and DB tables skipped (malformed or missing a required cell)")      \
  X(kSideFileUnreadable, "side_file_unreadable", kWarning,                                         \
    "Ascend side files or DB tables that could not be read (named in the warnings)")               \
  X(kAscendContainerTask, "ascend_container_task", kInfo,                                          \
    "DB device tasks without operator info (FFTS+ / HCCL launch containers), left out as "         \
    "trace_view.json leaves them out")

enum class LoadStat : uint8_t {
#define PERFDX_STAT_ENUM(e, name, sev, desc) e,
  PERFDX_LOAD_STATS(PERFDX_STAT_ENUM)
#undef PERFDX_STAT_ENUM
      kCount
};
inline constexpr size_t kLoadStatCount = static_cast<size_t>(LoadStat::kCount);

struct LoadStatInfo {
  std::string_view name;
  StatSeverity severity;
  std::string_view description;
};
const LoadStatInfo& GetLoadStatInfo(LoadStat stat);

class LoadStats {
 public:
  void Add(LoadStat stat, uint64_t n = 1) { counts_[static_cast<size_t>(stat)] += n; }
  uint64_t Get(LoadStat stat) const { return counts_[static_cast<size_t>(stat)]; }
  // Messages that need more than a counter (e.g. where a file was cut).
  void AddWarning(std::string message) { warnings_.push_back(std::move(message)); }
  const std::vector<std::string>& warnings() const { return warnings_; }

 private:
  std::array<uint64_t, kLoadStatCount> counts_{};
  std::vector<std::string> warnings_;
};

}  // namespace perfdx::model
