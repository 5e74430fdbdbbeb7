#include "perfdx/report/html_report.h"

#include <algorithm>
#include <cmath>
#include <string_view>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "perfdx/advisor/advisor.h"
#include "perfdx/report/cluster_report.h"
#include "perfdx/report/html_page.h"
#include "perfdx/report/html_text.h"
#include "perfdx/report/svg_charts.h"
#include "perfdx/report/text_layout.h"
#include "perfdx/report/units.h"
#include "perfdx/version.h"

namespace perfdx::report {
namespace {

using analysis::RankAnalysis;
using analysis::StepAnalysis;

// The kernels and operators listed: as many as the JSON report holds.
constexpr size_t kTableRows = 50;
constexpr size_t kNameColumns = 72;  // a name cut in the middle beyond this
constexpr size_t kGapRows = 50;
constexpr size_t kCollectiveRows = 20;
// Ranks of a job listed one by one beyond the slow ones (cluster_report.h).
constexpr size_t kHtmlRanksShown = 16;

std::string H(std::string_view s) {
  return EscapeHtml(s);
}

std::string Dur(int64_t ns) {
  return FormatDuration(ns);
}
std::string Share(double s) {
  return FormatShare(s);
}
std::string Bytes(int64_t b) {
  return FormatBytes(static_cast<double>(b));
}

// Chart axes.
std::string DurAxis(double ns) {
  return FormatDuration(std::llround(ns));
}
std::string BytesAxis(double b) {
  return FormatBytes(b);
}
std::string ShareAxis(double s) {
  return fmt::format("{:.0f}%", s * 100);
}

// A number as the sort key of a table cell.
std::string Num(double v) {
  return std::isfinite(v) ? fmt::format("{}", v) : "0";
}
std::string NumI(int64_t v) {
  return fmt::format("{}", v);
}

// A CSS class from an analysis vocabulary word (cause kinds, severities).
std::string CssWord(std::string_view s) {
  std::string out;
  for (char c : s) {
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_') {
      out += c;
    } else if (c >= 'A' && c <= 'Z') {
      out += static_cast<char>(c - 'A' + 'a');
    } else {
      out += '-';
    }
  }
  return out.empty() ? "other" : out;
}

bool StartsWith(std::string_view s, std::string_view p) {
  return s.substr(0, p.size()) == p;
}
std::string RankLabel(const AnalyzeRank& r, size_t index) {
  const model::RankInfo& info = r.analysis.info();
  return info.rank ? fmt::format("rank {}", *info.rank) : fmt::format("trace {}", index + 1);
}

// A name from the trace: shortened in the middle, the full name on hover.
std::string NameCell(std::string_view name, std::string_view shown) {
  return fmt::format("<td class=\"name\" title=\"{}\" data-v=\"{}\">{}</td>", H(name), H(name),
                     H(shown));
}
std::string NameCell(std::string_view name) {
  return NameCell(name, ShortenMiddle(name, kNameColumns));
}
// The names of one table, shortened so that distinct ones stay distinct.
template <typename Rows, typename NameOf>
std::vector<std::string> ShortNames(const Rows& rows, size_t n, NameOf name_of) {
  std::vector<std::string> names;
  for (size_t i = 0; i < rows.size() && i < n; ++i) names.emplace_back(name_of(rows[i]));
  return ShortenDistinct(names, kNameColumns);
}
// The full name, folded; opened, one click selects it whole (user-select: all).
std::string FullNameCell(std::string_view name) {
  return fmt::format(
      "<td class=\"full\"><details><summary>full name</summary><code class=\"copy\">{}</code>"
      "</details></td>",
      H(name));
}
std::string NumCell(double key, const std::string& text) {
  return fmt::format("<td class=\"num\" data-v=\"{}\">{}</td>", Num(key), H(text));
}
std::string DurCell(int64_t ns) {
  return fmt::format("<td class=\"num\" data-v=\"{}\">{}</td>", NumI(ns), H(Dur(ns)));
}
std::string ShareBarCell(double share) {
  const double pct = std::clamp(std::isfinite(share) ? share : 0.0, 0.0, 1.0) * 100;
  return fmt::format(
      "<td class=\"num\" data-v=\"{}\"><span class=\"sharebar\"><span style=\"width:{:.1f}%\">"
      "</span></span>{}</td>",
      Num(share), pct, H(Share(share)));
}
std::string TextCell(std::string_view s) {
  return "<td>" + H(s) + "</td>";
}

// <th> cells; "#" marks a numeric column (sorted largest first), "!" the
// full-name column (left out in print).
std::string Head(std::initializer_list<std::string_view> columns) {
  std::string out = "<thead><tr>";
  for (std::string_view c : columns) {
    const bool num = !c.empty() && c[0] == '#';
    const bool full = !c.empty() && c[0] == '!';
    out += fmt::format("<th{}>{}</th>",
                       num    ? " class=\"num\" data-type=\"num\""
                       : full ? " class=\"fullh\""
                              : "",
                       H(num || full ? c.substr(1) : c));
  }
  return out + "</tr></thead>";
}

// Times on the page are shown from the rank's first analysed step (or the
// earliest time the report holds), not as epoch nanoseconds.
int64_t Origin(const RankAnalysis& a) {
  if (!a.steps.empty()) return a.steps.front().window.start_ns;
  if (!a.gaps.gaps.empty()) return a.gaps.gaps.front().start_ns;
  return 0;
}
std::string At(int64_t t, int64_t origin) {
  return t >= origin ? "t+" + Dur(t - origin) : "t−" + Dur(origin - t);
}

// Sorts a table.sortable by the clicked column (data-v when present, else the
// text; numbers largest first on the first click), opens every <details>
// before printing.
constexpr std::string_view kScript = R"JS(
(function () {
  function key(row, i, num) {
    var c = row.cells[i];
    if (!c) return num ? -Infinity : '';
    var v = c.hasAttribute('data-v') ? c.getAttribute('data-v') : c.textContent;
    return num ? (parseFloat(v) || 0) : v.toLowerCase();
  }
  function sortBy(table, th, i) {
    var num = th.getAttribute('data-type') === 'num';
    var cur = th.getAttribute('aria-sort');
    var dir = cur ? (cur === 'ascending' ? 'descending' : 'ascending') : (num ? 'descending' : 'ascending');
    Array.prototype.forEach.call(th.parentNode.cells, function (h) { h.removeAttribute('aria-sort'); });
    th.setAttribute('aria-sort', dir);
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    var sign = dir === 'ascending' ? 1 : -1;
    rows.sort(function (a, b) {
      var x = key(a, i, num), y = key(b, i, num);
      return x < y ? -sign : x > y ? sign : 0;
    });
    rows.forEach(function (r) { body.appendChild(r); });
  }
  Array.prototype.forEach.call(document.querySelectorAll('table.sortable'), function (table) {
    var head = table.tHead && table.tHead.rows[0];
    if (!head) return;
    Array.prototype.forEach.call(head.cells, function (th, i) {
      th.tabIndex = 0;
      th.addEventListener('click', function () { sortBy(table, th, i); });
      th.addEventListener('keydown', function (e) {
        if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); sortBy(table, th, i); }
      });
    });
  });
  window.addEventListener('beforeprint', function () {
    Array.prototype.forEach.call(document.querySelectorAll('details'), function (d) { d.open = true; });
  });
})();
)JS";

