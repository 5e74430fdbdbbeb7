#include "perfdx/cluster/summary_file.h"

#include <cstdint>
#include <limits>
#include <vector>

#include <fmt/format.h>
#include <simdjson.h>

#include "perfdx/base/json_writer.h"
#include "perfdx/model/trace_builder.h"
#include "perfdx/version.h"

namespace perfdx::cluster {
namespace {

using simdjson::dom::element;

analysis::CollectiveType TypeNamed(std::string_view name) {
  for (int t = 0; t <= static_cast<int>(analysis::CollectiveType::kScatter); ++t) {
    const auto type = static_cast<analysis::CollectiveType>(t);
    if (analysis::CollectiveTypeName(type) == name) return type;
  }
  return analysis::CollectiveType::kUnknown;
}

// The bounds of what a summary perfdx wrote holds, beside the model's on
// times and durations: a step's times are parts of a span of the trace's
// times; totals and byte counts are sums that saturate at int64's limit
// (base/saturating.h), so only their sign is bounded; a link's ranks are
// at most kMaxLinkRank.
constexpr int64_t kMaxSpanNs = model::kMaxTimestampNs - model::kMinTimestampNs;
constexpr int64_t kMaxInt = std::numeric_limits<int64_t>::max();

// Reads the members of one object, remembering the first key that was
// missing or of the wrong type.
class Reader {
 public:
  explicit Reader(std::string* bad_key) : bad_key_(bad_key) {}
  int64_t Int(element e, const char* key) {
    int64_t v = 0;
    if (e[key].get_int64().get(v) != simdjson::SUCCESS) Bad(key);
    return v;
  }
  // An integer in [lo, hi]: the bounds a summary perfdx wrote never leaves
  // (the model's on times and durations, model/trace_builder.h, and those
  // above), which the cluster analysis' arithmetic relies on.
  int64_t IntIn(element e, const char* key, int64_t lo, int64_t hi) {
    const int64_t v = Int(e, key);
    if (v < lo || v > hi) Bad(key);
    return v;
  }
  std::optional<int64_t> OptInt(element e, const char* key) {
    element v;
    if (e[key].get(v) != simdjson::SUCCESS) return Bad(key), std::nullopt;
    if (v.is_null()) return std::nullopt;
    int64_t i = 0;
    if (v.get_int64().get(i) != simdjson::SUCCESS) return Bad(key), std::nullopt;
    return i;
  }
  std::optional<double> OptDouble(element e, const char* key) {
    element v;
    if (e[key].get(v) != simdjson::SUCCESS) return Bad(key), std::nullopt;
    if (v.is_null()) return std::nullopt;
    double d = 0;
    if (v.get_double().get(d) != simdjson::SUCCESS) return Bad(key), std::nullopt;
    return d == 0 ? 0.0 : d;  // -0 writes as "-0" but reads back as the integer 0
  }
  bool Bool(element e, const char* key) {
    bool v = false;
    if (e[key].get_bool().get(v) != simdjson::SUCCESS) Bad(key);
    return v;
  }
  std::string String(element e, const char* key) {
    std::string_view s;
    if (e[key].get_string().get(s) != simdjson::SUCCESS) Bad(key);
    return std::string(s);
  }
  std::vector<element> Array(element e, const char* key) {
    std::vector<element> out;
    simdjson::dom::array a;
    if (e[key].get_array().get(a) != simdjson::SUCCESS) {
      Bad(key);
      return out;
    }
    for (element x : a) out.push_back(x);
    return out;
  }

