#include "perfdx/report/baseline_report.h"

#include <cmath>
#include <ctime>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "perfdx/base/json_writer.h"
#include "perfdx/report/units.h"

namespace perfdx::report {
namespace {

using baseline::RunRecord;
using baseline::RunSummary;
using baseline::TrendPoint;

std::string Truncate(std::string_view s, size_t n) {
  if (s.size() <= n) return std::string(s);
  return std::string(s.substr(0, n - 3)) + "...";
}

std::string TagText(const std::vector<std::pair<std::string, std::string>>& tags) {
  std::string out;
  for (const auto& [k, v] : tags) out += fmt::format("{}{}={}", out.empty() ? "" : " ", k, v);
  return out;
}

void WriteTags(JsonWriter& w, const std::vector<std::pair<std::string, std::string>>& tags) {
  w.BeginObject();
  for (const auto& [k, v] : tags) w.Key(k).String(v);
  w.EndObject();
}

std::string FormatMetric(const std::string& key, double v) {
  if (key.ends_with("_ns")) return FormatDuration(static_cast<int64_t>(std::llround(v)));
  if (baseline::IsShareMetric(key)) return FormatShare(v);
  return fmt::format("{:.4g}", v);
}

}  // namespace

std::string FormatUnixTime(int64_t unix_s) {
  const auto t = static_cast<std::time_t>(unix_s);
  std::tm tm{};
  if (gmtime_r(&t, &tm) == nullptr) return fmt::format("@{}", unix_s);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M:%SZ", &tm);
  return buf;
}

std::string RenderRunListText(const std::vector<RunSummary>& runs) {
  if (runs.empty()) return "no runs\n";
  std::string out = fmt::format("{:>5}  {:<24} {:<20} {:<8} {:>6} {:>12}  {}\n", "id", "name",
                                "saved (UTC)", "source", "steps", "median step", "tags");
  for (const RunSummary& r : runs) {
    out += fmt::format("{:>5}  {:<24} {:<20} {:<8} {:>6} {:>12}  {}\n", r.id, Truncate(r.name, 24),
                       FormatUnixTime(r.created_unix_s), baseline::RunSourceName(r.source), r.steps,
                       r.median_step_ns
                           ? FormatDuration(static_cast<int64_t>(std::llround(*r.median_step_ns)))
                           : "-",
                       TagText(r.tags));
  }
  return out;
}

std::string RenderRunListJson(const std::string& db_path, const std::vector<RunSummary>& runs) {
  JsonWriter w;
  w.BeginObject();
  w.Key("db").String(db_path);
  w.Key("runs").BeginArray();
  for (const RunSummary& r : runs) {
    w.BeginObject();
    w.Key("id").Int(r.id);
    w.Key("name").String(r.name);
    w.Key("created_unix_s").Int(r.created_unix_s);
    w.Key("created").String(FormatUnixTime(r.created_unix_s));
    w.Key("source").String(baseline::RunSourceName(r.source));
    w.Key("input_path").String(r.input_path);
    w.Key("perfdx_version").String(r.perfdx_version);
    w.Key("host").String(r.host);
    w.Key("steps").Int(r.steps);
    w.Key("median_step_ns");
    r.median_step_ns ? w.Double(*r.median_step_ns) : w.Null();
    w.Key("tags");
    WriteTags(w, r.tags);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return w.TakeDocument();
}

std::string RenderRunText(const RunRecord& r, size_t top) {
  std::string out =
      fmt::format("run {} \"{}\" — saved {}\n", r.id, r.name, FormatUnixTime(r.created_unix_s));
  out += fmt::format("  source       {} {}\n", baseline::RunSourceName(r.source), r.input_path);
  out += fmt::format("  fingerprint  {}\n", r.fingerprint);
  out += fmt::format("  host         {} ({})\n", r.host, r.host_info);
  out += fmt::format("  perfdx       {}\n", r.perfdx_version);
  if (!r.device.empty()) out += fmt::format("  device       {}\n", r.device);
  if (r.rank) out += fmt::format("  rank         {}\n", *r.rank);
  out += fmt::format("  window       {}\n", r.window);
  if (!r.tags.empty()) out += fmt::format("  tags         {}\n", TagText(r.tags));
  out += "\nMETRICS\n";
  for (const auto& [key, value] : r.metrics)
    out += fmt::format("  {:<28} {:>12}\n", key, FormatMetric(key, value));
  out += fmt::format("\nSTEPS ({})\n", r.steps.size());
  for (const baseline::StepSample& s : r.steps) {
    out += fmt::format("  {:>8} {:>12}{}\n", s.id, FormatDuration(s.dur_ns),
                       s.samples > 0 ? fmt::format("  {:.6g} samples", s.samples) : "");
  }
  if (!r.items.empty()) {
    out += fmt::format("\nTOP OPERATORS AND KERNELS ({} of {}{})\n", std::min(top, r.items.size()),
                       r.items.size(), r.items_complete ? "" : ", a top-N list");
    for (size_t i = 0; i < r.items.size() && i < top; ++i) {
      const baseline::RunItem& item = r.items[i];
      out += fmt::format("  {:<60} {:<10} {:>10} x{}\n", Truncate(item.name, 60), item.kind,
                         FormatDuration(item.total_ns), item.count);
    }
  }
  for (const std::string& n : r.notes) out += fmt::format("note: {}\n", n);
  return out;
}

std::string RenderRunJson(const RunRecord& r) {
  JsonWriter w;
  w.BeginObject();
  w.Key("id").Int(r.id);
  w.Key("name").String(r.name);
  w.Key("created_unix_s").Int(r.created_unix_s);
  w.Key("created").String(FormatUnixTime(r.created_unix_s));
  w.Key("perfdx_version").String(r.perfdx_version);
  w.Key("source").String(baseline::RunSourceName(r.source));
  w.Key("input_path").String(r.input_path);
  w.Key("fingerprint").String(r.fingerprint);
  w.Key("host").String(r.host);
  w.Key("host_info").String(r.host_info);
  w.Key("device").String(r.device);
  w.Key("rank");
  r.rank ? w.Int(*r.rank) : w.Null();
  w.Key("window").String(r.window);
  w.Key("tags");
  WriteTags(w, r.tags);
  w.Key("metrics").BeginObject();
  for (const auto& [key, value] : r.metrics) w.Key(key).Double(value);
  w.EndObject();
  w.Key("steps").BeginArray();
  for (const baseline::StepSample& s : r.steps) {
    w.BeginObject();
    w.Key("id").Int(s.id);
    w.Key("dur_ns").Int(s.dur_ns);
    w.Key("samples").Double(s.samples);
    w.Key("phases_ns").BeginObject();
    for (const auto& [phase, ns] : s.phases_ns) w.Key(phase).Int(ns);
    w.EndObject();
    w.EndObject();
  }
  w.EndArray();
  w.Key("items_complete").Bool(r.items_complete);
  w.Key("items").BeginArray();
  for (const baseline::RunItem& i : r.items) {
    w.BeginObject();
    w.Key("name").String(i.name);
    w.Key("kind").String(i.kind);
    w.Key("count").Uint(i.count);
    w.Key("total_ns").Int(i.total_ns);
    w.EndObject();
  }
  w.EndArray();
  w.Key("notes").Strings(r.notes);
  w.EndObject();
  return w.TakeDocument();
}

std::string RenderTrendText(const std::string& metric, const std::vector<TrendPoint>& points) {
  if (points.empty()) return fmt::format("{}: no runs\n", metric);
  std::string out = fmt::format("{}\n", metric);
  out += fmt::format("{:>5}  {:<24} {:<20} {:>12} {:>9}\n", "id", "name", "saved (UTC)", "value",
                     "change");
  for (const TrendPoint& p : points) {
    std::string change;
    if (p.change) {
      change = p.change_in_points ? fmt::format("{:+.1f} pts", *p.change)
                                  : fmt::format("{:+.1f}%", *p.change * 100);
    }
    out += fmt::format("{:>5}  {:<24} {:<20} {:>12} {:>9}\n", p.run_id, Truncate(p.name, 24),
                       FormatUnixTime(p.created_unix_s), FormatMetric(metric, p.value), change);
  }
  return out;
}

std::string RenderTrendJson(const std::string& metric, const std::vector<TrendPoint>& points) {
  JsonWriter w;
  w.BeginObject();
  w.Key("metric").String(metric);
  w.Key("points").BeginArray();
  for (const TrendPoint& p : points) {
    w.BeginObject();
    w.Key("run_id").Int(p.run_id);
    w.Key("name").String(p.name);
    w.Key("created_unix_s").Int(p.created_unix_s);
    w.Key("created").String(FormatUnixTime(p.created_unix_s));
    w.Key("value").Double(p.value);
    w.Key("change");
    p.change ? w.Double(*p.change) : w.Null();
    w.Key("change_unit").String(p.change_in_points ? "percentage_points" : "relative");
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return w.TakeDocument();
}

}  // namespace perfdx::report