std::string Figure(const std::string& chart, const std::string& legend,
                   const std::string& caption) {
  return "<figure>" + chart + legend +
         (caption.empty() ? "" : "<figcaption>" + caption + "</figcaption>") + "</figure>\n";
}

std::string StatusText(const advisor::HealthRow& row, std::string* css) {
  if (!row.applicable) {
    *css = "not_applicable";
    return "n/a";
  }
  if (!row.judged) {
    *css = "not_judged";
    return "—";
  }
  *css = std::string(advisor::HealthStatusName(row.status));
  switch (row.status) {
    case advisor::HealthStatus::kHealthy:
      return "✓ healthy";
    case advisor::HealthStatus::kWarning:
      return "! warning";
    case advisor::HealthStatus::kAbnormal:
      return "✗ abnormal";
  }
  return "";
}

std::string HealthTable(const AnalyzeRank& entry) {
  std::string out = "<div class=\"tablewrap\"><table class=\"health\">";
  out += Head({"status", "metric", "#value", "healthy"});
  out += "<tbody>";
  for (const advisor::HealthRow& row : entry.health) {
    std::string css;
    const std::string status = StatusText(row, &css);
    const bool share = row.metric != "step_time_cv";
    out +=
        fmt::format("<tr><td class=\"st st-{}\">{}</td><td title=\"{}\">{}</td>{}<td>{}</td></tr>",
                    CssWord(css), H(status), H(row.metric), H(row.label),
                    NumCell(row.value, share ? Share(row.value) : fmt::format("{:.3f}", row.value)),
                    H(row.judged && row.applicable ? row.healthy : ""));
  }
  return out + "</tbody></table></div>\n";
}

// "kernel:NAME" / "op:NAME" as a labelled name.
std::string RestsOn(std::string_view item) {
  const size_t colon = item.find(':');
  std::string_view kind = colon == std::string_view::npos ? "" : item.substr(0, colon);
  std::string_view name = colon == std::string_view::npos ? item : item.substr(colon + 1);
  const std::string_view label = kind == "kernel" ? "kernel" : kind == "op" ? "operator" : kind;
  return fmt::format("<li><span class=\"fw\">{}</span><code title=\"{}\">{}</code></li>", H(label),
                     H(name), H(ShortenMiddle(name, kNameColumns + 28)));
}

// "saves ..." -> "Saves ...": the headlines start with an ASCII word.
std::string SentenceStart(std::string s) {
  if (!s.empty() && s[0] >= 'a' && s[0] <= 'z') s[0] = static_cast<char>(s[0] - 'a' + 'A');
  return s;
}

std::string FindingCard(const advisor::Finding& f, size_t number, int64_t origin,
                        const std::string& id) {
  const std::string sev(advisor::SeverityName(f.severity));
  std::string out = fmt::format(
      "<article class=\"finding sev-{}\" id=\"{}\"><div><span class=\"rankno\">{}</span>"
      "<span class=\"badge sev-{}\">{}</span><h4>{}</h4></div>\n",
      CssWord(sev), H(id), number, CssWord(sev), H(sev), H(f.title));
  if (f.prediction.available) {
    out += fmt::format("<p class=\"gain\"><b>{}</b>: {}.</p>\n", H(SentenceStart(GainHeadline(f))),
                       H(PredictionBasis(f.prediction)));
  } else if (f.gain.ns_per_step > 0) {
    out += fmt::format(
        "<p class=\"gain\">Saves up to <b>{} per step</b> ({} of the mean step) — an upper bound: "
        "other work may fill the time.</p>\n",
        H(Dur(f.gain.ns_per_step)), H(Share(f.gain.share)));
  } else if (!f.gain.basis.empty()) {
    out +=
        fmt::format("<p class=\"gain\">No per-step gain ({}); measured over the trace: {}.</p>\n",
                    H(f.gain.basis), H(Dur(f.gain.total_ns)));
  }
  for (const advisor::FindingOverlap& o : f.overlaps) {
    out += fmt::format("<p class=\"gain\">{}.</p>\n", H(OverlapSentence(o)));
  }
  out +=
      fmt::format("<p class=\"muted\">rule <code>{}</code> · {} · {}{}</p>\n", H(f.rule),
                  H(advisor::CategoryName(f.category)),
                  f.rank ? fmt::format("rank {}", *f.rank) : std::string("rank not recorded"), [&] {
                    if (f.steps.empty()) return std::string(" · all analysed steps");
                    std::string s = " · steps";
                    for (size_t i = 0; i < f.steps.size() && i < 20; ++i)
                      s += fmt::format("{}{}", i ? ", " : " ", f.steps[i]);
                    if (f.steps.size() > 20) s += fmt::format(" … ({} in all)", f.steps.size());
                    return s;
                  }());

  // Recommendations first: what to do, then why.
  if (f.recommendations.empty()) {
    out +=
        "<p class=\"muted\">No fix is shown: none in perfdx's catalogue applies to this "
        "framework with the evidence the trace holds.</p>\n";
  }
  for (const advisor::Recommendation& r : f.recommendations) {
    out += fmt::format("<div class=\"fix\"><span class=\"fw\">{}</span>{}",
                       H(advisor::FixTargetName(r.framework)), H(r.text));
    if (!r.snippet.empty()) out += "<pre><code>" + H(r.snippet) + "</code></pre>";
    if (!r.doc_url.empty()) {
      // A link is followed only on a click; only web documentation is linked.
      if (StartsWith(r.doc_url, "https://") || StartsWith(r.doc_url, "http://")) {
        out += fmt::format(
            "<div><a href=\"{}\" rel=\"noopener noreferrer\" target=\"_blank\">{}</a></div>",
            H(r.doc_url), H(r.doc_url));
      } else {
        out += "<div class=\"muted\">" + H(r.doc_url) + "</div>";
      }
    }
    out += "</div>\n";
  }

  const advisor::Evidence& e = f.evidence;
  out += "<details><summary>Evidence</summary><dl class=\"meta\">";
  out +=
      fmt::format("<dt>metric</dt><dd><code>{}</code> = <b title=\"{}\">{}</b> (threshold {})</dd>",
                  H(e.metric), H(Num(e.value)), H(FormatEvidenceValue(e.value, e.unit)),
                  H(FormatEvidenceValue(e.threshold, e.unit)));
  for (const auto& [key, value] : e.details) {
    out += fmt::format("<dt>{}</dt><dd title=\"{}\">{}</dd>", H(key), H(Num(value)),
                       H(FormatEvidenceDetail(key, value)));
  }
  if (!f.evidence_tags.empty()) {
    out += "<dt>evidence tags</dt><dd>";
    for (size_t i = 0; i < f.evidence_tags.size(); ++i)
      out += (i ? " " : "") + ("<code>" + H(f.evidence_tags[i]) + "</code>");
    out += "</dd>";
  }
  if (!e.ranges.empty()) {
    out += "<dt>where</dt><dd>";
    for (size_t i = 0; i < e.ranges.size(); ++i) {
      out += fmt::format("{}{} – {}", i ? "; " : "", H(At(e.ranges[i].start_ns, origin)),
                         H(At(e.ranges[i].end_ns, origin)));
    }
    out += "</dd>";
  }
  out += "</dl>\n";
  if (!e.contributors.empty()) {
    out += "<div class=\"tablewrap\"><table>" + Head({"top contributor", "#time", "#share"}) +
           "<tbody>";
    const std::vector<std::string> shown =
        ShortNames(e.contributors, e.contributors.size(),
                   [](const advisor::Contributor& c) -> std::string_view { return c.name; });
    for (size_t i = 0; i < e.contributors.size(); ++i) {
      const advisor::Contributor& c = e.contributors[i];
      out += "<tr>" + NameCell(c.name, shown[i]) + DurCell(c.ns) + ShareBarCell(c.share) + "</tr>";
    }
    out += "</tbody></table></div>\n";
  }
  if (!f.rests_on.empty()) {
    out += "<p>The gain rests on:</p><ul class=\"rests\">";
    for (const std::string& item : f.rests_on) out += RestsOn(item);
    out += "</ul>\n";
  }
  out += "</details></article>\n";
  return out;
}

