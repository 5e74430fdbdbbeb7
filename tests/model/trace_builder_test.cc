#include "perfdx/model/trace_builder.h"

#include <algorithm>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "perfdx/model/slice_cursor.h"

namespace perfdx::model {
namespace {

// Everything on pid 1 is host, pid 2 is a device; "launch"/"kernel" names.
class TestClassifier final : public Classifier {
 public:
  void ClassifyTracks(std::vector<Track>& tracks, const StringPool&,
                      const std::vector<std::vector<StringId>>&) override {
    for (Track& t : tracks) {
      if (t.kind == TrackKind::kCounter || t.kind == TrackKind::kAsync) continue;
      t.kind = t.pid.number == 2 ? TrackKind::kDeviceStream : TrackKind::kHostThread;
    }
  }
  EventKind ClassifySlice(const Trace& trace, SliceId i, std::optional<int64_t>* step) override {
    const std::string_view name = trace.slice_name(i);
    if (name.rfind("step", 0) == 0) {
      *step = name.back() - '0';
      return EventKind::kStepMarker;
    }
    if (name == "launch") return EventKind::kRuntimeCall;
    if (name == "kernel") return EventKind::kComputeKernel;
    return EventKind::kFrameworkOp;
  }
  FlowKind ClassifyFlow(std::string_view, std::string_view) override { return FlowKind::kOther; }
  void DescribeRank(const Trace&, RankInfo*) override {}
};

RawEvent Slice(std::string_view name, int64_t pid, int64_t tid, int64_t ts, int64_t dur) {
  RawEvent e;
  e.phase = "X";
  e.name = name;
  e.pid = {pid, {}, false, true};
  e.tid = {tid, {}, false, true};
  e.ts_state = FieldState::kOk;
  e.ts_ns = ts;
  e.dur_state = FieldState::kOk;
  e.dur_ns = dur;
  return e;
}

Trace Build(TraceBuilder& b) {
  TestClassifier c;
  auto r = std::move(b).Finalize(c);
  EXPECT_TRUE(r.ok());
  return std::move(*r);
}

// The parallel reader's threads hash an event's strings (RawEvent::HashStrings)
// for the builder, those longer than 16 bytes (shorter ones the pool finds by
// their words): the trace is the one built from the same events unhashed,
// short and long strings alike, and a cleared event carries no hash into the
// next.
TEST(TraceBuilderTest, EventsHashedAheadBuildTheTraceOfTheirText) {
  auto events = [] {
    std::vector<RawEvent> out;
    for (int k = 0; k < 6; ++k) {
      RawEvent e = Slice(k % 2 == 0 ? "aten::mm" : "ampere_sgemm_128x64_nn", 1, 0, 100 * k, 50);
      e.category = k % 2 == 0 ? "cpu_op" : "kernel";
      e.tid = {0, k % 3 == 0 ? "stream 7" : "the stream of eight", true, true};
      e.args.push_back({ArgKey::kInputDims, ArgType::kString, 0, 0,
                        k < 3 ? "[1, 1, 1]" : "[[2, 1, 1], [64, 1, 1]]"});
      out.push_back(e);
    }
    return out;
  };
  TraceBuilder plain({});
  for (const RawEvent& e : events()) plain.AddEvent(e);
  TraceBuilder hashed({});
  for (RawEvent& e : events()) {
    e.HashStrings();
    hashed.AddEvent(e);
  }
  const Trace a = Build(plain);
  const Trace b = Build(hashed);
  ASSERT_EQ(a.slices.size(), 6u);
  ASSERT_EQ(b.slices.size(), 6u);
  EXPECT_EQ(a.strings.size(), b.strings.size());  // no text interned twice
  ASSERT_EQ(a.tracks.size(), b.tracks.size());
  for (SliceId i = 0; i < 6; ++i) {
    EXPECT_EQ(a.slice_name(i), b.slice_name(i));
    EXPECT_EQ(a.strings.Get(a.slices.category[i]), b.strings.Get(b.slices.category[i]));
    EXPECT_EQ(a.ArgString(i, ArgKey::kInputDims), b.ArgString(i, ArgKey::kInputDims));
    EXPECT_EQ(a.slices.track[i], b.slices.track[i]);
  }
  RawEvent e = events()[1];
  e.HashStrings();
  EXPECT_TRUE(e.strings_hashed && e.tid.text_hashed);
  EXPECT_EQ(e.tid.text_hash, StringPool::Hash("the stream of eight"));
  EXPECT_EQ(e.name_hash, StringPool::Hash("ampere_sgemm_128x64_nn"));
  RawEvent short_tid = events()[0];
  short_tid.HashStrings();
  EXPECT_FALSE(short_tid.tid.text_hashed);  // "stream 7": found by its words
  e.Clear();
  EXPECT_FALSE(e.strings_hashed || e.tid.text_hashed || e.pid.text_hashed);
}

// A decoding thread puts a chunk's args in one store: each event reads its
// own run of it, as an event with its own vector does, and HashStrings hashes
// its own string args only.
TEST(TraceBuilderTest, EventsInASharedArgStoreReadTheirOwnArgs) {
  std::vector<RawArg> store;
  RawEvent first;
  RawEvent second;
  first.shared_args = &store;
  second.shared_args = &store;
  first.Clear();
  first.AddArg({ArgKey::kCorrelation, ArgType::kInt, 7});
  first.AddArg({ArgKey::kInputType, ArgType::kString, 0, 0, "a string longer than sixteen"});
  second.Clear();
  second.AddArg({ArgKey::kStream, ArgType::kInt, 3});
  ASSERT_EQ(first.Args().size(), 2u);
  ASSERT_EQ(second.Args().size(), 1u);
  EXPECT_EQ(first.Args()[0].int_value, 7);
  EXPECT_EQ(first.Args()[1].key, ArgKey::kInputType);
  EXPECT_EQ(second.Args()[0].key, ArgKey::kStream);
  EXPECT_EQ(second.Args()[0].int_value, 3);
  EXPECT_TRUE(first.args.empty());  // nothing in the events' own vectors
  first.HashStrings();
  EXPECT_EQ(first.Args()[1].string_hash, StringPool::Hash("a string longer than sixteen"));
  EXPECT_EQ(second.Args()[0].string_hash, 0u);

  // Without a store, the event's own vector.
  RawEvent own;
  own.AddArg({ArgKey::kStream, ArgType::kInt, 1});
  ASSERT_EQ(own.Args().size(), 1u);
  EXPECT_EQ(own.args.size(), 1u);
  EXPECT_EQ(store.size(), 3u);
}

TEST(TraceBuilderTest, SortsPerTrackAndComputesNesting) {
  TraceBuilder b({});
  // Out of order on purpose; "child" nests in "outer"; "sibling" starts where
  // "outer" ends and must not be its child.
  b.AddEvent(Slice("child", 1, 1, 20, 10));
  b.AddEvent(Slice("outer", 1, 1, 10, 40));
  b.AddEvent(Slice("sibling", 1, 1, 50, 5));
  b.AddEvent(Slice("other_thread", 1, 7, 0, 100));
  Trace t = Build(b);
  ASSERT_EQ(t.slices.size(), 4u);
  ASSERT_EQ(t.tracks.size(), 2u);
  const Track& main = t.tracks[t.slices.track[0]];
  ASSERT_EQ(main.slice_count(), 3u);
  EXPECT_EQ(t.slice_name(main.slice_begin + 0), "outer");
  EXPECT_EQ(t.slice_name(main.slice_begin + 1), "child");
  EXPECT_EQ(t.slice_name(main.slice_begin + 2), "sibling");
  EXPECT_EQ(t.slices.parent[main.slice_begin + 1], static_cast<int32_t>(main.slice_begin));
  EXPECT_EQ(t.slices.depth[main.slice_begin + 1], 1);
  EXPECT_EQ(t.slices.parent[main.slice_begin + 2], kNoParent);
  EXPECT_EQ(t.InnermostSliceAt(t.slices.track[main.slice_begin], 25),
            static_cast<int64_t>(main.slice_begin + 1));
  EXPECT_EQ(t.InnermostSliceAt(t.slices.track[main.slice_begin], 45), main.slice_begin);
  EXPECT_EQ(t.InnermostSliceAt(t.slices.track[main.slice_begin], 5), -1);
}

// A track of thousands of short runs (Kineto writes operators as they end,
// children before parents) is ordered by a radix sort of the times: the order
// is (ts, longest first, then file order), over times that need several
// passes (negative, and 2^50 ns apart), with ties of ts and of (ts, dur). The
// expected order comes from std::stable_sort on the same keys.
TEST(TraceBuilderTest, ManyRunsAreOrderedAsAStableSortOrdersThem) {
  struct Event {
    int64_t ts;
    int64_t dur;
    std::string name;
  };
  std::vector<Event> events;
  uint64_t x = 12345;
  for (int i = 0; i < 5000; ++i) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    const int64_t base = static_cast<int64_t>((x >> 33) % 400) - 200;  // many equal times
    const int64_t ts = base * (int64_t{1} << 40) / 97 + static_cast<int64_t>((x >> 20) % 3);
    events.push_back({ts, static_cast<int64_t>((x >> 8) % 4), "s" + std::to_string(i)});
  }
  TraceBuilder b({});
  for (const Event& e : events) b.AddEvent(Slice(e.name, 1, 1, e.ts, e.dur));
  Trace t = Build(b);
  std::vector<Event> expected = events;
  std::stable_sort(expected.begin(), expected.end(), [](const Event& l, const Event& r) {
    return l.ts != r.ts ? l.ts < r.ts : l.dur > r.dur;
  });
  ASSERT_EQ(t.slices.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    ASSERT_EQ(t.slice_name(static_cast<SliceId>(i)), expected[i].name) << i;
    ASSERT_EQ(t.slices.ts_ns[i], expected[i].ts);
  }
}

// InnermostSliceCursor answers as InnermostSliceAt does, in one sweep (issue
// #17): nesting within the tolerance past a parent's end, a partial overlap
// kept at its neighbour's level, an instant, a time before the last one.
TEST(TraceBuilderTest, InnermostSliceCursorSweepsTheNesting) {
  TraceBuilder b({});
  b.AddEvent(Slice("a", 1, 1, 0, 100));
  b.AddEvent(Slice("b", 1, 1, 10, 50));
  b.AddEvent(Slice("c", 1, 1, 20, 580));  // ends 540 ns past b: still b's child
  b.AddEvent(Slice("i", 1, 1, 30, 0));
  b.AddEvent(Slice("overlap", 1, 1, 70, 1930));  // ends 1400 ns past c: b's child
  b.AddEvent(Slice("late", 1, 1, 3000, 10));
  Trace t = Build(b);
  ASSERT_EQ(t.tracks.size(), 1u);
  ASSERT_EQ(t.slices.size(), 6u);
  auto id = [&](std::string_view name) -> int64_t {
    for (SliceId i = 0; i < t.slices.size(); ++i) {
      if (t.slice_name(i) == name) return i;
    }
    return -2;
  };
  ASSERT_EQ(t.slices.parent[static_cast<SliceId>(id("c"))], id("b"));
  ASSERT_EQ(t.slices.parent[static_cast<SliceId>(id("overlap"))], id("b"));
  // By hand, from the definition: the deepest slice with ts <= t < end, or
  // an instant at t.
  const std::vector<std::pair<int64_t, int64_t>> expected = {
      {-5, -1},
      {0, id("a")},
      {10, id("b")},
      {25, id("c")},
      {30, id("i")},
      {30, id("i")},
      {31, id("c")},
      {65, id("c")},
      {70, id("overlap")},
      {1999, id("overlap")},
      {2000, -1},
      {2500, -1},
      {3000, id("late")},
      {3010, -1},
      {25, id("c")},
      {3005, id("late")},
  };
  InnermostSliceCursor cursor(t, 0);
  for (const auto& [at, slice] : expected) {
    EXPECT_EQ(cursor.At(at), slice) << at;
    EXPECT_EQ(t.InnermostSliceAt(0, at), slice) << at;
  }
}

// The analyses compute what encloses each slice in one pass in index order
// (issue #17), which needs every parent before its children, partial
// overlaps (kept at their neighbour's level) and equal starts included.
TEST(TraceBuilderTest, ParentsComeBeforeTheirChildren) {
  TraceBuilder b({});
  b.AddEvent(Slice("c", 1, 1, 30, 5));
  b.AddEvent(Slice("b", 1, 1, 20, 40));
  b.AddEvent(Slice("a", 1, 1, 10, 100));
  b.AddEvent(Slice("same_start", 1, 1, 10, 50));
  b.AddEvent(Slice("overlap", 1, 1, 55, 100));  // ends past "b": kept at b's level
  b.AddEvent(Slice("in_overlap", 1, 1, 120, 5));
  Trace t = Build(b);
  ASSERT_EQ(t.slices.size(), 6u);
  int nested = 0;
  for (SliceId i = 0; i < t.slices.size(); ++i) {
    if (t.slices.parent[i] == kNoParent) continue;
    ++nested;
    EXPECT_LT(t.slices.parent[i], static_cast<int32_t>(i)) << t.slice_name(i);
  }
  // same_start in a, b in same_start, c in b; overlap partially overlaps b
  // and takes b's parent; in_overlap in overlap. Only a is top level.
  EXPECT_EQ(nested, 5);
}

TEST(TraceBuilderTest, BeginEndPairsAndUnterminatedBegins) {
  TraceBuilder b({});
  RawEvent begin = Slice("outer", 1, 1, 100, 0);
  begin.phase = "B";
  b.AddEvent(begin);
  RawEvent inner = begin;
  inner.name = "inner";
  inner.ts_ns = 110;
  b.AddEvent(inner);
  RawEvent end = begin;
  end.phase = "E";
  end.ts_ns = 150;
  b.AddEvent(end);  // closes "inner"
  RawEvent stray = end;
  stray.pid.number = 9;  // an E with nothing open
  b.AddEvent(stray);
  b.AddEvent(Slice("late", 1, 1, 300, 10));  // the trace's last timestamp is 310
  Trace t = Build(b);
  EXPECT_EQ(t.load_stats.Get(LoadStat::kEndWithoutBegin), 1u);
  EXPECT_EQ(t.load_stats.Get(LoadStat::kBeginWithoutEnd), 1u);
  for (SliceId i = 0; i < t.slices.size(); ++i) {
    if (t.slice_name(i) == "inner") {
      EXPECT_EQ(t.slices.dur_ns[i], 40);
    }
    if (t.slice_name(i) == "outer") {
      EXPECT_EQ(t.slices.dur_ns[i], 210);  // closed at 310
      EXPECT_TRUE(t.slices.flags[i] & kSliceUnterminated);
    }
  }
}

TEST(TraceBuilderTest, InvalidEventsAreCountedNotKept) {
  TraceBuilder b({});
  RawEvent negative = Slice("neg", 1, 1, 10, -5);
  b.AddEvent(negative);
  RawEvent no_ts = Slice("no_ts", 1, 1, 0, 5);
  no_ts.ts_state = FieldState::kMissing;
  b.AddEvent(no_ts);
  RawEvent bad_ts = Slice("bad_ts", 1, 1, 0, 5);
  bad_ts.ts_state = FieldState::kInvalid;
  b.AddEvent(bad_ts);
  RawEvent weird = Slice("weird", 1, 1, 0, 5);
  weird.phase = "Q";
  b.AddEvent(weird);
  RawEvent no_phase = Slice("no_phase", 1, 1, 0, 5);
  no_phase.phase = {};
  b.AddEvent(no_phase);
  b.AddEvent(Slice("too_long", 1, 1, 0, kMaxDurationNs + 1));
  b.AddEvent(Slice("far_future", 1, 1, kMaxTimestampNs + 1, 10));
  b.AddBadEvent(LoadStat::kEventNotObject);
  Trace t = Build(b);
  EXPECT_EQ(t.slices.size(), 0u);
  EXPECT_EQ(t.raw.events, 8u);
  EXPECT_EQ(t.load_stats.Get(LoadStat::kEventNegativeDur), 1u);
  EXPECT_EQ(t.load_stats.Get(LoadStat::kEventMissingTs), 1u);
  EXPECT_EQ(t.load_stats.Get(LoadStat::kEventInvalidTs), 1u);
  EXPECT_EQ(t.load_stats.Get(LoadStat::kEventTsOutOfRange), 1u);  // far_future
  EXPECT_EQ(t.load_stats.Get(LoadStat::kEventUnknownPhase), 1u);
  EXPECT_EQ(t.load_stats.Get(LoadStat::kEventMissingPhase), 1u);
  EXPECT_EQ(t.load_stats.Get(LoadStat::kEventInvalidDur), 1u);
  EXPECT_EQ(t.load_stats.Get(LoadStat::kEventNotObject), 1u);
  EXPECT_EQ(t.raw.by_phase.at("unknown"), 1u);
  EXPECT_EQ(t.raw.by_phase.at("missing"), 1u);
}

// Regression: ts + dur was checked as `dur > INT64_MAX - ts`, which itself
// overflows for negative ts (found by UBSan).
TEST(TraceBuilderTest, ExtremeTimesNeverOverflow) {
  // The limits (trace_builder.h) keep every end, difference and span of a
  // trace's times inside int64: the extremes are kept, one past them is not.
  TraceBuilder b({});
  b.AddEvent(Slice("earliest_longest", 1, 1, kMinTimestampNs, kMaxDurationNs));
  b.AddEvent(Slice("latest_longest", 1, 1, kMaxTimestampNs, kMaxDurationNs));
  b.AddEvent(Slice("before_the_range", 1, 1, kMinTimestampNs - 1, 1));
  b.AddEvent(Slice("too_long", 1, 1, 0, kMaxDurationNs + 1));
  RawEvent begin = Slice("open", 1, 2, kMinTimestampNs, 0);
  begin.phase = "B";
  b.AddEvent(begin);
  RawEvent end = begin;
  end.phase = "E";
  end.ts_ns = kMaxTimestampNs;
  b.AddEvent(end);
  Trace t = Build(b);
  EXPECT_EQ(t.load_stats.Get(LoadStat::kEventTsOutOfRange), 1u);
  EXPECT_EQ(t.load_stats.Get(LoadStat::kEventInvalidTs), 0u);
  EXPECT_EQ(t.load_stats.Get(LoadStat::kEventInvalidDur), 1u);
  ASSERT_EQ(t.slices.size(), 3u);
  int64_t first = INT64_MAX, last = INT64_MIN;
  for (SliceId i = 0; i < t.slices.size(); ++i) {
    first = std::min(first, t.slices.ts_ns[i]);
    last = std::max(last, t.slices.end_ns(i));
    if (t.slice_name(i) == "open") {
      EXPECT_EQ(t.slices.dur_ns[i], kMaxTimestampNs - kMinTimestampNs);
    }
  }
  // The whole span, 2^62 + 2^60 + 2^61 ns, still fits.
  EXPECT_EQ(last - first, (int64_t{1} << 62) + (int64_t{1} << 60) + (int64_t{1} << 61));
}

TEST(TraceBuilderTest, CorrelationLinksLaunchToDeviceWork) {
  TraceBuilder b({});
  RawEvent launch = Slice("launch", 1, 1, 100, 5);
  launch.args.push_back({ArgKey::kCorrelation, ArgType::kInt, 77});
  b.AddEvent(launch);
  RawEvent kernel = Slice("kernel", 2, 7, 120, 30);
  kernel.args.push_back({ArgKey::kCorrelation, ArgType::kInt, 77});
  kernel.args.push_back({ArgKey::kInputDims, ArgType::kString, 0, 0, "[1, 1, 1]"});
  b.AddEvent(kernel);
  // An explicit flow restating the same link must not duplicate it.
  RawEvent s;
  s.phase = "s";
  s.pid = launch.pid;
  s.tid = launch.tid;
  s.ts_state = FieldState::kOk;
  s.ts_ns = 100;
  s.id = {77, {}, false, true};
  s.category = "ac2g";
  RawEvent f = s;
  f.phase = "f";
  f.pid = kernel.pid;
  f.tid = kernel.tid;
  f.ts_ns = 120;
  f.binding = "e";
  b.AddEvent(s);
  b.AddEvent(f);
  Trace t = Build(b);
  ASSERT_EQ(t.flows.size(), 1u);
  EXPECT_EQ(t.slice_name(t.flows.from[0]), "launch");
  EXPECT_EQ(t.slice_name(t.flows.to[0]), "kernel");
  EXPECT_EQ(t.flows.kind[0], FlowKind::kLaunch);  // one flow per (from, to) pair
  SliceId k = t.flows.to[0];
  EXPECT_EQ(t.slices.correlation[k], 77);
  EXPECT_EQ(t.ArgString(k, ArgKey::kInputDims), "[1, 1, 1]");
  EXPECT_FALSE(t.ArgInt(k, ArgKey::kCorrelation));  // kept in its column, not in args
}

// Flows come out ordered by (from, to), one per pair, whatever order their
// records and launches came in: explicit flows B -> A, one restating the
// launch L -> K, and A -> B, written in that order; the host slices were
// written B, L, A and run A, L, B.
TEST(TraceBuilderTest, FlowsAreOrderedByTheirEndsOnePerPair) {
  TraceBuilder b({});
  b.AddEvent(Slice("op_b", 1, 1, 200, 50));
  RawEvent launch = Slice("launch", 1, 1, 100, 5);
  launch.args.push_back({ArgKey::kCorrelation, ArgType::kInt, 77});
  b.AddEvent(launch);
  b.AddEvent(Slice("op_a", 1, 1, 0, 50));
  RawEvent kernel = Slice("kernel", 2, 7, 120, 30);
  kernel.args.push_back({ArgKey::kCorrelation, ArgType::kInt, 77});
  b.AddEvent(kernel);
  // A flow record inside the slice at `ts_ns` on (pid, tid).
  auto record = [](std::string_view phase, int64_t id, int64_t pid, int64_t tid, int64_t ts_ns) {
    RawEvent e;
    e.phase = phase;
    e.pid = {pid, {}, false, true};
    e.tid = {tid, {}, false, true};
    e.ts_state = FieldState::kOk;
    e.ts_ns = ts_ns;
    e.id = {id, {}, false, true};
    e.category = "fwdbwd";
    e.name = "fwdbwd";
    e.binding = "e";
    return e;
  };
  b.AddEvent(record("s", 1, 1, 1, 210));  // B -> A
  b.AddEvent(record("f", 1, 1, 1, 10));
  b.AddEvent(record("s", 2, 1, 1, 101));  // L -> K, as the launch
  b.AddEvent(record("f", 2, 2, 7, 130));
  b.AddEvent(record("s", 3, 1, 1, 20));  // A -> B
  b.AddEvent(record("f", 3, 1, 1, 220));
  Trace t = Build(b);
  std::vector<std::pair<std::string_view, std::string_view>> pairs;
  for (size_t i = 0; i < t.flows.size(); ++i) {
    pairs.emplace_back(t.slice_name(t.flows.from[i]), t.slice_name(t.flows.to[i]));
    if (i > 0) {
      EXPECT_LT(std::pair(t.flows.from[i - 1], t.flows.to[i - 1]),
                std::pair(t.flows.from[i], t.flows.to[i]));
    }
  }
  const std::vector<std::pair<std::string_view, std::string_view>> expected = {
      {"op_a", "op_b"}, {"launch", "kernel"}, {"op_b", "op_a"}};
  EXPECT_EQ(pairs, expected);
  ASSERT_EQ(t.flows.size(), 3u);
  EXPECT_EQ(t.flows.kind[0], FlowKind::kOther);
  EXPECT_EQ(t.flows.kind[1], FlowKind::kLaunch);  // the least kind of the pair
  EXPECT_EQ(t.flows.kind[2], FlowKind::kOther);
}

// A flow record of the flows below: an 's' on the host thread (pid 1, tid
// 1), a 't' or 'f' on the device's (pid 2, tid 7).
RawEvent FlowRecord(char phase, int64_t ts_ns, const RawIdView& id, std::string_view category,
                    std::string_view name, std::string_view binding) {
  RawEvent e;
  e.phase = phase == 's' ? "s" : "f";
  e.pid = {phase == 's' ? 1 : 2, {}, false, true};
  e.tid = {phase == 's' ? 1 : 7, {}, false, true};
  e.ts_state = FieldState::kOk;
  e.ts_ns = ts_ns;
  e.id = id;
  e.category = category;
  e.name = name;
  e.binding = binding;
  return e;
}

// The (from, to) slice names of the trace's flows, sorted.
std::vector<std::pair<std::string_view, std::string_view>> SortedFlowPairs(const Trace& t) {
  std::vector<std::pair<std::string_view, std::string_view>> pairs;
  for (size_t i = 0; i < t.flows.size(); ++i) {
    pairs.emplace_back(t.slice_name(t.flows.from[i]), t.slice_name(t.flows.to[i]));
  }
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

// Flow records bind to their slice, on their own track, whatever order their
// ids and times come in: here a track's ids run against its times (id 9 is
// first in time, last by id) and the records arrive neither by id nor by time,
// so SortRawFlows' per-track merge has work to do. With `binding` "e" each
// 'f' binds to the slice enclosing it; without, to the next slice, and its
// track (the device's, the last) holds no record bound the first way
// (regression: the by-time order indexed past its tracks there).
void ExpectFlowsBindInAnyOrder(std::string_view binding, bool text_ids = false) {
  TraceBuilder b({});
  const char* ops[] = {"op_a", "op_b", "op_c", "op_d"};
  const char* kernels[] = {"kernel_a", "kernel_b", "kernel_c", "kernel_d"};
  const int64_t ids[] = {9, 3, 5, 1};  // flow k: ops[k] -> kernels[k]
  const char* text[] = {"9", "3", "5", "1"};
  for (int k = 0; k < 4; ++k) {
    b.AddEvent(Slice(ops[k], 1, 1, 1000 * k, 100));
    b.AddEvent(Slice(kernels[k], 2, 7, 10000 + 1000 * k, 100));
  }
  auto flow_record = [&](int k, char phase) {
    // Inside its slice; an 'f' bound to the next slice comes just before it.
    const int64_t ts_ns =
        phase == 's' ? 1000 * k + 50 : 10000 + 1000 * k + (binding == "e" ? 50 : -10);
    const RawIdView id =
        text_ids ? RawIdView{0, text[k], true, true} : RawIdView{ids[k], {}, false, true};
    return FlowRecord(phase, ts_ns, id, "fwdbwd", "fwdbwd", binding);
  };
  for (int k : {2, 0, 3, 1}) b.AddEvent(flow_record(k, 'f'));
  for (int k : {1, 3, 0, 2}) b.AddEvent(flow_record(k, 's'));
  Trace t = Build(b);
  ASSERT_EQ(t.flows.size(), 4u) << binding;
  const auto pairs = SortedFlowPairs(t);
  for (int k = 0; k < 4; ++k) {
    EXPECT_EQ(pairs[k].first, ops[k]) << binding;
    EXPECT_EQ(pairs[k].second, kernels[k]) << binding;
  }
}

TEST(TraceBuilderTest, FlowRecordsBindToTheEnclosingSliceInAnyOrder) {
  ExpectFlowsBindInAnyOrder("e");
}

TEST(TraceBuilderTest, FlowRecordsBindToTheNextSliceInAnyOrder) {
  ExpectFlowsBindInAnyOrder("");
}

// Text ids take SortRawFlows' other path (one sort of the whole key).
TEST(TraceBuilderTest, FlowRecordsWithTextIdsBindInAnyOrder) {
  ExpectFlowsBindInAnyOrder("e", /*text_ids=*/true);
  ExpectFlowsBindInAnyOrder("", /*text_ids=*/true);
}

// Two flows may share an id number and differ by category (Kineto's ac2g and
// fwdbwd both number from 0 in some traces): the records of one number are
// sorted by the rest of the key, so each 'f' meets its own 's'.
TEST(TraceBuilderTest, FlowsSharingAnIdNumberAreToldApartByCategory) {
  TraceBuilder b({});
  b.AddEvent(Slice("op_a", 1, 1, 0, 100));
  b.AddEvent(Slice("op_b", 1, 1, 1000, 100));
  b.AddEvent(Slice("kernel_a", 2, 7, 10000, 100));
  b.AddEvent(Slice("kernel_b", 2, 7, 11000, 100));
  auto record = [](char phase, int64_t ts_ns, std::string_view category) {
    return FlowRecord(phase, ts_ns, {5, {}, false, true}, category, "link", "e");
  };
  // In file order: the second flow's 'f', the first's 'f', then the 's's.
  b.AddEvent(record('f', 11050, "fwdbwd"));
  b.AddEvent(record('f', 10050, "ac2g"));
  b.AddEvent(record('s', 1050, "fwdbwd"));
  b.AddEvent(record('s', 50, "ac2g"));
  Trace t = Build(b);
  ASSERT_EQ(t.flows.size(), 2u);
  const auto pairs = SortedFlowPairs(t);
  EXPECT_EQ(pairs[0], std::make_pair(std::string_view("op_a"), std::string_view("kernel_a")));
  EXPECT_EQ(pairs[1], std::make_pair(std::string_view("op_b"), std::string_view("kernel_b")));
}

TEST(TraceBuilderTest, StepsCountersAndMetadata) {
  TraceBuilder b({});
  b.AddEvent(Slice("step2", 1, 1, 200, 100));
  b.AddEvent(Slice("step1", 1, 1, 100, 100));
  b.AddEvent(Slice("step1", 1, 1, 400, 100));  // duplicate id
  RawEvent meta;
  meta.phase = "M";
  meta.name = "process_name";
  meta.pid = {1, {}, false, true};
  meta.meta_name = "python";
  b.AddEvent(meta);
  RawEvent counter;
  counter.phase = "C";
  counter.name = "mem";
  counter.pid = {1, {}, false, true};
  counter.ts_state = FieldState::kOk;
  counter.ts_ns = 300;
  counter.numeric_args = {{"used", 1.5}, {"free", 2.5}};
  b.AddEvent(counter);
  counter.ts_ns = 250;
  b.AddEvent(counter);
  Trace t = Build(b);
  ASSERT_EQ(t.steps.size(), 2u);
  EXPECT_EQ(t.steps[0].id, 1);
  EXPECT_EQ(t.steps[0].start_ns, 100);
  EXPECT_EQ(t.steps[1].id, 2);
  EXPECT_EQ(t.load_stats.Get(LoadStat::kDuplicateStep), 1u);
  ASSERT_EQ(t.counters.size(), 4u);
  EXPECT_EQ(t.counters.ts_ns[0], 250);  // sorted by (series, ts)
  EXPECT_EQ(t.str(t.tracks[t.counters.track[0]].thread_name), "mem.used");
  EXPECT_EQ(t.tracks[t.counters.track[0]].kind, TrackKind::kCounter);
  EXPECT_EQ(t.str(t.tracks[t.slices.track[0]].process_name), "python");
  EXPECT_EQ(t.raw.by_phase.at("M"), 1u);
}

}  // namespace
}  // namespace perfdx::model
