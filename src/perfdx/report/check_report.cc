#include "perfdx/report/check_report.h"

#include <cmath>

#include <fmt/format.h>

#include "perfdx/base/json_writer.h"
#include "perfdx/report/markdown.h"
#include "perfdx/version.h"

namespace perfdx::report {
namespace {

using baseline::CheckResult;
using baseline::Verdict;

// 4 significant digits: a check is about small differences.
std::string PreciseDuration(double ns) {
  const double a = std::fabs(ns);
  if (a < 1e3) return fmt::format("{:.0f} ns", ns);
  if (a < 1e6) return fmt::format("{:.4g} µs", ns / 1e3);
  if (a < 1e9) return fmt::format("{:.4g} ms", ns / 1e6);
  return fmt::format("{:.4g} s", ns / 1e9);
}

std::string SignedPercent(double fraction) {
  return fmt::format("{:+.1f}%", fraction * 100);
}

std::string Percent(double fraction) {
  return fmt::format("{:.4g}%", fraction * 100);
}

std::string Interval(const CheckResult& r) {
  return fmt::format("{:.0f}% CI {} .. {}", r.interval.confidence * 100,
                     SignedPercent(r.interval.low - 1), SignedPercent(r.interval.high - 1));
}

// Why the verdict is what it is, in words.
std::string Reason(const CheckResult& r) {
  const bool slower = r.interval.ratio > 1;
  const std::string threshold =
      slower ? fmt::format("the {} regression threshold", Percent(r.thresholds.max_regression))
             : fmt::format("the {} improvement threshold", Percent(r.thresholds.min_improvement));
  switch (r.verdict) {
    case Verdict::kRegressed:
      return fmt::format("slower past {} and beyond run-to-run noise: roll back or investigate",
                         threshold);
    case Verdict::kImproved:
      return fmt::format("faster past {} and beyond run-to-run noise", threshold);
    case Verdict::kUnchanged:
      break;
  }
  if (!r.beyond_noise) {
    return r.past_threshold ? fmt::format(
                                  "past {}, but the interval includes no change: not beyond noise "
                                  "(more steps would tell)",
                                  threshold)
                            : "within run-to-run noise";
  }
  return fmt::format("{} beyond noise, but not past {}", slower ? "slower" : "faster", threshold);
}

std::string Throughput(double v) {
  return fmt::format("{:.4g} samples/s", v);
}

std::string XmlEscape(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        // XML 1.0 allows no control characters but tab, newline and return.
        if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r') {
          out += ' ';
        } else {
          out += c;
        }
    }
  }
  return out;
}

void WriteSide(ValueSink& w, const std::string& label, size_t steps, double median_ns,
               const std::optional<double>& throughput) {
  w.BeginObject();
  w.Key("label").String(label);
  w.Key("steps").Uint(steps);
  w.Key("median_step_ns").Double(median_ns);
  w.Key("throughput");
  throughput ? w.Double(*throughput) : w.Null();
  w.EndObject();
}

}  // namespace

std::string CheckSummary(const CheckResult& r) {
  return fmt::format("{}: median step time {} -> {} ({}, {}); {}", baseline::VerdictName(r.verdict),
                     PreciseDuration(r.base_median_ns), PreciseDuration(r.new_median_ns),
                     SignedPercent(r.change()), Interval(r), Reason(r));
}

std::string RenderCheckText(const CheckResult& r) {
  std::string out = CheckSummary(r) + "\n";
  out += fmt::format("  base  {}: {} steps, median {}\n", r.base_label, r.base_steps,
                     PreciseDuration(r.base_median_ns));
  out += fmt::format("  new   {}: {} steps, median {}\n", r.new_label, r.new_steps,
                     PreciseDuration(r.new_median_ns));
  if (r.base_throughput && r.new_throughput) {
    out += fmt::format("  throughput {} -> {} ({})\n", Throughput(*r.base_throughput),
                       Throughput(*r.new_throughput),
                       SignedPercent(*r.new_throughput / *r.base_throughput - 1));
  }
  out += fmt::format(
      "  method: bootstrap CI of the median step-time ratio, {} resamples, seed {:#x}; "
      "regression past +{}, improvement past -{}\n",
      r.interval.resamples, r.interval.seed, Percent(r.thresholds.max_regression),
      Percent(r.thresholds.min_improvement));
  for (const std::string& n : r.notes) out += fmt::format("  note: {}\n", n);
  return out;
}