std::string Findings(const std::vector<advisor::Finding>& findings, int64_t origin,
                     const std::string& id_prefix) {
  if (findings.empty()) return "<p>No finding: nothing crossed its threshold.</p>\n";
  std::string out;
  for (size_t i = 0; i < findings.size(); ++i) {
    out += FindingCard(findings[i], i + 1, origin, fmt::format("{}-{}", id_prefix, i + 1));
  }
  return out;
}

const std::vector<svg::Layer>& BreakdownLayers() {
  static const std::vector<svg::Layer> kLayers = {
      {"kernel", "c-kernel"},          {"memcpy", "c-memcpy"},
      {"memset", "c-memset"},          {"communication", "c-communication"},
      {"runtime", "c-runtime"},        {"data loading", "c-dataloader"},
      {"CPU execution", "c-cpu_exec"}, {"other", "c-other"}};
  return kLayers;
}

std::string StepTimeChart(const RankAnalysis& a, size_t index) {
  svg::PointChartData data;
  for (const StepAnalysis& s : a.steps) {
    const bool outlier =
        std::find(a.step_time.outlier_steps.begin(), a.step_time.outlier_steps.end(),
                  s.window.id) != a.step_time.outlier_steps.end();
    data.points.push_back({fmt::format("{}", s.window.id), static_cast<double>(s.window.dur_ns()),
                           outlier,
                           fmt::format("step {}: {}{}", s.window.id, Dur(s.window.dur_ns()),
                                       outlier ? " — outlier" : "")});
  }
  if (!a.steps.empty()) {
    data.references.push_back({"median " + Dur(a.step_time.median_ns),
                               static_cast<double>(a.step_time.median_ns), "ref-median"});
    data.references.push_back(
        {"p90 " + Dur(a.step_time.p90_ns), static_cast<double>(a.step_time.p90_ns), "ref-p90"});
  }
  std::string out =
      svg::PointChart(fmt::format("step-time-{}", index), "Step time by step id", data, DurAxis);
  std::string caption = "Each step's duration by step id; dashed lines: median and p90. ";
  if (a.step_time.outlier_steps.empty()) {
    caption += "No outlier step (longer than median + 3 robust σ and at least 10% above it).";
  } else {
    caption += "Red: outlier steps (longer than median + 3 robust σ and at least 10% above it):";
    for (int64_t id : a.step_time.outlier_steps) caption += fmt::format(" {}", id);
    caption += ".";
  }
  return Figure(out, "", H(caption));
}

std::string StepBreakdownChart(const RankAnalysis& a, size_t index) {
  svg::StackedBarData data;
  data.layers = BreakdownLayers();
  for (const StepAnalysis& s : a.steps) {
    const analysis::StepBreakdown& b = s.breakdown;
    const analysis::StepBreakdown::Shares& sh = b.shares;
    const std::vector<std::pair<int64_t, double>> parts = {
        {b.kernel_ns, sh.kernel},     {b.memcpy_ns, sh.memcpy},
        {b.memset_ns, sh.memset},     {b.communication_ns, sh.communication},
        {b.runtime_ns, sh.runtime},   {b.dataloader_ns, sh.dataloader},
        {b.cpu_exec_ns, sh.cpu_exec}, {b.other_ns, sh.other}};
    svg::Bar bar;
    bar.label = fmt::format("{}", s.window.id);
    for (size_t l = 0; l < parts.size(); ++l) {
      bar.values.push_back(static_cast<double>(parts[l].first));
      bar.tips.push_back(fmt::format("step {} · {}: {} ({} of {})", s.window.id,
                                     data.layers[l].name, Dur(parts[l].first),
                                     Share(parts[l].second), Dur(s.window.dur_ns())));
    }
    data.bars.push_back(std::move(bar));
  }
  return Figure(svg::StackedBarChart(fmt::format("step-breakdown-{}", index),
                                     "Where each step's time goes", data, DurAxis),
                svg::Legend(data.layers),
                "Each step's wall time split as the TensorBoard profiler does: every instant goes "
                "to the first phase active then (kernel &gt; memcpy &gt; memset &gt; communication "
                "&gt; runtime &gt; data loading &gt; CPU execution &gt; other); the phases sum to "
                "the step's duration.");
}

std::string DeviceActivityChart(const RankAnalysis& a, size_t index, int64_t origin) {
  svg::TimelineData data;
  if (!a.steps.empty()) {
    data.start = static_cast<double>(a.steps.front().window.start_ns);
    data.end = static_cast<double>(a.steps.back().window.end_ns);
  } else if (!a.gaps.gaps.empty()) {
    data.start = static_cast<double>(a.gaps.gaps.front().start_ns);
    for (const analysis::Gap& g : a.gaps.gaps)
      data.end = std::max(data.end, static_cast<double>(g.start_ns + g.dur_ns));
  }
  svg::Lane compute{"compute", {}}, comm{"communication", {}}, memcpy{"memcpy", {}};
  for (const StepAnalysis& s : a.steps) {
    const double start = static_cast<double>(s.window.start_ns);
    const double end = static_cast<double>(s.window.end_ns);
    const double dur = std::max<double>(1, static_cast<double>(s.window.dur_ns()));
    const analysis::DeviceTime& d = s.device;
    const std::string step = fmt::format("step {} ({})", s.window.id, Dur(s.window.dur_ns()));
    compute.spans.push_back({start, end, static_cast<double>(d.computing_ns) / dur, "c-computing",
                             fmt::format("{}: computing {}", step, Dur(d.computing_ns))});
    comm.spans.push_back(
        {start, end, static_cast<double>(d.communication_ns) / dur, "c-comm",
         fmt::format("{}: communication {}, of which exposed {}", step, Dur(d.communication_ns),
                     Dur(d.communication_not_overlapped_ns))});
    comm.spans.push_back({start, end, static_cast<double>(d.communication_not_overlapped_ns) / dur,
                          "c-comm-exposed",
                          fmt::format("{}: communication with no compute beside it {}", step,
                                      Dur(d.communication_not_overlapped_ns))});
    memcpy.spans.push_back(
        {start, end, s.breakdown.shares.memcpy, "c-memcpy",
         fmt::format("{}: memcpy outside kernels {} ({})", step, Dur(s.breakdown.memcpy_ns),
                     Share(s.breakdown.shares.memcpy))});
    data.boundaries.push_back({start, fmt::format("step {} starts", s.window.id)});
  }
  svg::Lane idle{"idle gaps", {}};
  std::vector<svg::Layer> causes;
  for (const analysis::Gap& g : a.gaps.gaps) {
    const std::string css = "cause-" + CssWord(g.cause.kind);
    if (std::none_of(causes.begin(), causes.end(),
                     [&](const svg::Layer& l) { return l.css == css; })) {
      causes.push_back({g.cause.kind.empty() ? "other" : g.cause.kind, css});
    }
    std::string tip = fmt::format("idle {} at {} ({} of step {}) — {}", Dur(g.dur_ns),
                                  At(g.start_ns, origin), g.position, g.step, g.cause.kind);
    if (!g.cause.name.empty()) tip += fmt::format(" ({})", ShortenMiddle(g.cause.name, 120));
    tip += fmt::format(", covers {}", Share(g.cause.coverage));
    if (!g.host_activity.empty()) tip += "; host: " + g.host_activity;
    if (!g.stalled_call.empty()) tip += "; stalled call: " + g.stalled_call;
    idle.spans.push_back(
        {static_cast<double>(g.start_ns), static_cast<double>(g.start_ns + g.dur_ns), 1, css, tip});
  }
  if (!a.steps.empty()) {
    data.lanes = {std::move(compute), std::move(comm), std::move(memcpy)};
  }
  data.lanes.push_back(std::move(idle));

  std::vector<svg::Layer> legend = {{"computing", "c-computing"},
                                    {"communication", "c-comm"},
                                    {"communication, exposed", "c-comm-exposed"},
                                    {"memcpy", "c-memcpy"}};
  for (svg::Layer& c : causes) legend.push_back({"idle: " + c.name, c.css});
  const std::string caption = fmt::format(
      "Device activity over the analysed steps (dotted lines: step starts). The report holds "
      "device "
      "time per step, not a finer timeline: the compute, communication and memcpy lanes fill each "
      "step's span to that step's share of its time. The idle gaps (at least {}) are drawn where "
      "they lie, coloured by their cause; hover for the cause and the host function.",
      Dur(a.gaps.min_gap_ns));
  return Figure(svg::TimelineChart(fmt::format("device-activity-{}", index),
                                   "Device activity and idle gaps over time", data, DurAxis),
                svg::Legend(legend), H(caption));
}

