#include "perfdx/report/annotation_events.h"

#include <fmt/format.h>

#include "perfdx/base/json_writer.h"
#include "perfdx/report/units.h"

namespace perfdx::report {
namespace {

// ns as the trace's µs, exactly: "1623142623460172.125".
std::string Micros(int64_t ns) {
  const uint64_t magnitude = ns < 0 ? 0 - static_cast<uint64_t>(ns) : static_cast<uint64_t>(ns);
  return fmt::format("{}{}.{:03}", ns < 0 ? "-" : "", magnitude / 1000, magnitude % 1000);
}

class EventList {
 public:
  explicit EventList(int64_t pid) : pid_(pid) {}

  void Metadata(const char* name, int64_t tid, const char* arg, const std::string& value) {
    Event([&](JsonWriter& w) {
      w.Key("ph").String("M");
      w.Key("name").String(name);
      w.Key("pid").Int(pid_);
      w.Key("tid").Int(tid);
      w.Key("args").BeginObject().Key(arg).String(value).EndObject();
    });
  }

  void SortIndex(int64_t sort_index) {
    Event([&](JsonWriter& w) {
      w.Key("ph").String("M");
      w.Key("name").String("process_sort_index");
      w.Key("pid").Int(pid_);
      w.Key("tid").Int(0);
      w.Key("args").BeginObject().Key("sort_index").Int(sort_index).EndObject();
    });
  }

  // A complete event; `args` writes its args object's members.
  template <typename Args>
  void Slice(int64_t tid, const std::string& name, int64_t start_ns, int64_t dur_ns, Args args) {
    Event([&](JsonWriter& w) {
      w.Key("ph").String("X");
      w.Key("cat").String(model::kPerfdxAnnotationCategory);
      w.Key("name").String(name);
      w.Key("pid").Int(pid_);
      w.Key("tid").Int(tid);
      w.Key("ts").Number(Micros(start_ns));
      w.Key("dur").Number(Micros(dur_ns));
      w.Key("args").BeginObject();
      args(w);
      w.EndObject();
    });
  }

  std::string Take() { return std::move(out_); }

 private:
  template <typename Body>
  void Event(Body body) {
    JsonWriter w(/*indent=*/0);
    w.BeginObject();
    body(w);
    w.EndObject();
    if (!out_.empty()) out_ += ",\n";
    out_ += w.Take();
  }

  int64_t pid_;
  std::string out_;
};

std::string GapName(const analysis::Gap& gap) {
  std::string name = fmt::format("idle: {}", gap.cause.kind.empty() ? "unknown" : gap.cause.kind);
  if (!gap.cause.name.empty()) name += fmt::format(" ({})", gap.cause.name);
  return name;
}

void GapArgs(JsonWriter& w, const analysis::Gap& gap) {
  w.Key("cause").String(gap.cause.kind);
  if (!gap.cause.name.empty()) w.Key("cause_name").String(gap.cause.name);
  w.Key("cause_coverage").Double(gap.cause.coverage);
  w.Key("position").String(gap.position);
  w.Key("step").Int(gap.step);
  w.Key("dur_ns").Int(gap.dur_ns);
}

}  // namespace

std::string RenderAnnotationEvents(const AnalyzeRank& rank,
                                   const std::vector<const advisor::Finding*>& job_findings,
                                   int64_t pid) {
  const analysis::RankAnalysis& a = rank.analysis;
  constexpr int64_t kGapsTid = 1, kStallsTid = 2, kCommTid = 3, kFirstFindingTid = 10;
  EventList events(pid);
  const model::RankInfo& info = a.info();
  events.Metadata("process_name", 0, "name",
                  info.rank ? fmt::format("perfdx: rank {}", *info.rank) : std::string("perfdx"));
  events.SortIndex(-1);  // above the trace's own processes
  events.Metadata("thread_name", kGapsTid, "name", "idle gaps");
  events.Metadata("thread_name", kStallsTid, "name", "data-loading stalls");
  events.Metadata("thread_name", kCommTid, "name", "exposed communication");

  for (const analysis::Gap& gap : a.gaps.gaps) {
    events.Slice(kGapsTid, GapName(gap), gap.start_ns, gap.dur_ns,
                 [&](JsonWriter& w) { GapArgs(w, gap); });
    if (gap.cause.kind == "data_loader") {
      events.Slice(kStallsTid, GapName(gap), gap.start_ns, gap.dur_ns,
                   [&](JsonWriter& w) { GapArgs(w, gap); });
    }
  }
  for (const analysis::Interval& i : a.activity.communication_exposed.intervals()) {
    events.Slice(kCommTid, "communication, no compute beside it", i.start, i.end - i.start,
                 [&](JsonWriter& w) { w.Key("dur_ns").Int(i.end - i.start); });
  }

  std::vector<const advisor::Finding*> findings;
  for (const advisor::Finding& f : rank.findings) findings.push_back(&f);
  findings.insert(findings.end(), job_findings.begin(), job_findings.end());
  int64_t tid = kFirstFindingTid;
  for (const advisor::Finding* f : findings) {
    if (f->evidence.ranges.empty()) continue;
    events.Metadata("thread_name", tid, "name",
                    fmt::format("finding {}: {}", tid - kFirstFindingTid + 1, f->rule));
    for (const advisor::TimeRange& r : f->evidence.ranges) {
      events.Slice(tid, f->title, r.start_ns, r.end_ns - r.start_ns, [&](JsonWriter& w) {
        w.Key("rule").String(f->rule);
        w.Key("severity").String(advisor::SeverityName(f->severity));
        w.Key("gain_ns_per_step").Int(f->gain.ns_per_step);
        w.Key("gain_share").Double(f->gain.share);
        const analysis::Prediction& p = f->prediction;
        if (!p.available) return;
        w.Key("what_if").String(p.what_if);
        w.Key("predicted_gain_ns_per_step").Int(p.gain_ns_per_step);
        w.Key("predicted_step_ns").Int(p.predicted_step_ns);
        w.Key("replay_error").Double(p.replay_error);
        w.Key("within_model_error").Bool(p.within_model_error);
      });
    }
    ++tid;
  }
  return events.Take();
}

}  // namespace perfdx::report
