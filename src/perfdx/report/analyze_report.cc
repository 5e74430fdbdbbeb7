#include "perfdx/report/analyze_report.h"

#include <algorithm>

#include "perfdx/base/json_writer.h"
#include "perfdx/report/cluster_report.h"
#include "perfdx/report/units.h"
#include "perfdx/version.h"

namespace perfdx::report {
namespace {

using analysis::HealthMetrics;
using analysis::RankAnalysis;

constexpr size_t kJsonKernels = 50;
constexpr size_t kJsonOps = 50;
// The collectives listed one by one: the longest, so a 1000-step trace with
// thousands of collectives keeps a bounded JSON; the per-type and
// per-transport totals cover them all.
constexpr size_t kJsonCollectives = 50;

void WriteHealth(ValueSink& w, const HealthMetrics& h) {
  for (const analysis::HealthMetricDef& m : analysis::kHealthMetrics)
    w.Key(m.name).Double(h.*m.value);
}

void WriteCause(ValueSink& w, const analysis::GapCause& c) {
  w.Key("cause").BeginObject();
  w.Key("kind").String(c.kind);
  w.Key("name").String(c.name);
  w.Key("coverage").Double(c.coverage);
  w.EndObject();
}

void WriteTransports(ValueSink& w, const std::vector<analysis::TransportTransit>& transports) {
  w.BeginArray();
  for (const analysis::TransportTransit& t : transports) {
    w.BeginObject();
    w.Key("transport").String(t.transport);
    w.Key("transit_bytes").Int(t.transit_bytes);
    w.Key("transit_ns").Int(t.transit_ns);
    w.Key("bandwidth_gbps").Double(t.bandwidth_gbps());
    w.Key("transfers").Uint(t.transfers);
    w.Key("large_packet_ratio").Double(t.large_packet_ratio());
    w.EndObject();
  }
  w.EndArray();
}

void WriteOptionalInt(ValueSink& w, int64_t v) {
  v >= 0 ? w.Int(v) : w.Null();
}

void WriteCollectives(ValueSink& w, const analysis::CollectiveSummary& s) {
  w.Key("collectives").BeginObject();
  w.Key("count").Uint(s.collectives.size());
  w.Key("by_type").BeginArray();
  for (const analysis::CollectiveTypeTotal& t : s.by_type) {
    w.BeginObject();
    w.Key("type").String(analysis::CollectiveTypeName(t.type));
    w.Key("count").Uint(t.count);
    w.Key("in_window").Uint(t.in_window);
    w.Key("total_ns").Int(t.total_ns);
    w.Key("sized").Uint(t.sized);
    w.Key("message_bytes").Int(t.message_bytes);
    w.EndObject();
  }
  w.EndArray();
  w.Key("transports");
  WriteTransports(w, s.totals);
  w.Key("window_transports");
  WriteTransports(w, s.window_totals);
  w.Key("window_time").BeginObject();
  w.Key("collectives").Uint(s.window_time.collectives);
  w.Key("without_tasks").Uint(s.window_time.without_tasks);
  w.Key("elapse_ns").Int(s.window_time.elapse_ns);
  w.Key("transit_ns").Int(s.window_time.transit_ns);
  w.Key("wait_ns").Int(s.window_time.wait_ns);
  w.Key("idle_ns").Int(s.window_time.idle_ns);
  w.EndObject();
  // The longest ones (ties: the earlier first), in start order.
  std::vector<const analysis::CollectiveStats*> listed;
  for (const analysis::CollectiveStats& c : s.collectives) listed.push_back(&c);
  std::stable_sort(listed.begin(), listed.end(),
                   [](const auto* a, const auto* b) { return a->dur_ns > b->dur_ns; });
  if (listed.size() > kJsonCollectives) listed.resize(kJsonCollectives);
  std::stable_sort(listed.begin(), listed.end(),
                   [](const auto* a, const auto* b) { return a->start_ns < b->start_ns; });
  w.Key("listed").Uint(listed.size());
  w.Key("longest").BeginArray();
  for (const analysis::CollectiveStats* c : listed) {
    w.BeginObject();
    w.Key("name").String(c->name);
    w.Key("type").String(analysis::CollectiveTypeName(c->type));
    w.Key("step");
    c->step_id ? w.Int(*c->step_id) : w.Null();
    w.Key("start_ns").Int(c->start_ns);
    w.Key("dur_ns").Int(c->dur_ns);
    w.Key("in_window").Bool(c->in_window);
    w.Key("message_bytes");
    WriteOptionalInt(w, c->message_bytes);
    w.Key("group_size");
    WriteOptionalInt(w, c->group_size);
    w.Key("algbw_gbps");
    c->algbw_gbps ? w.Double(*c->algbw_gbps) : w.Null();
    w.Key("busbw_gbps");
    c->busbw_gbps ? w.Double(*c->busbw_gbps) : w.Null();
    w.Key("link_bytes");
    c->transports.empty() ? w.Null() : w.Int(c->link_bytes());
    w.Key("rdma").Bool(c->rdma());
    w.Key("transit_ns");
    WriteOptionalInt(w, c->transit_ns);
    w.Key("wait_ns");
    WriteOptionalInt(w, c->wait_ns);
    w.Key("wait_ratio");
    c->wait_ratio ? w.Double(*c->wait_ratio) : w.Null();
    w.Key("idle_ns");
    WriteOptionalInt(w, c->idle_ns);
    w.Key("longest_task");
    if (c->longest_task_ns >= 0) {
      w.BeginObject();
      w.Key("name").String(c->longest_task);
      w.Key("plane").Int(c->longest_task_plane);
      w.Key("dur_ns").Int(c->longest_task_ns);
      w.EndObject();
    } else {
      w.Null();
    }
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
}

void WriteReplayedSteps(ValueSink& w, const std::vector<analysis::ReplayedStep>& steps) {
  w.BeginArray();
  for (const analysis::ReplayedStep& s : steps) {
    w.BeginObject();
    w.Key("id").Int(s.id);
    w.Key("measured_ns").Int(s.measured_ns);
    w.Key("replayed_ns").Int(s.replayed_ns);
    w.Key("error").Double(s.error());
    w.EndObject();
  }
  w.EndArray();
}

}  // namespace

void WritePrediction(ValueSink& w, const analysis::Prediction& p) {
  if (!p.available) {
    w.Null();
    return;
  }
  w.BeginObject();
  w.Key("what_if").String(p.what_if);
  w.Key("predicted_step_ns").Int(p.predicted_step_ns);
  w.Key("gain_ns_per_step").Int(p.gain_ns_per_step);
  w.Key("gain_share").Double(p.gain_share);
  w.Key("replay_error").Double(p.replay_error);
  w.Key("within_model_error").Bool(p.within_model_error);
  w.Key("beyond_upper_bound").Bool(p.beyond_upper_bound);
  w.Key("one_remedy").Bool(p.one_remedy);
  w.Key("beyond_host");
  if (p.has_beyond_host) {
    w.BeginObject();
    w.Key("gain_ns_per_step").Int(p.beyond_host_gain_ns_per_step);
    w.Key("gain_share").Double(p.beyond_host_gain_share);
    w.Key("host_alone_gain_ns_per_step").Int(p.host_alone_gain_ns_per_step);
    w.Key("host_alone_gain_share").Double(p.host_alone_gain_share);
    w.EndObject();
  } else {
    w.Null();
  }
  w.Key("range");
  if (p.has_range) {
    w.BeginObject();
    w.Key("low_what_if").String(p.low_what_if);
    w.Key("low_gain_ns_per_step").Int(p.low_gain_ns_per_step);
    w.Key("low_gain_share").Double(p.low_gain_share);
    w.EndObject();
  } else {
    w.Null();
  }
  w.EndObject();
}

void WriteReplayCheck(ValueSink& w, const analysis::ReplayCheck& c) {
  w.Key("replay").BeginObject();
  w.Key("available").Bool(c.available);
  if (!c.available) {
    w.Key("why_not").String(c.why_not);
  } else {
    w.Key("median_abs_error").Double(c.median_abs_error);
    w.Key("max_abs_error").Double(c.max_abs_error);
    w.Key("reliable").Bool(c.reliable());
    w.Key("inferred_waits").Uint(c.inferred_waits);
    w.Key("params").BeginObject();
    w.Key("launch_latency_ns").Int(c.params.launch_latency_ns);
    w.Key("queue_gap_ns").Int(c.params.queue_gap_ns);
    w.Key("sync_return_ns").Int(c.params.sync_return_ns);
    w.Key("sync_floor_ns").Int(c.params.sync_floor_ns);
    w.EndObject();
    w.Key("steps");
    WriteReplayedSteps(w, c.run.steps);
  }
  w.EndObject();
}

namespace {

void WriteRank(ValueSink& w, const AnalyzeRank& entry) {
  const RankAnalysis& a = entry.analysis;
  const model::RankInfo& info = a.info();
  w.BeginObject();
  w.Key("rank");
  info.rank ? w.Int(*info.rank) : w.Null();
  w.Key("path").String(info.path);
  w.Key("source").String(model::SourceFormatName(info.source));
  w.Key("device").String(info.device_name);
  w.Key("device_type").String(model::DeviceTypeName(info.device_type));
  w.Key("framework").String(model::FrameworkName(info.runtime.framework));
  w.Key("platform").String(model::PlatformName(info.runtime.platform));
  w.Key("framework_detected_from").String(info.runtime.detected_from);
  w.Key("features").BeginObject();
  for (const auto& f : model::kRuntimeFeatureKeys) {
    w.Key(f.key).Bool(info.runtime.features.*f.member);
  }
  w.Key("collective_backend").String(info.distributed_backend);
  w.EndObject();
  w.Key("cpu_only").Bool(a.cpu_only);
  w.Key("window").String(analysis::AnalysisWindowName(a.window));
  w.Key("window_ns").Int(a.window_ns);
  w.Key("step_source").String(analysis::StepSourceName(a.timeline.source));

  w.Key("steps").BeginArray();
  for (const analysis::StepAnalysis& s : a.steps) {
    w.BeginObject();
    w.Key("id").Int(s.window.id);
    w.Key("start_ns").Int(s.window.start_ns);
    w.Key("end_ns").Int(s.window.end_ns);
    w.Key("dur_ns").Int(s.window.dur_ns());
    w.Key("host_start_ns").Int(s.window.host_start_ns);
    w.Key("host_end_ns").Int(s.window.host_end_ns);
    w.Key("breakdown_ns").BeginObject();
    w.Key("kernel").Int(s.breakdown.kernel_ns);
    w.Key("memcpy").Int(s.breakdown.memcpy_ns);
    w.Key("memset").Int(s.breakdown.memset_ns);
    w.Key("communication").Int(s.breakdown.communication_ns);
    w.Key("runtime").Int(s.breakdown.runtime_ns);
    w.Key("dataloader").Int(s.breakdown.dataloader_ns);
    w.Key("cpu_exec").Int(s.breakdown.cpu_exec_ns);
    w.Key("other").Int(s.breakdown.other_ns);
    w.EndObject();
    w.Key("breakdown_share").BeginObject();
    w.Key("kernel").Double(s.breakdown.shares.kernel);
    w.Key("memcpy").Double(s.breakdown.shares.memcpy);
    w.Key("memset").Double(s.breakdown.shares.memset);
    w.Key("communication").Double(s.breakdown.shares.communication);
    w.Key("runtime").Double(s.breakdown.shares.runtime);
    w.Key("dataloader").Double(s.breakdown.shares.dataloader);
    w.Key("cpu_exec").Double(s.breakdown.shares.cpu_exec);
    w.Key("other").Double(s.breakdown.shares.other);
    w.EndObject();
    w.Key("device_ns").BeginObject();
    w.Key("computing").Int(s.device.computing_ns);
    w.Key("communication").Int(s.device.communication_ns);
    w.Key("communication_not_overlapped").Int(s.device.communication_not_overlapped_ns);
    w.Key("free").Int(s.device.free_ns);
    w.Key("preparing").Int(s.device.preparing_ns);
    w.Key("trailing").Int(s.device.trailing_ns);
    w.EndObject();
    w.Key("health").BeginObject();
    WriteHealth(w, s.health);
    w.EndObject();
    w.EndObject();
  }
  w.EndArray();
  w.Key("excluded_steps").BeginArray();
  for (const analysis::StepWindow& s : a.timeline.excluded) {
    w.BeginObject();
    w.Key("id").Int(s.id);
    w.Key("start_ns").Int(s.start_ns);
    w.Key("end_ns").Int(s.end_ns);
    w.EndObject();
  }
  w.EndArray();

  w.Key("summary").BeginObject();
  WriteHealth(w, a.summary);
  w.Key("step_time_ns").BeginObject();
  w.Key("mean").Int(a.step_time.mean_ns);
  w.Key("median").Int(a.step_time.median_ns);
  w.Key("p90").Int(a.step_time.p90_ns);
  w.Key("min").Int(a.step_time.min_ns);
  w.Key("max").Int(a.step_time.max_ns);
  w.Key("cv").Double(a.step_time.cv);
  w.Key("outlier_steps").BeginArray();
  for (int64_t id : a.step_time.outlier_steps) w.Int(id);
  w.EndArray();
  w.EndObject();
  w.EndObject();
  WriteReplayCheck(w, a.replay);

  w.Key("health_table").BeginArray();
  for (const advisor::HealthRow& row : entry.health) {
    w.BeginObject();
    w.Key("metric").String(row.metric);
    w.Key("value").Double(row.value);
    w.Key("healthy").String(row.healthy);
    w.Key("status").String(!row.applicable ? "not_applicable"
                           : !row.judged   ? "not_judged"
                                           : advisor::HealthStatusName(row.status));
    w.EndObject();
  }
  w.EndArray();

  w.Key("temporal_breakdown_ns").BeginObject();
  w.Key("idle").Int(a.temporal.idle_ns);
  w.Key("compute").Int(a.temporal.compute_ns);
  w.Key("non_compute").Int(a.temporal.non_compute_ns);
  w.Key("span").Int(a.temporal.span_ns);
  w.EndObject();
  w.Key("temporal_breakdown_share").BeginObject();
  w.Key("idle").Double(a.temporal.idle_share);
  w.Key("compute").Double(a.temporal.compute_share);
  w.Key("non_compute").Double(a.temporal.non_compute_share);
  w.EndObject();
  w.Key("comm_comp_overlap");
  a.temporal.comm_comp_overlap ? w.Double(*a.temporal.comm_comp_overlap) : w.Null();

  w.Key("gaps").BeginArray();
  for (const analysis::Gap& g : a.gaps.gaps) {
    w.BeginObject();
    w.Key("start_ns").Int(g.start_ns);
    w.Key("dur_ns").Int(g.dur_ns);
    w.Key("step").Int(g.step);
    w.Key("position").String(g.position);
    WriteCause(w, g.cause);
    w.Key("host_activity").String(g.host_activity);
    w.Key("stalled_call").BeginObject();
    w.Key("name").String(g.stalled_call);
    w.Key("dur_ns").Int(g.stalled_call_ns);
    w.Key("median_ns").Int(g.stalled_call_median_ns);
    w.Key("stalled_ns").Int(g.stalled_ns);
    w.EndObject();
    w.EndObject();
  }
  w.EndArray();
  w.Key("gap_groups").BeginArray();
  for (const analysis::GapGroup& g : a.gaps.recurring) {
    w.BeginObject();
    WriteCause(w, g.cause);
    w.Key("position").String(g.position);
    w.Key("count").Uint(g.count);
    w.Key("steps").Uint(g.steps);
    w.Key("total_ns").Int(g.total_ns);
    w.Key("mean_dur_ns").Int(g.mean_dur_ns);
    w.Key("ns_per_step").Int(g.ns_per_step);
    w.Key("share_of_step_time").Double(g.share_of_step_time);
    w.EndObject();
  }
  w.EndArray();
  const analysis::ShortGapTotals& sg = a.gaps.short_gaps;
  w.Key("short_gaps").BeginObject();
  w.Key("max_dur_ns").Int(a.gaps.min_gap_ns);
  w.Key("count").Uint(sg.count);
  w.Key("total_ns").Int(sg.total_ns);
  w.Key("dispatch_ns").Int(sg.dispatch_ns);
  w.Key("optimizer_ns").Int(sg.optimizer_ns);
  w.Key("dispatch_count").Uint(sg.dispatch_count);
  w.EndObject();

  const analysis::KernelSummary& k = a.kernels;
  w.Key("kernel_totals_ns").BeginObject();
  w.Key("device_work").Int(k.device_work_ns);
  w.Key("matrix").Int(k.matrix_ns);
  w.Key("fp32_matrix").Int(k.fp32_matrix_ns);
  w.Key("tensor_core").Int(k.tensor_core_ns);
  w.Key("layout_conversion").Int(k.layout_conversion_ns);
  w.EndObject();
  w.Key("kernel_shares").BeginObject();
  w.Key("matrix").Double(k.matrix_share);
  w.Key("fp32_matrix").Double(k.fp32_matrix_share);
  w.Key("tensor_core").Double(k.tensor_core_share);
  w.Key("layout_conversion").Double(k.layout_conversion_share);
  w.EndObject();
  w.Key("kernels").BeginArray();
  for (size_t i = 0; i < k.kernels.size() && i < kJsonKernels; ++i) {
    const analysis::KernelStat& s = k.kernels[i];
    w.BeginObject();
    w.Key("name").String(s.name);
    w.Key("kind").String(model::EventKindName(s.kind));
    w.Key("count").Uint(s.count);
    w.Key("total_ns").Int(s.total_ns);
    w.Key("mean_ns").Int(s.mean_ns());
    w.Key("min_ns").Int(s.min_ns);
    w.Key("max_ns").Int(s.max_ns);
    w.Key("share").Double(s.share);
    w.Key("matrix").Bool(s.matrix);
    w.Key("tensor_core").Bool(s.tensor_core);
    w.Key("fp32_matrix").Bool(s.fp32_matrix);
    w.Key("layout_conversion").Bool(s.layout_conversion);
    w.Key("class").String(analysis::KernelCategoryName(s.kernel_class.category));
    w.Key("precision").String(analysis::PrecisionName(s.precision));
    w.EndObject();
  }
  w.EndArray();
  w.Key("fusion_candidates").BeginArray();
  for (const analysis::KernelSequence& s : k.repeated_sequences) {
    w.BeginObject();
    w.Key("kernels").Strings(s.names);
    w.Key("count").Uint(s.count);
    w.Key("total_ns").Int(s.total_ns);
    w.Key("elementwise").Bool(s.elementwise);
    w.EndObject();
  }
  w.EndArray();

  w.Key("ops").BeginArray();
  for (size_t i = 0; i < a.ops.ops.size() && i < kJsonOps; ++i) {
    const analysis::OpStat& op = a.ops.ops[i];
    w.BeginObject();
    w.Key("name").String(op.name);
    w.Key("calls").Uint(op.calls);
    w.Key("host_total_ns").Int(op.host_total_ns);
    w.Key("host_self_ns").Int(op.host_self_ns);
    w.Key("device_total_ns").Int(op.device_total_ns);
    w.Key("device_self_ns").Int(op.device_self_ns);
    w.EndObject();
  }
  w.EndArray();

  w.Key("memory").BeginObject();
  w.Key("devices").BeginArray();
  for (const analysis::DeviceMemory& m : a.memory.devices) {
    w.BeginObject();
    w.Key("device_id").Int(m.device_id);
    w.Key("relative").Bool(m.relative);
    w.Key("peak_allocated_bytes").Int(m.peak_allocated_bytes);
    w.Key("peak_reserved_bytes");
    m.peak_reserved_bytes >= 0 ? w.Int(m.peak_reserved_bytes) : w.Null();
    w.Key("reserved_at_allocated_peak_bytes");
    m.reserved_at_allocated_peak_bytes >= 0 ? w.Int(m.reserved_at_allocated_peak_bytes) : w.Null();
    w.Key("fragmentation_at_peak");
    m.fragmentation_at_peak ? w.Double(*m.fragmentation_at_peak) : w.Null();
    w.Key("capacity_bytes");
    m.capacity_bytes ? w.Int(*m.capacity_bytes) : w.Null();
    w.Key("allocations").Uint(m.allocations);
    w.Key("frees").Uint(m.frees);
    w.Key("allocations_per_step").Double(m.allocations_per_step);
    w.Key("frees_per_step").Double(m.frees_per_step);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();

  WriteCollectives(w, a.collectives);

  w.Key("notes").Strings(a.notes);
  w.EndObject();
}

void WriteFinding(ValueSink& w, const advisor::Finding& f) {
  w.BeginObject();
  w.Key("rule").String(f.rule);
  w.Key("category").String(advisor::CategoryName(f.category));
  w.Key("severity").String(advisor::SeverityName(f.severity));
  w.Key("title").String(f.title);
  w.Key("rank");
  f.rank ? w.Int(*f.rank) : w.Null();
  w.Key("path").String(f.path);
  w.Key("steps").BeginArray();
  for (int64_t s : f.steps) w.Int(s);
  w.EndArray();
  const advisor::Evidence& e = f.evidence;
  w.Key("evidence").BeginObject();
  w.Key("metric").String(e.metric);
  w.Key("value").Double(e.value);
  w.Key("threshold").Double(e.threshold);
  w.Key("unit").String(e.unit);
  w.Key("time_ranges").BeginArray();
  for (const advisor::TimeRange& r : e.ranges) {
    w.BeginObject();
    w.Key("start_ns").Int(r.start_ns);
    w.Key("end_ns").Int(r.end_ns);
    w.EndObject();
  }
  w.EndArray();
  w.Key("top_contributors").BeginArray();
  for (const advisor::Contributor& c : e.contributors) {
    w.BeginObject();
    w.Key("name").String(c.name);
    w.Key("ns").Int(c.ns);
    w.Key("share").Double(c.share);
    w.EndObject();
  }
  w.EndArray();
  for (const auto& [key, value] : e.details) w.Key(key).Double(value);
  w.EndObject();
  w.Key("estimated_gain").BeginObject();
  w.Key("ns_per_step").Int(f.gain.ns_per_step);
  w.Key("share").Double(f.gain.share);
  if (!f.gain.basis.empty()) {
    w.Key("basis").String(f.gain.basis);
    w.Key("total_ns").Int(f.gain.total_ns);
  }
  w.EndObject();
  w.Key("evidence_tags").Strings(f.evidence_tags);
  w.Key("recommendations").BeginArray();
  for (const advisor::Recommendation& r : f.recommendations) {
    w.BeginObject();
    w.Key("framework").String(advisor::FixTargetName(r.framework));
    w.Key("fix_id").String(r.fix_id);
    w.Key("text").String(r.text);
    w.Key("snippet").String(r.snippet);
    w.Key("doc_url").String(r.doc_url);
    w.EndObject();
  }
  w.EndArray();
  w.Key("prediction");
  WritePrediction(w, f.prediction);
  w.Key("overlaps").BeginArray();
  for (const advisor::FindingOverlap& o : f.overlaps) {
    w.BeginObject();
    w.Key("rule").String(o.rule);
    w.Key("title").String(o.title);
    w.Key("combined_gain_ns_per_step").Int(o.combined_gain_ns_per_step);
    w.Key("sum_gain_ns_per_step").Int(o.sum_gain_ns_per_step);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
}

}  // namespace

void WriteAnalyzeReport(const AnalyzeReport& report, ValueSink& w) {
  w.BeginObject();
  w.Key("schema_version").Int(kAnalyzeSchemaVersion);
  w.Key("report").String("analyze");
  w.Key("perfdx_version").String(PERFDX_VERSION);
  w.Key("ranks").BeginArray();
  for (const AnalyzeRank& r : report.ranks) WriteRank(w, r);
  w.EndArray();
  w.Key("findings").BeginArray();
  for (const AnalyzeRank& r : report.ranks) {
    for (const advisor::Finding& f : r.findings) WriteFinding(w, f);
  }
  for (const AnalyzeJob& job : report.jobs) {
    for (const advisor::Finding& f : job.findings) WriteFinding(w, f);
  }
  w.EndArray();
  w.Key("jobs").BeginArray();
  for (const AnalyzeJob& job : report.jobs) {
    w.BeginObject();
    // A job merged from summaries has no rank analyses: its cluster section
    // names the ranks (the same ones, in the same order, for traces).
    w.Key("ranks").BeginArray();
    if (job.cluster) {
      for (const cluster::ClusterRank& r : job.cluster->ranks) r.rank ? w.Int(*r.rank) : w.Null();
    } else {
      for (size_t m : job.members) {
        const model::RankInfo& info = report.ranks[m].analysis.info();
        info.rank ? w.Int(*info.rank) : w.Null();
      }
    }
    w.EndArray();
    w.Key("paths").BeginArray();
    if (job.cluster) {
      for (const cluster::ClusterRank& r : job.cluster->ranks) w.String(r.path);
    } else {
      for (size_t m : job.members) w.String(report.ranks[m].analysis.info().path);
    }
    w.EndArray();
    if (job.cluster) {
      w.Key("cluster");
      WriteClusterSection(*job.cluster, w);
    }
    w.EndObject();
  }
  w.EndArray();
  w.Key("warnings").Strings(report.warnings);
  w.EndObject();
}

std::string RenderAnalyzeJson(const AnalyzeReport& report) {
  JsonWriter w;
  WriteAnalyzeReport(report, w);
  return w.TakeDocument();
}

void RenderAnalyzeJson(const AnalyzeReport& report, TextSink& sink) {
  JsonWriter w(&sink);
  WriteAnalyzeReport(report, w);
  w.FinishDocument();
}

}  // namespace perfdx::report