void WriteCheckResult(const CheckResult& r, ValueSink& w) {
  w.BeginObject();
  w.Key("schema_version").Int(kCheckSchemaVersion);
  w.Key("report").String("check");
  w.Key("perfdx_version").String(PERFDX_VERSION);
  w.Key("verdict").String(baseline::VerdictName(r.verdict));
  w.Key("step_time_ratio").Double(r.interval.ratio);
  w.Key("ci").BeginArray().Double(r.interval.low).Double(r.interval.high).EndArray();
  w.Key("method").String(r.method);
  w.Key("confidence").Double(r.interval.confidence);
  w.Key("resamples").Int(r.interval.resamples);
  w.Key("seed").Uint(r.interval.seed);
  w.Key("change").Double(r.change());
  w.Key("beyond_noise").Bool(r.beyond_noise);
  w.Key("past_threshold").Bool(r.past_threshold);
  w.Key("thresholds").BeginObject();
  w.Key("max_regression").Double(r.thresholds.max_regression);
  w.Key("min_improvement").Double(r.thresholds.min_improvement);
  w.EndObject();
  w.Key("base");
  WriteSide(w, r.base_label, r.base_steps, r.base_median_ns, r.base_throughput);
  w.Key("new");
  WriteSide(w, r.new_label, r.new_steps, r.new_median_ns, r.new_throughput);
  w.Key("summary").String(CheckSummary(r));
  w.Key("notes").Strings(r.notes);
  w.EndObject();
}

std::string RenderCheckJson(const CheckResult& r) {
  JsonWriter w;
  WriteCheckResult(r, w);
  return w.TakeDocument();
}

std::string RenderCheckMarkdown(const CheckResult& r) {
  const char* icon = r.verdict == Verdict::kImproved    ? ":white_check_mark:"
                     : r.verdict == Verdict::kRegressed ? ":x:"
                                                        : ":heavy_minus_sign:";
  std::string out =
      fmt::format("### {} perfdx check: **{}**\n\n", icon, baseline::VerdictName(r.verdict));
  out += "| | base | new | change |\n|---|---|---|---|\n";
  out +=
      fmt::format("| median step time | {} | {} | {} ({}) |\n", PreciseDuration(r.base_median_ns),
                  PreciseDuration(r.new_median_ns), SignedPercent(r.change()), Interval(r));
  if (r.base_throughput && r.new_throughput) {
    out += fmt::format("| throughput | {} | {} | {} |\n", Throughput(*r.base_throughput),
                       Throughput(*r.new_throughput),
                       SignedPercent(*r.new_throughput / *r.base_throughput - 1));
  }
  out += fmt::format("| steps | {} | {} | |\n", r.base_steps, r.new_steps);
  out += fmt::format("| run | {} | {} | |\n\n", MdCell(r.base_label), MdCell(r.new_label));
  out += fmt::format("{}.\n\n", Reason(r));
  out += fmt::format(
      "<sub>Bootstrap CI of the median step-time ratio ({} resamples, seed {:#x}); "
      "regression past +{}, improvement past -{}.</sub>\n",
      r.interval.resamples, r.interval.seed, Percent(r.thresholds.max_regression),
      Percent(r.thresholds.min_improvement));
  for (const std::string& n : r.notes) out += fmt::format("\n> note: {}\n", n);
  return out;
}

std::string RenderCheckJunit(const CheckResult& r) {
  const bool failed = r.verdict == Verdict::kRegressed;
  const std::string summary = XmlEscape(CheckSummary(r));
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out +=
      fmt::format("<testsuites name=\"perfdx check\" tests=\"1\" failures=\"{}\" errors=\"0\">\n",
                  failed ? 1 : 0);
  out += fmt::format(
      "  <testsuite name=\"perfdx check\" tests=\"1\" failures=\"{}\" errors=\"0\" "
      "skipped=\"0\">\n",
      failed ? 1 : 0);
  out += fmt::format("    <testcase classname=\"perfdx.check\" name=\"{}\">\n",
                     XmlEscape(fmt::format("step time: {} vs {}", r.new_label, r.base_label)));
  if (failed) {
    out += fmt::format("      <failure type=\"regression\" message=\"{}\">{}</failure>\n", summary,
                       summary);
  }
  out += fmt::format("      <system-out>{}</system-out>\n", XmlEscape(RenderCheckText(r)));
  out += "    </testcase>\n  </testsuite>\n</testsuites>\n";
  return out;
}

}  // namespace perfdx::report
