#include "perfdx/report/check_report.h"

#include <cmath>

#include <fmt/format.h>

#include "perfdx/base/json_writer.h"
#include "perfdx/report/html_page.h"
#include "perfdx/report/html_text.h"
#include "perfdx/report/markdown.h"
#include "perfdx/report/svg_charts.h"
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

// The HTML page's pieces.
std::string H(std::string_view s) {
  return EscapeHtml(s);
}
std::string DurAxis(double ns) {
  return PreciseDuration(ns);
}

// Each side's step times on one axis, each median marked, and the band in
// which the new median counts as unchanged by the thresholds alone.
std::string DistributionChart(const CheckResult& r) {
  svg::StripData data;
  auto row = [](std::string name, std::string css, const std::vector<double>& steps,
                double median) {
    svg::StripRow out;
    out.name = name;
    out.css = std::move(css);
    out.values = steps;
    for (size_t i = 0; i < steps.size(); ++i) {
      out.tips.push_back(fmt::format("{} step {} of {}: {}", name, i + 1, steps.size(),
                                     PreciseDuration(steps[i])));
    }
    out.median = median;
    out.median_tip = fmt::format("median({}): {}", name, PreciseDuration(median));
    return out;
  };
  data.rows.push_back(row("base", "c-base", r.base_step_ns, r.base_median_ns));
  data.rows.push_back(row("new", "c-new", r.new_step_ns, r.new_median_ns));
  const double low = r.base_median_ns * (1 - r.thresholds.min_improvement);
  const double high = r.base_median_ns * (1 + r.thresholds.max_regression);
  data.bands.push_back(
      {low, high,
       fmt::format("thresholds: median(base) × (1 − {} … 1 + {}) = {} … {}",
                   Percent(r.thresholds.min_improvement), Percent(r.thresholds.max_regression),
                   PreciseDuration(low), PreciseDuration(high))});
  return svg::StripChart("check-distribution", "step times of the base and new runs", data,
                         DurAxis);
}

std::string Row(std::string_view name, const std::string& base, const std::string& current,
                const std::string& change) {
  return fmt::format(
      "<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td "
      "class=\"num\">{}</td></tr>\n",
      H(name), H(base), H(current), H(change));
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

std::string RenderCheckHtml(const CheckResult& r) {
  const std::string verdict(baseline::VerdictName(r.verdict));
  std::string out = HtmlPageStart(
      fmt::format("perfdx check — {}: {} against {}", verdict, r.new_label, r.base_label));
  out += "<header class=\"page\"><h1>perfdx check</h1>\n";
  out += fmt::format(
      "<dl class=\"meta\"><dt>base</dt><dd><code>{}</code></dd><dt>new</dt><dd><code>{}</code></dd>"
      "</dl>\n",
      H(r.base_label), H(r.new_label));
  out += fmt::format("<p class=\"verdict v-{}\">{}</p></header>\n<main>\n<section>\n", H(verdict),
                     H(CheckSummary(r)));

  out += "<h2>Step time</h2>\n<div class=\"tablewrap\"><table class=\"check\">";
  out +=
      "<thead><tr><th></th><th class=\"num\">base</th><th class=\"num\">new</th><th "
      "class=\"num\">change</th></tr></thead>\n<tbody>\n";
  out += Row("median step time", PreciseDuration(r.base_median_ns),
             PreciseDuration(r.new_median_ns), SignedPercent(r.change()));
  out += Row(fmt::format("{:.0f}% CI of the change", r.interval.confidence * 100), "", "",
             fmt::format("{} .. {}", SignedPercent(r.interval.low - 1),
                         SignedPercent(r.interval.high - 1)));
  if (r.base_throughput && r.new_throughput) {
    out += Row("throughput", Throughput(*r.base_throughput), Throughput(*r.new_throughput),
               SignedPercent(*r.new_throughput / *r.base_throughput - 1));
  }
  out += Row("steps", fmt::format("{}", r.base_steps), fmt::format("{}", r.new_steps), "");
  out += "</tbody></table></div>\n";
  out += fmt::format("<p>{}.</p>\n", H(Reason(r)));

  out += "<h3>Step-time distributions</h3>\n<figure>" + DistributionChart(r);
  out += svg::Legend({{"base step", "c-base"},
                      {"new step", "c-new"},
                      {"median", "median"},
                      {"within the thresholds", "band"}});
  out += fmt::format(
      "<figcaption>Each dot is one step the verdict was computed from (after the warm-up cut); "
      "the bar is each run's median; the band is median(base) × (1 − {} … 1 + {}): a new median "
      "inside it is unchanged whatever the noise.</figcaption></figure>\n",
      H(Percent(r.thresholds.min_improvement)), H(Percent(r.thresholds.max_regression)));

  out += fmt::format(
      "<p class=\"note\">Method: bootstrap confidence interval of the median step-time ratio, {} "
      "resamples, seed {:#x}; regression past +{}, improvement past −{}, each also beyond "
      "run-to-run noise.</p>\n",
      r.interval.resamples, r.interval.seed, H(Percent(r.thresholds.max_regression)),
      H(Percent(r.thresholds.min_improvement)));
  if (!r.notes.empty()) {
    out += "<ul class=\"warnings\">";
    for (const std::string& n : r.notes) out += "<li>" + H(n) + "</li>";
    out += "</ul>\n";
  }
  out += fmt::format(
      "</section>\n</main>\n<footer>Written by perfdx {} from its check result (schema {}: the "
      "same numbers as <code>--format json</code>). This file loads nothing: it works "
      "offline.</footer>\n</body>\n</html>\n",
      H(PERFDX_VERSION), kCheckSchemaVersion);
  return out;
}

}  // namespace perfdx::report