std::string StepTable(const RankAnalysis& a, int64_t origin) {
  std::string out =
      "<details><summary>Per-step numbers</summary><div class=\"tablewrap\"><table "
      "class=\"sortable\">";
  out += Head({"#step", "#start", "#time", "#kernel", "#memcpy", "#memset", "#comm", "#runtime",
               "#data loading", "#CPU exec", "#other", "#preparing", "#computing", "#comm exposed",
               "#free", "#trailing", "#comm (all)"});
  out += "<tbody>";
  for (const StepAnalysis& s : a.steps) {
    const analysis::StepBreakdown& b = s.breakdown;
    const analysis::DeviceTime& d = s.device;
    out += "<tr>" + NumCell(static_cast<double>(s.window.id), fmt::format("{}", s.window.id)) +
           NumCell(static_cast<double>(s.window.start_ns - origin), At(s.window.start_ns, origin)) +
           DurCell(s.window.dur_ns()) + DurCell(b.kernel_ns) + DurCell(b.memcpy_ns) +
           DurCell(b.memset_ns) + DurCell(b.communication_ns) + DurCell(b.runtime_ns) +
           DurCell(b.dataloader_ns) + DurCell(b.cpu_exec_ns) + DurCell(b.other_ns) +
           DurCell(d.preparing_ns) + DurCell(d.computing_ns) +
           DurCell(d.communication_not_overlapped_ns) + DurCell(d.free_ns) +
           DurCell(d.trailing_ns) + DurCell(d.communication_ns) + "</tr>\n";
  }
  return out + "</tbody></table></div></details>\n";
}

std::string GapTables(const RankAnalysis& a, int64_t origin) {
  const analysis::GapAnalysis& g = a.gaps;
  std::string out = fmt::format("<p>{} idle gaps of at least {}, {} in all.", g.gaps.size(),
                                H(Dur(g.min_gap_ns)), H(Dur(g.total_ns)));
  if (g.short_gaps.count > 0) {
    out += fmt::format(
        " Shorter ones inside the steps: {}, {} in all; the host dispatching in {} of it, in "
        "optimizer.step() in {}.",
        g.short_gaps.count, H(Dur(g.short_gaps.total_ns)), H(Dur(g.short_gaps.dispatch_ns)),
        H(Dur(g.short_gaps.optimizer_ns)));
  }
  out += "</p>\n";
  if (!g.recurring.empty()) {
    out += "<h4>Recurring gaps</h4><div class=\"tablewrap\"><table class=\"sortable\">";
    out += Head({"cause", "where", "position", "#count", "#steps", "#per step", "#of step time",
                 "#mean", "#total"});
    out += "<tbody>";
    for (const analysis::GapGroup& r : g.recurring) {
      out += "<tr>" + TextCell(r.cause.kind) +
             (r.cause.name.empty() ? TextCell("") : NameCell(r.cause.name)) + TextCell(r.position) +
             NumCell(static_cast<double>(r.count), fmt::format("{}", r.count)) +
             NumCell(static_cast<double>(r.steps), fmt::format("{}", r.steps)) +
             DurCell(r.ns_per_step) + ShareBarCell(r.share_of_step_time) + DurCell(r.mean_dur_ns) +
             DurCell(r.total_ns) + "</tr>\n";
    }
    out += "</tbody></table></div>\n";
  }
  if (!g.gaps.empty()) {
    std::vector<const analysis::Gap*> longest;
    for (const analysis::Gap& gap : g.gaps) longest.push_back(&gap);
    std::stable_sort(longest.begin(), longest.end(),
                     [](const auto* x, const auto* y) { return x->dur_ns > y->dur_ns; });
    if (longest.size() > kGapRows) longest.resize(kGapRows);
    out += fmt::format(
        "<details><summary>{}</summary><div class=\"tablewrap\"><table class=\"sortable\">",
        longest.size() == g.gaps.size()
            ? fmt::format("All {} gaps", g.gaps.size())
            : fmt::format("The {} longest of {} gaps", longest.size(), g.gaps.size()));
    out += Head({"#start", "#duration", "#step", "position", "cause", "in", "#covers",
                 "host activity", "stalled call"});
    out += "<tbody>";
    for (const analysis::Gap* gap : longest) {
      out +=
          "<tr>" + NumCell(static_cast<double>(gap->start_ns - origin), At(gap->start_ns, origin)) +
          DurCell(gap->dur_ns) +
          NumCell(static_cast<double>(gap->step), fmt::format("{}", gap->step)) +
          TextCell(gap->position) + TextCell(gap->cause.kind) +
          (gap->cause.name.empty() ? TextCell("") : NameCell(gap->cause.name)) +
          NumCell(gap->cause.coverage, Share(gap->cause.coverage)) + TextCell(gap->host_activity) +
          (gap->stalled_call.empty() ? TextCell("") : NameCell(gap->stalled_call)) + "</tr>\n";
    }
    out += "</tbody></table></div></details>\n";
  }
  return out;
}