 private:
  void Bad(const char* key) {
    if (bad_key_->empty()) *bad_key_ = key;
  }
  std::string* bad_key_;
};

void OptInt(JsonWriter& w, const char* key, std::optional<int64_t> v) {
  w.Key(key);
  v ? w.Int(*v) : w.Null();
}
void OptDouble(JsonWriter& w, const char* key, std::optional<double> v) {
  w.Key(key);
  v ? w.Double(*v) : w.Null();
}

}  // namespace

std::string WriteRankSummary(const RankSummary& s) {
  JsonWriter w;
  w.BeginObject();
  w.Key("schema_version").Int(kRankSummarySchemaVersion);
  w.Key("report").String("rank_summary");
  w.Key("perfdx_version").String(PERFDX_VERSION);
  OptInt(w, "rank", s.rank);
  w.Key("path").String(s.path);
  w.Key("framework").String(model::FrameworkName(s.runtime.framework));
  w.Key("platform").String(model::PlatformName(s.runtime.platform));
  w.Key("features").BeginObject();
  for (const auto& f : model::kRuntimeFeatureKeys) w.Key(f.key).Bool(s.runtime.features.*f.member);
  w.EndObject();
  w.Key("detected_from").String(s.runtime.detected_from);
  w.Key("distributed_backend").String(s.distributed_backend);
  w.Key("gain_step_ns").Int(s.gain_step_ns);
  w.Key("complete_steps").Bool(s.complete_steps);
  w.Key("stalled_launch_steps").Int(s.stalled_launch_steps);
  w.Key("dataloader_single_process").Bool(s.dataloader_single_process);
  w.Key("dataloader_workers").Bool(s.dataloader_workers);
  OptDouble(w, "comm_comp_overlap", s.comm_comp_overlap);
  w.Key("steps").BeginArray();
  for (const SummaryStep& x : s.steps) {
    w.BeginObject();
    w.Key("id").Int(x.id);
    w.Key("step_ns").Int(x.step_ns);
    w.Key("computing_ns").Int(x.computing_ns);
    w.Key("communication_ns").Int(x.communication_ns);
    w.Key("communication_not_overlapped_ns").Int(x.communication_not_overlapped_ns);
    w.Key("free_ns").Int(x.free_ns);
    w.Key("preparing_ns").Int(x.preparing_ns);
    w.Key("dataloader_ns").Int(x.dataloader_ns);
    w.EndObject();
  }
  w.EndArray();
  w.Key("collectives").BeginArray();
  for (const SummaryCollective& c : s.collectives) {
    w.BeginObject();
    w.Key("group").String(c.group);
    w.Key("role").String(c.role);
    w.Key("name").String(c.name);
    w.Key("type").String(analysis::CollectiveTypeName(c.type));
    OptInt(w, "step", c.step);
    w.Key("start_ns").Int(c.start_ns);
    w.Key("dur_ns").Int(c.dur_ns);
    w.Key("bytes").Int(c.bytes);
    OptDouble(w, "algbw_gbps", c.algbw_gbps);
    OptDouble(w, "busbw_gbps", c.busbw_gbps);
    w.Key("wait_ns").Int(c.wait_ns);
    w.Key("transit_ns").Int(c.transit_ns);
    w.Key("transports").BeginArray();
    for (const SummaryTransport& t : c.transports) {
      w.BeginObject();
      w.Key("transport").String(t.transport);
      w.Key("bytes").Int(t.bytes);
      w.Key("transit_ns").Int(t.transit_ns);
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
  w.Key("kernels").BeginArray();
  for (const SummaryKernel& k : s.kernels) {
    w.BeginObject();
    w.Key("name").String(k.name);
    w.Key("count").Int(k.count);
    w.Key("total_ns").Int(k.total_ns);
    w.EndObject();
  }
  w.EndArray();
  w.Key("links").BeginArray();
  for (const ClusterLink& l : s.links) {
    w.BeginObject();
    w.Key("group").String(l.group);
    w.Key("src_rank").Int(l.src_rank);
    w.Key("dst_rank").Int(l.dst_rank);
    w.Key("transport").String(l.transport);
    w.Key("bytes").Int(l.bytes);
    w.Key("transit_ns").Int(l.transit_ns);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return w.TakeDocument();
}

Result<RankSummary> ParseRankSummary(std::string_view json, const std::string& display_name) {
  simdjson::dom::parser parser;
  element doc;
  if (auto error = parser.parse(json.data(), json.size()).get(doc); error != simdjson::SUCCESS) {
    return InvalidInput(fmt::format("{}: not a perfdx rank summary: {}", display_name,
                                    simdjson::error_message(error)));
  }
  std::string_view kind;
  if (doc["report"].get_string().get(kind) != simdjson::SUCCESS || kind != "rank_summary") {
    return InvalidInput(fmt::format(
        "{}: not a perfdx rank summary (no \"report\": \"rank_summary\")", display_name));
  }
  int64_t schema = 0;
  if (doc["schema_version"].get_int64().get(schema) != simdjson::SUCCESS ||
      schema != kRankSummarySchemaVersion) {
    return InvalidInput(fmt::format(
        "{}: rank summary of schema {}; this perfdx reads schema {} (summarize again with it)",
        display_name, schema, kRankSummarySchemaVersion));
  }
  std::string bad_key;
  Reader r(&bad_key);
  RankSummary s;
  s.rank = r.OptInt(doc, "rank");
  s.path = r.String(doc, "path");
  const std::string framework = r.String(doc, "framework");
  const std::string platform = r.String(doc, "platform");
  if (auto f = model::ParseFramework(framework)) {
    s.runtime.framework = *f;
  } else if (bad_key.empty()) {
    bad_key = "framework";
  }
  if (auto p = model::ParsePlatform(platform)) {
    s.runtime.platform = *p;
  } else if (bad_key.empty()) {
    bad_key = "platform";
  }
  element features;
  if (doc["features"].get(features) == simdjson::SUCCESS) {
    for (const auto& f : model::kRuntimeFeatureKeys) {
      s.runtime.features.*f.member = r.Bool(features, f.key);
    }
  } else if (bad_key.empty()) {
    bad_key = "features";
  }
  s.runtime.detected_from = r.String(doc, "detected_from");
  s.distributed_backend = r.String(doc, "distributed_backend");
  s.gain_step_ns = r.IntIn(doc, "gain_step_ns", 0, kMaxSpanNs);
  s.complete_steps = r.Bool(doc, "complete_steps");
  s.stalled_launch_steps = r.IntIn(doc, "stalled_launch_steps", 0, kMaxInt);
  s.dataloader_single_process = r.Bool(doc, "dataloader_single_process");
  s.dataloader_workers = r.Bool(doc, "dataloader_workers");
  s.comm_comp_overlap = r.OptDouble(doc, "comm_comp_overlap");
  for (element e : r.Array(doc, "steps")) {
    // A step's times are parts of its window, a span of the trace's times.
    auto span = [&](const char* key) { return r.IntIn(e, key, 0, kMaxSpanNs); };
    s.steps.push_back({r.Int(e, "id"), span("step_ns"), span("computing_ns"),
                       span("communication_ns"), span("communication_not_overlapped_ns"),
                       span("free_ns"), span("preparing_ns"), span("dataloader_ns")});
  }
  for (element e : r.Array(doc, "collectives")) {
    SummaryCollective c;
    c.group = r.String(e, "group");
    c.role = r.String(e, "role");
    c.name = r.String(e, "name");
    c.type = TypeNamed(r.String(e, "type"));
    c.step = r.OptInt(e, "step");
    c.start_ns = r.IntIn(e, "start_ns", model::kMinTimestampNs, model::kMaxTimestampNs);
    c.dur_ns = r.IntIn(e, "dur_ns", 0, model::kMaxDurationNs);
    c.bytes = r.IntIn(e, "bytes", -1, kMaxInt);  // -1: no message size
    c.algbw_gbps = r.OptDouble(e, "algbw_gbps");
    c.busbw_gbps = r.OptDouble(e, "busbw_gbps");
    c.wait_ns = r.IntIn(e, "wait_ns", -1, model::kMaxDurationNs);  // -1: not known
    c.transit_ns = r.IntIn(e, "transit_ns", -1, model::kMaxDurationNs);
    for (element t : r.Array(e, "transports")) {
      c.transports.push_back({r.String(t, "transport"), r.IntIn(t, "bytes", 0, kMaxInt),
                              r.IntIn(t, "transit_ns", 0, kMaxInt)});
    }
    s.collectives.push_back(std::move(c));
  }
  for (element e : r.Array(doc, "kernels")) {
    s.kernels.push_back(
        {r.String(e, "name"), r.IntIn(e, "count", 0, kMaxInt), r.IntIn(e, "total_ns", 0, kMaxInt)});
  }
  for (element e : r.Array(doc, "links")) {
    ClusterLink l;
    l.group = r.String(e, "group");
    l.src_rank = r.IntIn(e, "src_rank", 0, kMaxLinkRank);
    l.dst_rank = r.IntIn(e, "dst_rank", 0, kMaxLinkRank);
    l.transport = r.String(e, "transport");
    l.bytes = r.IntIn(e, "bytes", 0, kMaxInt);
    l.transit_ns = r.IntIn(e, "transit_ns", 0, kMaxInt);
    s.links.push_back(std::move(l));
  }
  if (!bad_key.empty()) {
    return InvalidInput(
        fmt::format("{}: rank summary: \"{}\" is missing, not of its type or out of its range",
                    display_name, bad_key));
  }
  return s;
}

}  // namespace perfdx::cluster