std::string KernelTable(const RankAnalysis& a) {
  const analysis::KernelSummary& k = a.kernels;
  if (k.kernels.empty()) return "<p>No device kernels in the analysed window.</p>\n";
  std::string out = fmt::format(
      "<p>Device work {} in all: matrix work {} of it (in FP32 with no reduced-precision path: {}; "
      "on tensor cores: {}), layout conversions {}.</p>\n",
      H(Dur(k.device_work_ns)), H(Share(k.matrix_share)), H(Share(k.fp32_matrix_share)),
      H(Share(k.tensor_core_share)), H(Share(k.layout_conversion_share)));
  const size_t rows = std::min(k.kernels.size(), kTableRows);
  const std::vector<std::string> shown = ShortNames(
      k.kernels, rows, [](const analysis::KernelStat& s) -> std::string_view { return s.name; });
  if (k.kernels.size() > rows) {
    out += fmt::format("<p>The {} longest of {} kernels.</p>\n", rows, k.kernels.size());
  }
  out += "<div class=\"tablewrap long\"><table class=\"sortable kernels\">";
  out += Head({"#top", "kernel", "class", "kind", "precision", "#count", "#total", "#share",
               "#mean", "#min", "#max", "flags", "!copy"});
  out += "<tbody>";
  for (size_t i = 0; i < rows; ++i) {
    const analysis::KernelStat& s = k.kernels[i];
    std::string flags;
    if (s.matrix) flags += "matrix ";
    if (s.tensor_core) flags += "tensor-core ";
    if (s.fp32_matrix) flags += "fp32-matrix ";
    if (s.layout_conversion) flags += "layout ";
    out += "<tr>" + NumCell(static_cast<double>(i + 1), fmt::format("{}", i + 1)) +
           NameCell(s.name, shown[i]) +
           TextCell(analysis::KernelCategoryName(s.kernel_class.category)) +
           TextCell(model::EventKindName(s.kind)) + TextCell(analysis::PrecisionName(s.precision)) +
           NumCell(static_cast<double>(s.count), fmt::format("{}", s.count)) + DurCell(s.total_ns) +
           ShareBarCell(s.share) + DurCell(s.mean_ns()) + DurCell(s.min_ns) + DurCell(s.max_ns) +
           TextCell(flags) + FullNameCell(s.name) + "</tr>\n";
  }
  out += "</tbody></table></div>\n";
  if (!k.repeated_sequences.empty()) {
    out +=
        "<details><summary>Fusion candidates: kernel sequences that repeat</summary>"
        "<div class=\"tablewrap\"><table class=\"sortable\">";
    out += Head({"kernels in order", "#occurrences", "#device time", "elementwise"});
    out += "<tbody>";
    for (const analysis::KernelSequence& s : k.repeated_sequences) {
      std::string names = "<td class=\"name\"><ol>";
      for (const std::string& n : s.names) {
        names += fmt::format("<li title=\"{}\">{}</li>", H(n), H(ShortenMiddle(n, kNameColumns)));
      }
      names += "</ol></td>";
      out += "<tr>" + names + NumCell(static_cast<double>(s.count), fmt::format("{}", s.count)) +
             DurCell(s.total_ns) + TextCell(s.elementwise ? "yes" : "no") + "</tr>\n";
    }
    out += "</tbody></table></div></details>\n";
  }
  return out;
}

std::string OpTable(const RankAnalysis& a) {
  const analysis::OpSummary& o = a.ops;
  if (o.ops.empty()) return "<p>No operators in the analysed window.</p>\n";
  std::string out =
      fmt::format("<p>Ranked by {} time.</p>\n", o.ranked_by_device ? "device self" : "host self");
  const size_t rows = std::min(o.ops.size(), kTableRows);
  const std::vector<std::string> shown = ShortNames(
      o.ops, rows, [](const analysis::OpStat& op) -> std::string_view { return op.name; });
  if (o.ops.size() > rows) {
    out += fmt::format("<p>The top {} of {} operators.</p>\n", rows, o.ops.size());
  }
  out += "<div class=\"tablewrap long\"><table class=\"sortable ops\">";
  out += Head({"#top", "operator", "#calls", "#host total", "#host self", "#device total",
               "#device self", "!copy"});
  out += "<tbody>";
  for (size_t i = 0; i < rows; ++i) {
    const analysis::OpStat& op = o.ops[i];
    out += "<tr>" + NumCell(static_cast<double>(i + 1), fmt::format("{}", i + 1)) +
           NameCell(op.name, shown[i]) +
           NumCell(static_cast<double>(op.calls), fmt::format("{}", op.calls)) +
           DurCell(op.host_total_ns) + DurCell(op.host_self_ns) + DurCell(op.device_total_ns) +
           DurCell(op.device_self_ns) + FullNameCell(op.name) + "</tr>\n";
  }
  return out + "</tbody></table></div>\n";
}

std::string DeviceName(int32_t id) {
  return id < 0 ? std::string("host") : fmt::format("device {}", id);
}

std::string MemorySection(const RankAnalysis& a, size_t index) {
  svg::HBarData data;
  data.binary = true;
  data.layers = {{"peak allocated", "c-allocated"},
                 {"peak reserved", "c-reserved"},
                 {"capacity", "c-capacity"}};
  for (const analysis::DeviceMemory& m : a.memory.devices) {
    const std::string dev = DeviceName(m.device_id);
    data.bars.push_back(
        {dev + " · allocated",
         "",
         {{0, static_cast<double>(m.peak_allocated_bytes),
           fmt::format("{}: peak allocated {}{}", dev, Bytes(m.peak_allocated_bytes),
                       m.relative ? " (since the trace's start)" : "")}}});
    if (m.peak_reserved_bytes >= 0) {
      data.bars.push_back(
          {dev + " · reserved",
           "",
           {{1, static_cast<double>(m.peak_reserved_bytes),
             fmt::format("{}: peak reserved {}", dev, Bytes(m.peak_reserved_bytes))}}});
    }
    if (m.capacity_bytes) {
      data.bars.push_back({dev + " · capacity",
                           "",
                           {{2, static_cast<double>(*m.capacity_bytes),
                             fmt::format("{}: capacity {}", dev, Bytes(*m.capacity_bytes))}}});
    }
  }
  std::string out = Figure(
      svg::HBarChart(fmt::format("memory-{}", index), "Peak memory per device", data, BytesAxis),
      svg::Legend(data.layers),
      "Peak allocated and reserved memory per device (and the device's capacity where the profiler "
      "recorded it). The report holds each device's peaks, not a memory curve over time.");
  if (a.memory.devices.empty()) return out;
  out += "<div class=\"tablewrap\"><table>";
  out += Head({"device", "#peak allocated", "#peak reserved", "#reserved at allocated peak",
               "#fragmentation at peak", "#capacity", "#allocations", "#frees", "#allocations/step",
               "#frees/step"});
  out += "<tbody>";
  for (const analysis::DeviceMemory& m : a.memory.devices) {
    auto bytes_or_dash = [](int64_t b) {
      return b >= 0 ? NumCell(static_cast<double>(b), Bytes(b)) : NumCell(-1, "—");
    };
    out += "<tr>" + TextCell(DeviceName(m.device_id) + (m.relative ? " (since trace start)" : "")) +
           bytes_or_dash(m.peak_allocated_bytes) + bytes_or_dash(m.peak_reserved_bytes) +
           bytes_or_dash(m.reserved_at_allocated_peak_bytes) +
           (m.fragmentation_at_peak
                ? NumCell(*m.fragmentation_at_peak, Share(*m.fragmentation_at_peak))
                : NumCell(-1, "—")) +
           bytes_or_dash(m.capacity_bytes.value_or(-1)) +
           NumCell(static_cast<double>(m.allocations), fmt::format("{}", m.allocations)) +
           NumCell(static_cast<double>(m.frees), fmt::format("{}", m.frees)) +
           NumCell(m.allocations_per_step, fmt::format("{:.1f}", m.allocations_per_step)) +
           NumCell(m.frees_per_step, fmt::format("{:.1f}", m.frees_per_step)) + "</tr>\n";
  }
  return out + "</tbody></table></div>\n";
}

std::string CollectiveSection(const RankAnalysis& a, int64_t origin) {
  const analysis::CollectiveSummary& c = a.collectives;
  if (c.collectives.empty()) return "";
  std::string out = fmt::format("<h3>Collectives</h3><p>{} collectives in the trace.</p>\n",
                                c.collectives.size());
  out += "<div class=\"tablewrap\"><table class=\"sortable\">";
  out += Head({"type", "#count", "#in window", "#total", "#with size", "#message bytes"});
  out += "<tbody>";
  for (const analysis::CollectiveTypeTotal& t : c.by_type) {
    out += "<tr>" + TextCell(analysis::CollectiveTypeName(t.type)) +
           NumCell(static_cast<double>(t.count), fmt::format("{}", t.count)) +
           NumCell(static_cast<double>(t.in_window), fmt::format("{}", t.in_window)) +
           DurCell(t.total_ns) + NumCell(static_cast<double>(t.sized), fmt::format("{}", t.sized)) +
           NumCell(static_cast<double>(t.message_bytes), Bytes(t.message_bytes)) + "</tr>\n";
  }
  out += "</tbody></table></div>\n";
  if (!c.window_totals.empty()) {
    out += "<p>Link traffic in the window, per transport:</p><div class=\"tablewrap\"><table>";
    out += Head({"transport", "#bytes", "#transit", "#bandwidth", "#transfers", "#large packets"});
    out += "<tbody>";
    for (const analysis::TransportTransit& t : c.window_totals) {
      out += "<tr>" + TextCell(t.transport) +
             NumCell(static_cast<double>(t.transit_bytes), Bytes(t.transit_bytes)) +
             DurCell(t.transit_ns) +
             NumCell(t.bandwidth_gbps(), fmt::format("{:.3g} GB/s", t.bandwidth_gbps())) +
             NumCell(static_cast<double>(t.transfers), fmt::format("{}", t.transfers)) +
             NumCell(t.large_packet_ratio(), Share(t.large_packet_ratio())) + "</tr>\n";
    }
    out += "</tbody></table></div>\n";
  }
  std::vector<const analysis::CollectiveStats*> longest;
  for (const analysis::CollectiveStats& s : c.collectives) longest.push_back(&s);
  std::stable_sort(longest.begin(), longest.end(),
                   [](const auto* x, const auto* y) { return x->dur_ns > y->dur_ns; });
  if (longest.size() > kCollectiveRows) longest.resize(kCollectiveRows);
  out += fmt::format(
      "<details><summary>The {} longest collectives</summary><div class=\"tablewrap\"><table "
      "class=\"sortable\">",
      longest.size());
  out += Head(
      {"name", "type", "#step", "#start", "#duration", "#message", "#algbw", "#busbw", "#wait"});
  out += "<tbody>";
  for (const analysis::CollectiveStats* s : longest) {
    auto gbps = [](const std::optional<double>& v) {
      return v ? NumCell(*v, fmt::format("{:.3g} GB/s", *v)) : NumCell(-1, "—");
    };
    out += "<tr>" + NameCell(s->name) + TextCell(analysis::CollectiveTypeName(s->type)) +
           (s->step_id ? NumCell(static_cast<double>(*s->step_id), fmt::format("{}", *s->step_id))
                       : NumCell(-1, "—")) +
           NumCell(static_cast<double>(s->start_ns - origin), At(s->start_ns, origin)) +
           DurCell(s->dur_ns) +
           (s->message_bytes >= 0
                ? NumCell(static_cast<double>(s->message_bytes), Bytes(s->message_bytes))
                : NumCell(-1, "—")) +
           gbps(s->algbw_gbps) + gbps(s->busbw_gbps) +
           (s->wait_ns >= 0 ? DurCell(s->wait_ns) : NumCell(-1, "—")) + "</tr>\n";
  }
  return out + "</tbody></table></div></details>\n";
}

std::string Features(const model::RuntimeFeatures& f) {
  const std::vector<std::string_view> names = model::FeatureNames(f);
  return names.empty() ? std::string("none detected") : fmt::format("{}", fmt::join(names, ", "));
}

// Links to the parts of rank section `index`.
std::string SectionLinks(size_t index) {
  static constexpr std::pair<std::string_view, std::string_view> kParts[] = {
      {"health", "health"},       {"findings", "findings"}, {"steps", "step time"},
      {"breakdown", "breakdown"}, {"activity", "activity"}, {"kernels", "kernels"},
      {"ops", "operators"},       {"memory", "memory"}};
  std::string out;
  for (const auto& [part, name] : kParts) {
    out += fmt::format("<a href=\"#rank-{}-{}\">{}</a>", index, part, name);
  }
  return out;
}

std::string RankSection(const AnalyzeRank& entry, size_t index, bool several) {
  const RankAnalysis& a = entry.analysis;
  const model::RankInfo& info = a.info();
  const int64_t origin = Origin(a);
  const std::string id = fmt::format("rank-{}", index);
  std::string out =
      fmt::format("<section class=\"rank\" id=\"{}\">\n<h2>{} — <code>{}</code></h2>\n", id,
                  H(RankLabel(entry, index)), H(info.path));

  if (several) out += "<p class=\"parts\">" + SectionLinks(index) + "</p>\n";
  // At a glance.
  out += "<div class=\"cards\">";
  auto card = [&](const std::string& value, std::string_view what) {
    out += fmt::format("<div class=\"card\"><b>{}</b><span>{}</span></div>", H(value), H(what));
  };
  card(a.steps.empty() ? "—" : Dur(a.step_time.mean_ns), "mean step");
  card(fmt::format("{}", a.steps.size()), "steps analysed");
  card(Share(a.summary.device_utilization), a.cpu_only ? "compute timeline busy" : "device busy");
  card(Share(a.summary.idle_share), "idle");
  card(fmt::format("{}", entry.findings.size()), "findings");
  if (!entry.findings.empty() && advisor::RankingGainNs(entry.findings.front()) > 0) {
    const advisor::Finding& top = entry.findings.front();
    card(Dur(advisor::RankingGainNs(top)), advisor::GainIsPredicted(top)
                                               ? "top finding saves per step (replayed)"
                                               : "top finding saves per step (at most)");
  }
  out += "</div>\n";

  out += "<dl class=\"meta\">";
  auto meta = [&](std::string_view k, const std::string& v) {
    out += fmt::format("<dt>{}</dt><dd>{}</dd>", H(k), H(v));
  };
  meta("source", fmt::format("{} on {} ({})", model::SourceFormatName(info.source),
                             info.device_name.empty() ? "unknown device" : info.device_name,
                             model::DeviceTypeName(info.device_type)));
  meta("framework",
       fmt::format("{} on {} (detected from {})", model::FrameworkName(info.runtime.framework),
                   model::PlatformName(info.runtime.platform), info.runtime.detected_from));
  meta("features", Features(info.runtime.features));
  if (!info.distributed_backend.empty()) meta("collective backend", info.distributed_backend);
  meta("window", fmt::format("{} ({}), steps from {}", analysis::AnalysisWindowName(a.window),
                             Dur(a.window_ns), analysis::StepSourceName(a.timeline.source)));
  if (!a.timeline.excluded.empty()) {
    std::string ex;
    for (const analysis::StepWindow& s : a.timeline.excluded) ex += fmt::format(" {}", s.id);
    meta("steps left out", ex);
  }
  for (const std::string& n : a.notes) meta("note", n);
  out += "</dl>\n";

  out += fmt::format("<h3 id=\"{}-health\">Health</h3>\n", id) + HealthTable(entry);
  out += fmt::format("<h3 id=\"{}-findings\">Findings, ranked by gain</h3>\n", id);
  out += Findings(entry.findings, origin, id + "-finding");

  out += fmt::format("<h3 id=\"{}-steps\">Step time</h3>\n", id);
  if (!a.steps.empty()) {
    out += fmt::format(
        "<p>mean {} · median {} · p90 {} · min {} · max {} · coefficient of variation {:.3f}</p>\n",
        H(Dur(a.step_time.mean_ns)), H(Dur(a.step_time.median_ns)), H(Dur(a.step_time.p90_ns)),
        H(Dur(a.step_time.min_ns)), H(Dur(a.step_time.max_ns)), a.step_time.cv);
  }
  out += StepTimeChart(a, index);
  out += fmt::format("<h3 id=\"{}-breakdown\">Step breakdown</h3>\n", id);
  out += StepBreakdownChart(a, index);
  if (!a.steps.empty()) out += StepTable(a, origin);

  out += fmt::format("<h3 id=\"{}-activity\">Device activity and idle gaps</h3>\n", id);
  if (a.temporal.span_ns > 0 && !a.cpu_only) {
    out += fmt::format(
        "<p>Temporal breakdown (HTA) over {}: compute {} · non-compute {} · idle {}{}.</p>\n",
        H(Dur(a.temporal.span_ns)), H(Share(a.temporal.compute_share)),
        H(Share(a.temporal.non_compute_share)), H(Share(a.temporal.idle_share)),
        a.temporal.comm_comp_overlap ? H(fmt::format(" · communication hidden under compute {}",
                                                     Share(*a.temporal.comm_comp_overlap)))
                                     : "");
  }
  out += DeviceActivityChart(a, index, origin);
  out += GapTables(a, origin);

  out += fmt::format("<h3 id=\"{}-kernels\">Top kernels</h3>\n", id) + KernelTable(a);
  out += fmt::format("<h3 id=\"{}-ops\">Top operators</h3>\n", id) + OpTable(a);
  out += fmt::format("<h3 id=\"{}-memory\">Memory</h3>\n", id) + MemorySection(a, index);
  out += CollectiveSection(a, origin);
  return out + "</section>\n";
}

// Each rank's steps side by side (step by step, the ranks in job order): the
// device-time parts, which sum to the step's duration.
std::string RankDeviceTimeChart(const AnalyzeReport& report, const AnalyzeJob& job, size_t j) {
  struct Entry {
    int64_t step_id;
    size_t member;
    const StepAnalysis* step;
  };
  std::vector<Entry> entries;
  for (size_t m : job.members) {
    for (const StepAnalysis& s : report.ranks[m].analysis.steps)
      entries.push_back({s.window.id, m, &s});
  }
  std::stable_sort(entries.begin(), entries.end(),
                   [](const Entry& x, const Entry& y) { return x.step_id < y.step_id; });
  svg::StackedBarData data;
  data.layers = {{"preparing", "c-preparing"},
                 {"computing", "c-computing"},
                 {"communication, exposed", "c-comm-exposed"},
                 {"free", "c-free"},
                 {"trailing", "c-trailing"}};
  for (const Entry& e : entries) {
    const analysis::DeviceTime& d = e.step->device;
    const model::RankInfo& info = report.ranks[e.member].analysis.info();
    const std::string who = RankLabel(report.ranks[e.member], e.member);
    svg::Bar bar;
    bar.label = info.rank ? fmt::format("r{}·{}", *info.rank, e.step_id)
                          : fmt::format("t{}·{}", e.member + 1, e.step_id);
    const int64_t parts[] = {d.preparing_ns, d.computing_ns, d.communication_not_overlapped_ns,
                             d.free_ns, d.trailing_ns};
    for (size_t l = 0; l < data.layers.size(); ++l) {
      bar.values.push_back(static_cast<double>(parts[l]));
      bar.tips.push_back(fmt::format("{}, step {} · {}: {} of {}", who, e.step_id,
                                     data.layers[l].name, Dur(parts[l]),
                                     Dur(e.step->window.dur_ns())));
    }
    data.bars.push_back(std::move(bar));
  }
  return Figure(svg::StackedBarChart(fmt::format("rank-device-time-{}", j),
                                     "Device time per step, rank by rank", data, DurAxis),
                svg::Legend(data.layers),
                "Each step of each rank (labelled rank·step), side by side: preparing (before the "
                "device starts on the step), computing, communication with no compute beside it, "
                "free device time between tasks, and trailing time after the last task; they sum "
                "to the step's duration.");
}

std::string JobSection(const AnalyzeReport& report, const AnalyzeJob& job, size_t j) {
  const std::string id = fmt::format("job-{}", j);
  std::string out =
      fmt::format("<section class=\"job\" id=\"{}\">\n<h2>Across {} ranks of one job</h2>\n", id,
                  job.members.size());
  out += "<div class=\"tablewrap\"><table class=\"sortable\">";
  out += Head({"rank", "#steps", "#mean step", "#median", "#p90", "#device busy", "#compute",
               "#idle", "#comm", "#comm exposed", "#data loading stall", "#findings"});
  out += "<tbody>";
  svg::HBarData shares;
  shares.layers = {{"compute", "c-compute"}, {"non-compute", "c-non_compute"}, {"idle", "c-idle"}};
  shares.max = 1;
  svg::HBarData times;
  times.layers = {{"median step", "c-step"}, {"p90 step", "c-p90"}};
  for (size_t m : job.members) {
    const AnalyzeRank& r = report.ranks[m];
    const RankAnalysis& a = r.analysis;
    const analysis::HealthMetrics& h = a.summary;
    const std::string label = RankLabel(r, m);
    out += fmt::format("<tr><td><a href=\"#rank-{}\">{}</a></td>", m, H(label)) +
           NumCell(static_cast<double>(a.steps.size()), fmt::format("{}", a.steps.size())) +
           DurCell(a.step_time.mean_ns) + DurCell(a.step_time.median_ns) +
           DurCell(a.step_time.p90_ns) +
           NumCell(h.device_utilization, Share(h.device_utilization)) +
           NumCell(h.device_compute_share, Share(h.device_compute_share)) +
           NumCell(h.idle_share, Share(h.idle_share)) + NumCell(h.comm_share, Share(h.comm_share)) +
           NumCell(h.comm_not_overlapped_share, Share(h.comm_not_overlapped_share)) +
           NumCell(h.dataloader_stall_share, Share(h.dataloader_stall_share)) +
           NumCell(static_cast<double>(r.findings.size()), fmt::format("{}", r.findings.size())) +
           "</tr>\n";
    const analysis::TemporalBreakdown& t = a.temporal;
    shares.bars.push_back(
        {label,
         a.info().path,
         {{0, t.compute_share, fmt::format("{}: compute {}", label, Share(t.compute_share))},
          {1, t.non_compute_share,
           fmt::format("{}: non-compute {}", label, Share(t.non_compute_share))},
          {2, t.idle_share, fmt::format("{}: idle {}", label, Share(t.idle_share))}}});
    times.bars.push_back(
        {label + " · median",
         a.info().path,
         {{0, static_cast<double>(a.step_time.median_ns),
           fmt::format("{}: median step {}", label, Dur(a.step_time.median_ns))}}});
    times.bars.push_back({label + " · p90",
                          a.info().path,
                          {{1, static_cast<double>(a.step_time.p90_ns),
                            fmt::format("{}: p90 step {}", label, Dur(a.step_time.p90_ns))}}});
  }
  out += "</tbody></table></div>\n";
  out += "<h3>Temporal breakdown per rank</h3>\n";
  out += Figure(svg::HBarChart(fmt::format("rank-breakdown-{}", j), "Temporal breakdown per rank",
                               shares, ShareAxis),
                svg::Legend(shares.layers),
                "Each rank's device time over its analysed window, as HTA's temporal breakdown: "
                "compute kernels, other device work not hidden under compute, and idle.");
  out += "<h3>Step time per rank</h3>\n";
  out += Figure(
      svg::HBarChart(fmt::format("rank-step-time-{}", j), "Step time per rank", times, DurAxis),
      svg::Legend(times.layers),
      "Median and p90 step time per rank: a rank slower than the others holds the job "
      "back at every collective. The links between ranks are in the JSON report's cluster "
      "section; no communication heat map is drawn.");
  out += "<h3>Device time per step, rank by rank</h3>\n" + RankDeviceTimeChart(report, job, j);
  if (job.cluster) {
    // The cluster section (cluster_report.h): wait vs transit and the clock.
    out += "<h3>Wait vs transit per rank and step</h3>\n";
    out += "<div class=\"tablewrap\"><table class=\"sortable\">";
    out += Head({"rank", "#step", "#time", "#computing", "#comm exposed", "#wait", "#transit",
                 "#free", "#bubble", "#clock offset"});
    out += "<tbody>";
    // A job of thousands of ranks: the first ones and the slow ones.
    const auto [shown, hidden] = ShownRanks(*job.cluster, kHtmlRanksShown);
    for (const cluster::ClusterRank& r : job.cluster->ranks) {
      if (!shown[r.member]) continue;
      const std::string label = r.rank ? fmt::format("rank {}", *r.rank) : r.path;
      for (const cluster::ClusterStep& st : r.steps) {
        out += fmt::format("<tr><td>{}</td>", H(label)) +
               NumCell(static_cast<double>(st.id), fmt::format("{}", st.id)) + DurCell(st.step_ns) +
               DurCell(st.computing_ns) + DurCell(st.communication_not_overlapped_ns) +
               DurCell(st.wait_ns) + DurCell(st.transit_ns) + DurCell(st.free_ns) +
               DurCell(st.bubble_ns) +
               (r.clock_aligned() ? DurCell(r.clock_offset_ns) : "<td>not aligned</td>") +
               "</tr>\n";
      }
    }
    out += "</tbody></table></div>\n";
    if (hidden > 0)
      out +=
          fmt::format("<p>{} more ranks in the JSON report (jobs[].cluster.ranks).</p>\n", hidden);
  }
  out += "<h3>Findings across ranks</h3>\n";
  const int64_t origin =
      job.members.empty() ? 0 : Origin(report.ranks[job.members.front()].analysis);
  out += Findings(job.findings, origin, id + "-finding");
  return out + "</section>\n";
}

// A job's own section: the ranks side by side, and the cross-rank findings.
bool ShowJob(const AnalyzeJob& job) {
  return job.members.size() >= 2 || !job.findings.empty();
}

}  // namespace

void RenderAnalyzeHtml(const AnalyzeReport& report, TextSink& sink) {
  std::string title = "perfdx analyze";
  if (report.ranks.size() == 1) {
    title += " — " + report.ranks.front().analysis.info().path;
  } else if (!report.ranks.empty()) {
    title += fmt::format(" — {} ranks", report.ranks.size());
  }
  std::string out = HtmlPageStart(title);

  out += "<header class=\"page\"><h1>perfdx analyze</h1>\n<p class=\"muted\">";
  if (report.ranks.empty()) {
    out += "No trace could be analysed.";
  } else {
    out += fmt::format("{} trace{}:", report.ranks.size(), report.ranks.size() == 1 ? "" : "s");
    for (size_t i = 0; i < report.ranks.size(); ++i) {
      out +=
          fmt::format("{} <code>{}</code>", i ? "," : "", H(report.ranks[i].analysis.info().path));
    }
    out +=
        ". A finding's gain is the step replayed with its fix where the fix replays, else an "
        "upper bound computed on the measured timeline.";
  }
  out += "</p></header>\n";

  out += "<nav>";
  if (!report.warnings.empty()) out += "<a href=\"#warnings\">warnings</a>";
  for (size_t j = 0; j < report.jobs.size(); ++j) {
    if (ShowJob(report.jobs[j])) out += fmt::format("<a href=\"#job-{}\">all ranks</a>", j);
  }
  for (size_t i = 0; i < report.ranks.size(); ++i) {
    out += fmt::format("<a href=\"#rank-{}\"><b>{}</b></a>", i, H(RankLabel(report.ranks[i], i)));
    // One rank: its parts; several: each rank's section lists its own.
    if (report.ranks.size() == 1) out += SectionLinks(i);
  }
  out += "</nav>\n<main>\n";

  if (!report.warnings.empty()) {
    out += "<section id=\"warnings\"><h2>Warnings</h2><ul class=\"warnings\">";
    for (const std::string& w : report.warnings) out += "<li>" + H(w) + "</li>";
    out += "</ul></section>\n";
  }
  // Section by section: a page of many ranks is never whole in memory.
  for (size_t j = 0; j < report.jobs.size(); ++j) {
    if (ShowJob(report.jobs[j])) out += JobSection(report, report.jobs[j], j);
  }
  sink.Write(out);
  out.clear();
  for (size_t i = 0; i < report.ranks.size(); ++i) {
    sink.Write(RankSection(report.ranks[i], i, report.ranks.size() > 1));
  }
  out += fmt::format(
      "</main>\n<footer>Written by perfdx {} from its analyze report (schema {}: the same "
      "numbers as <code>--format json</code>; docs/metrics.md defines each). This file loads "
      "nothing: it works offline.</footer>\n",
      H(PERFDX_VERSION), kAnalyzeSchemaVersion);
  out += "<script>" + std::string(kScript) + "</script>\n</body>\n</html>\n";
  sink.Write(out);
}

std::string RenderAnalyzeHtml(const AnalyzeReport& report) {
  StringSink page;
  RenderAnalyzeHtml(report, page);
  return page.Take();
}

}  // namespace perfdx::report
