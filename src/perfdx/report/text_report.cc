#include "perfdx/report/text_report.h"

#include <algorithm>
#include <string_view>

#include <fmt/format.h>

#include "perfdx/report/cluster_report.h"
#include "perfdx/report/text_layout.h"
#include "perfdx/report/text_table.h"
#include "perfdx/report/units.h"

namespace perfdx::report {
namespace {

using analysis::RankAnalysis;

// Colour on or off: the same text either way, less the escape sequences.
class Style {
 public:
  explicit Style(bool on) : on_(on) {}
  std::string Bold(std::string_view s) const { return Sgr("1", s); }
  std::string Red(std::string_view s) const { return Sgr("1;31", s); }
  std::string Yellow(std::string_view s) const { return Sgr("33", s); }
  std::string Green(std::string_view s) const { return Sgr("32", s); }
  std::string Cyan(std::string_view s) const { return Sgr("36", s); }
  std::string Dim(std::string_view s) const { return Sgr("2", s); }

 private:
  std::string Sgr(std::string_view code, std::string_view s) const {
    if (!on_ || s.empty()) return std::string(s);
    return fmt::format("\x1b[{}m{}\x1b[0m", code, s);
  }
  bool on_;
};

struct Layout {
  size_t width;
  size_t top;
  bool fixes;
  Style style;
};

// A sentence of the report: wrapped, its continuation lines indented two
// more columns than its first.
void Say(std::string& out, const Layout& l, std::string_view text, size_t indent = 2) {
  AppendLines(out, Wrap(Printable(text), l.width, std::string(indent, ' '), indent + 2));
}

void Heading(std::string& out, const Layout& l, std::string_view text) {
  out += '\n';
  AppendLines(out, Wrap(l.style.Bold(text), l.width, "", 2));
}

// "(memset, other left out to fit 60 columns; --format json has them)".
void SayDropped(std::string& out, const Layout& l, const TextTable& table, size_t indent) {
  const std::string note = DroppedColumnsNote(table, l.width, "the JSON report");
  if (!note.empty()) Say(out, l, note, indent);
}

std::string SeverityTag(const Layout& l, advisor::Severity s) {
  const std::string tag = fmt::format("[{}]", advisor::SeverityName(s));
  switch (s) {
    case advisor::Severity::kCritical:
      return l.style.Red(tag);
    case advisor::Severity::kWarning:
      return l.style.Yellow(tag);
    case advisor::Severity::kInfo:
      return l.style.Cyan(tag);
  }
  return tag;
}

void RenderFindings(std::string& out, const Layout& l,
                    const std::vector<advisor::Finding>& findings) {
  Heading(out, l, "FINDINGS — ranked by the gain each one leads with");
  if (findings.empty()) {
    out += "  none\n";
    return;
  }
  size_t n = 0;
  for (const advisor::Finding& f : findings) {
    if (n == l.top) break;
    std::string text = fmt::format("{} {}", SeverityTag(l, f.severity), Printable(f.title));
    if (const std::string gain = GainHeadline(f); !gain.empty()) text += " — " + gain;
    if (f.prediction.available) text += "; " + PredictionBasis(f.prediction);
    for (const advisor::FindingOverlap& o : f.overlaps) {
      // The other finding by its number here, where it is listed.
      std::string which;
      for (size_t k = 0; k < findings.size() && k < l.top; ++k) {
        if (findings[k].rule == o.rule && findings[k].title == o.title) {
          which = fmt::format("#{} ({})", k + 1, o.rule);
          break;
        }
      }
      text += "; " + OverlapSentence(o, which);
    }
    const std::string number = fmt::format("  {}. ", ++n);
    AppendLines(out, Wrap(text, l.width, number, DisplayWidth(number)));
    if (!l.fixes) continue;
    for (const advisor::Recommendation& r : f.recommendations) {
      AppendLines(out,
                  Wrap(fmt::format("fix for {}: {}", advisor::FixTargetName(r.framework), r.text),
                       l.width, "     ", 7));
      if (!r.snippet.empty()) AppendLines(out, WrapCodeBlock(r.snippet, l.width, 7));
      if (!r.doc_url.empty()) AppendLines(out, Wrap("see " + r.doc_url, l.width, "       ", 7));
    }
  }
  if (findings.size() > n) {
    Say(out, l,
        fmt::format("({} more finding{}: --top {} shows them all, as does the JSON report)",
                    findings.size() - n, findings.size() - n == 1 ? "" : "s", findings.size()));
  }
}

std::string StatusMark(const Layout& l, const advisor::HealthRow& row) {
  if (!row.applicable) return l.style.Dim("n/a");
  if (!row.judged) return "";
  switch (row.status) {
    case advisor::HealthStatus::kHealthy:
      return l.style.Green("✓");
    case advisor::HealthStatus::kWarning:
      return l.style.Yellow("!");
    case advisor::HealthStatus::kAbnormal:
      return l.style.Red("✗");
  }
  return "";
}

// ", torch.compile, CUDA graphs, DDP" — the features a reader acts on.
std::string FeatureList(const model::RuntimeFeatures& f) {
  std::string out;
  for (std::string_view name : model::FeatureNames(f)) out += fmt::format(", {}", name);
  return out;
}

void RenderHealth(std::string& out, const Layout& l, const AnalyzeRank& entry) {
  Heading(out, l, "HEALTH");
  TextTable table({{.header = ""},
                   {.header = "", .shrink = true},
                   {.header = "", .right = true},
                   {.header = "healthy band", .drop = 1}},
                  /*header_line=*/false);
  for (const advisor::HealthRow& row : entry.health) {
    const bool pct = row.metric != "step_time_cv";
    table.AddRow({StatusMark(l, row), Printable(row.label),
                  pct ? FormatShare(row.value) : fmt::format("{:.3f}", row.value),
                  row.judged ? "healthy " + row.healthy : ""});
  }
  AppendLines(out, table.Render(l.width, 2));
  SayDropped(out, l, table, 2);
}

void RenderMacro(std::string& out, const Layout& l, const RankAnalysis& a) {
  Heading(out, l, "MACRO — timeline continuity");
  Say(out, l,
      fmt::format("{} busy {} of {} analysed (compute kernels alone {}); idle {}",
                  a.cpu_only ? "compute timeline" : "device",
                  FormatShare(a.summary.device_utilization), FormatDuration(a.window_ns),
                  FormatShare(a.summary.device_compute_share), FormatShare(a.summary.idle_share)));
  if (a.temporal.span_ns > 0 && !a.cpu_only) {
    Say(out, l,
        fmt::format("temporal breakdown (HTA): compute {} · non-compute {} · idle {} of {}",
                    FormatShare(a.temporal.compute_share),
                    FormatShare(a.temporal.non_compute_share), FormatShare(a.temporal.idle_share),
                    FormatDuration(a.temporal.span_ns)));
  }
  if (a.temporal.comm_comp_overlap) {
    Say(out, l,
        fmt::format("communication hidden under compute: {}",
                    FormatShare(*a.temporal.comm_comp_overlap)));
  }
  Say(out, l,
      fmt::format("idle gaps >= {}: {} totalling {}", FormatDuration(a.gaps.min_gap_ns),
                  a.gaps.gaps.size(), FormatDuration(a.gaps.total_ns)));
  if (const analysis::ShortGapTotals& sg = a.gaps.short_gaps; sg.count > 0) {
    Say(out, l,
        fmt::format("shorter gaps inside steps: {} totalling {}; the host dispatching in {}, in "
                    "optimizer.step() in {}",
                    sg.count, FormatDuration(sg.total_ns), FormatDuration(sg.dispatch_ns),
                    FormatDuration(sg.optimizer_ns)));
  }
  const size_t groups = std::min(a.gaps.recurring.size(), l.top);
  // The causes' names side by side: shortened to stay distinct.
  std::vector<std::string> causes;
  for (size_t i = 0; i < groups; ++i) causes.push_back(Printable(a.gaps.recurring[i].cause.name));
  causes = ShortenDistinct(causes, std::min<size_t>(60, l.width - 8));
  for (size_t i = 0; i < groups; ++i) {
    const analysis::GapGroup& g = a.gaps.recurring[i];
    Say(out, l,
        fmt::format("recurring: {} per step ({} of step time) at the {} of {}/{} steps — {}{}",
                    FormatDuration(g.ns_per_step), FormatShare(g.share_of_step_time), g.position,
                    g.steps, a.steps.size(), g.cause.kind,
                    causes[i].empty() ? "" : fmt::format(" ({})", causes[i])));
  }
  if (a.gaps.recurring.size() > groups) {
    Say(out, l,
        fmt::format("({} smaller recurring groups in the JSON report)",
                    a.gaps.recurring.size() - groups));
  }
}

// The steps the tables list: all of them, or the `top` longest (in step
// order) when there are more.
std::vector<const analysis::StepAnalysis*> ListedSteps(const RankAnalysis& a, size_t top) {
  std::vector<const analysis::StepAnalysis*> steps;
  for (const analysis::StepAnalysis& s : a.steps) steps.push_back(&s);
  if (steps.size() <= top) return steps;
  std::stable_sort(steps.begin(), steps.end(), [](const auto* x, const auto* y) {
    return x->window.dur_ns() > y->window.dur_ns();
  });
  steps.resize(top);
  std::stable_sort(steps.begin(), steps.end(),
                   [](const auto* x, const auto* y) { return x->window.id < y->window.id; });
  return steps;
}

void RenderMeso(std::string& out, const Layout& l, const RankAnalysis& a) {
  Heading(out, l, "MESO — where each step's time goes");
  if (a.steps.empty()) return;
  const std::vector<const analysis::StepAnalysis*> steps = ListedSteps(a, l.top);
  if (steps.size() < a.steps.size()) {
    Say(out, l,
        fmt::format("the {} longest of {} steps (--top; the JSON report has every step)",
                    steps.size(), a.steps.size()));
  }
  using Shares = analysis::StepBreakdown::Shares;
  struct Part {
    const char* header;
    double Shares::*share;
    int drop;  // when the width is short: the all-zero columns go first, then these
  };
  constexpr Part kParts[] = {
      {"kernel", &Shares::kernel, 0},    {"memcpy", &Shares::memcpy, 16},
      {"memset", &Shares::memset, 10},   {"comm", &Shares::communication, 17},
      {"runtime", &Shares::runtime, 13}, {"dataload", &Shares::dataloader, 15},
      {"cpu", &Shares::cpu_exec, 12},    {"other", &Shares::other, 11},
  };
  std::vector<TextColumn> columns = {{.header = "step", .right = true},
                                     {.header = "time", .right = true}};
  for (const Part& p : kParts) {
    const bool zero = std::all_of(steps.begin(), steps.end(), [&](const auto* s) {
      return FormatShare(s->breakdown.shares.*p.share) == FormatShare(0);
    });
    columns.push_back(
        {.header = p.header, .right = true, .drop = p.drop == 0 ? 0 : p.drop - (zero ? 9 : 0)});
  }
  TextTable breakdown(std::move(columns));
  for (const analysis::StepAnalysis* s : steps) {
    std::vector<std::string> row = {fmt::format("{}", s->window.id),
                                    FormatDuration(s->window.dur_ns())};
    for (const Part& p : kParts) row.push_back(FormatShare(s->breakdown.shares.*p.share));
    breakdown.AddRow(std::move(row));
  }
  AppendLines(out, breakdown.Render(l.width, 2));
  SayDropped(out, l, breakdown, 2);

  const bool any_device = std::any_of(a.steps.begin(), a.steps.end(), [](const auto& s) {
    return s.device.computing_ns + s.device.communication_ns > 0;
  });
  if (!any_device) return;
  // The parts preparing + computing + comm exposed + free + trailing sum to
  // the step's time; comm (all of it, overlapped or not) is beside them.
  Say(out, l,
      "device time per step: preparing + computing + comm exposed + free + trailing = time");
  TextTable device({{.header = "step", .right = true},
                    {.header = "time", .right = true},
                    {.header = "preparing", .right = true, .drop = 3},
                    {.header = "computing", .right = true},
                    {.header = "comm exposed", .right = true, .drop = 4},
                    {.header = "free", .right = true, .drop = 5},
                    {.header = "trailing", .right = true, .drop = 2},
                    {.header = "comm", .right = true, .drop = 1}});
  for (const analysis::StepAnalysis* s : steps) {
    device.AddRow({fmt::format("{}", s->window.id), FormatDuration(s->window.dur_ns()),
                   FormatDuration(s->device.preparing_ns), FormatDuration(s->device.computing_ns),
                   FormatDuration(s->device.communication_not_overlapped_ns),
                   FormatDuration(s->device.free_ns), FormatDuration(s->device.trailing_ns),
                   FormatDuration(s->device.communication_ns)});
  }
  AppendLines(out, device.Render(l.width, 2));
  SayDropped(out, l, device, 2);
}

void RenderMicro(std::string& out, const Layout& l, const RankAnalysis& a) {
  Heading(out, l, "MICRO — operators and kernels");
  const bool by_device = a.ops.ranked_by_device;
  const size_t ops = std::min(a.ops.ops.size(), l.top);
  if (ops > 0) {
    Say(out, l,
        fmt::format(
            "top operators by {} time{}", by_device ? "device self" : "host self",
            a.ops.ops.size() > ops ? fmt::format(" ({} of {})", ops, a.ops.ops.size()) : ""));
    TextTable table({{.header = "operator", .shrink = true},
                     {.header = "calls", .right = true, .drop = 1},
                     {.header = by_device ? "device self" : "host self", .right = true}});
    for (size_t i = 0; i < ops; ++i) {
      const analysis::OpStat& op = a.ops.ops[i];
      table.AddRow({Printable(op.name), fmt::format("{}", op.calls),
                    FormatDuration(by_device ? op.device_self_ns : op.host_self_ns)});
    }
    AppendLines(out, table.Render(l.width, 4));
    SayDropped(out, l, table, 4);
  }
  const size_t kernels = std::min(a.kernels.kernels.size(), l.top);
  if (kernels > 0) {
    Say(out, l,
        fmt::format("top kernels{}",
                    a.kernels.kernels.size() > kernels
                        ? fmt::format(" ({} of {})", kernels, a.kernels.kernels.size())
                        : ""));
    TextTable table({{.header = "kernel", .shrink = true},
                     {.header = "share", .right = true},
                     {.header = "total", .right = true, .drop = 4},
                     {.header = "calls", .right = true, .drop = 2},
                     {.header = "mean", .right = true, .drop = 1},
                     {.header = "note", .drop = 3}});
    for (size_t i = 0; i < kernels; ++i) {
      const analysis::KernelStat& k = a.kernels.kernels[i];
      table.AddRow({Printable(k.name), FormatShare(k.share), FormatDuration(k.total_ns),
                    fmt::format("{}", k.count), FormatDuration(k.mean_ns()),
                    k.fp32_matrix         ? "[fp32 matrix]"
                    : k.layout_conversion ? "[layout]"
                                          : ""});
    }
    AppendLines(out, table.Render(l.width, 4));
    SayDropped(out, l, table, 4);
    Say(out, l,
        fmt::format(
            "matrix work {} of device time (fp32, no tensor cores: {}); layout conversions {}",
            FormatShare(a.kernels.matrix_share), FormatShare(a.kernels.fp32_matrix_share),
            FormatShare(a.kernels.layout_conversion_share)));
  }
  for (const analysis::DeviceMemory& m : a.memory.devices) {
    std::string line =
        fmt::format("memory {}: peak allocated {}{}",
                    m.device_id < 0 ? std::string("host") : fmt::format("device {}", m.device_id),
                    FormatBytes(static_cast<double>(m.peak_allocated_bytes)),
                    m.relative ? " (since trace start)" : "");
    if (m.peak_reserved_bytes >= 0)
      line += fmt::format(", reserved {}", FormatBytes(static_cast<double>(m.peak_reserved_bytes)));
    if (m.fragmentation_at_peak)
      line += fmt::format(", fragmentation {}", FormatShare(*m.fragmentation_at_peak));
    line += fmt::format(", {:.0f} allocations/step", m.allocations_per_step);
    Say(out, l, line);
  }
}

void RenderRank(std::string& out, const Layout& l, const AnalyzeRank& entry) {
  const RankAnalysis& a = entry.analysis;
  const model::RankInfo& info = a.info();
  AppendLines(out, Wrap(l.style.Bold(fmt::format(
                            "═══ rank {} — {} ({} on {})",
                            info.rank ? fmt::format("{}", *info.rank) : "?", Printable(info.path),
                            model::SourceFormatName(info.source), Printable(info.device_name))),
                        l.width, "", 4));
  Say(out, l,
      fmt::format("framework: {} on {}{} (from {})", model::FrameworkName(info.runtime.framework),
                  model::PlatformName(info.runtime.platform), FeatureList(info.runtime.features),
                  info.runtime.detected_from),
      0);
  Say(out, l,
      fmt::format("steps: {} analysed ({}), window {}, mean step {}", a.steps.size(),
                  analysis::StepSourceName(a.timeline.source),
                  analysis::AnalysisWindowName(a.window), FormatDuration(a.step_time.mean_ns)),
      0);
  Say(out, l, ReplaySentence(a.replay), 0);
  for (const std::string& n : a.notes) Say(out, l, "note: " + n);

  RenderHealth(out, l, entry);
  RenderFindings(out, l, entry.findings);
  RenderMacro(out, l, a);
  RenderMeso(out, l, a);
  RenderMicro(out, l, a);
  out += '\n';
}

// The job's cluster section (cluster/cluster_analysis.h): the per-rank
// table, clock offsets, the most skewed collectives, the links.
// A job's ranks and links listed one by one up to these counts.
constexpr size_t kAllLinksShown = 64;
// A kernel named in a sentence: at most this many columns.
constexpr size_t kNameColumns = 60;
// Slow links said in words from this shortfall (msprof-analyze's 5%).
constexpr double kSlowLinkShown = 0.05;

void RenderCluster(std::string& out, const Layout& l, const cluster::ClusterAnalysis& c) {
  auto name = [&](size_t member) {
    const cluster::ClusterRank& r = c.ranks[member];
    return r.rank ? fmt::format("{}", *r.rank) : r.path;
  };
  auto table_lines = [&](const TextTable& t) {
    AppendLines(out, t.Render(l.width, 2));
    SayDropped(out, l, t, 2);
  };
  // A job of thousands of ranks: the slow ranks and the first ones, the
  // rest in the JSON report.
  const auto [shown, hidden] = ShownRanks(c, l.top);
  Say(out, l, "per rank and step: computing, communication (exposed), wait vs transit");
  TextTable table({{.header = "rank", .shrink = true},
                   {.header = "step", .right = true},
                   {.header = "time", .right = true},
                   {.header = "computing", .right = true},
                   {.header = "comm", .right = true, .drop = 4},
                   {.header = "exposed", .right = true},
                   {.header = "wait", .right = true},
                   {.header = "transit", .right = true},
                   {.header = "free", .right = true, .drop = 3},
                   {.header = "preparing", .right = true, .drop = 2},
                   {.header = "bubble", .right = true, .drop = 1}});
  for (const cluster::ClusterRank& r : c.ranks) {
    if (!shown[r.member]) continue;
    for (const cluster::ClusterStep& s : r.steps) {
      table.AddRow({name(r.member), fmt::format("{}", s.id), FormatDuration(s.step_ns),
                    FormatDuration(s.computing_ns), FormatDuration(s.communication_ns),
                    FormatDuration(s.communication_not_overlapped_ns), FormatDuration(s.wait_ns),
                    FormatDuration(s.transit_ns), FormatDuration(s.free_ns),
                    FormatDuration(s.preparing_ns), FormatDuration(s.bubble_ns)});
    }
  }
  table_lines(table);
  if (hidden > 0)
    Say(out, l, fmt::format("{} more ranks in the JSON report (jobs[].cluster.ranks)", hidden));
  if (!c.stages.empty()) {
    // A stage of hundreds of ranks is named by its first few.
    constexpr size_t kStageRanksNamed = 4;
    std::string line = fmt::format(
        "{} pipeline stages (a rank's phases are compared within its stage):", c.stages.size());
    for (size_t i = 0; i < std::min(c.stages.size(), l.top); ++i) {
      const std::vector<size_t>& stage = c.stages[i];
      std::string names;
      for (size_t k = 0; k < std::min(stage.size(), kStageRanksNamed); ++k)
        names += (k == 0 ? "" : ", ") + name(stage[k]);
      if (stage.size() > kStageRanksNamed) names += fmt::format(", ... ({} ranks)", stage.size());
      line += fmt::format("{} [{}]", i == 0 ? "" : ";", names);
    }
    if (c.stages.size() > l.top) line += "; ... (all in the JSON report)";
    Say(out, l, line);
  }
  for (size_t m : c.slow_ranks) {
    const cluster::RankStanding& s = c.ranks[m].standing;
    std::string line = fmt::format(
        "rank {} is last to the collectives in {} of {} steps; the "
        "others wait up to {} per step for it",
        name(m), s.late_steps, s.steps, FormatDuration(s.wait_caused_ns));
    if (s.phase) {
      const cluster::PhaseTime& p = s.phases[static_cast<size_t>(*s.phase)];
      line += fmt::format("; its {} takes {} vs the others' median {}",
                          cluster::StepPhaseName(*s.phase), FormatDuration(p.rank_ns),
                          FormatDuration(p.others_ns));
      if (s.kernel)
        line += fmt::format(" (most in {}: {} vs {})", ShortenMiddle(s.kernel->name, kNameColumns),
                            FormatDuration(s.kernel->rank_ns), FormatDuration(s.kernel->others_ns));
    }
    Say(out, l, line);
  }
  for (const cluster::ClusterGroup& g : c.groups) {
    const auto given = static_cast<int64_t>(g.members.size());
    if (g.linked_ranks <= given) continue;
    Say(out, l,
        fmt::format("{}: its links name {} ranks, {} of them profiled here: the waits for the "
                    "others are not pinned on a rank (give every rank's profile)",
                    g.name, g.linked_ranks, given));
  }
  size_t offsets = 0;
  for (const cluster::ClusterRank& r : c.ranks) {
    if (r.member == 0 || !shown[r.member]) continue;
    ++offsets;
    Say(out, l,
        !r.clock_aligned()
            ? fmt::format("rank {}: no collective in common with rank {}: clock not aligned",
                          name(r.member), name(0))
            : fmt::format("rank {}: clock offset {} to rank {} (residual {}, from {} "
                          "collectives)",
                          name(r.member), FormatDuration(r.clock_offset_ns), name(0),
                          FormatDuration(r.clock_residual_ns), r.clock_matches));
  }
  if (offsets + 1 < c.ranks.size()) {
    Say(out, l,
        fmt::format("{} more clock offsets in the JSON report (jobs[].cluster.clock_offsets_ns)",
                    c.ranks.size() - 1 - offsets));
  }
  std::vector<const cluster::ClusterCollective*> skewed;
  for (const cluster::ClusterCollective& x : c.collectives) skewed.push_back(&x);
  std::stable_sort(skewed.begin(), skewed.end(),
                   [](const auto* a, const auto* b) { return a->skew_ns > b->skew_ns; });
  if (skewed.size() > l.top) skewed.resize(l.top);
  if (!skewed.empty()) {
    Say(out, l,
        fmt::format("collectives matched across ranks: {} (most arrival skew first)",
                    c.collectives.size()));
    TextTable t({{.header = "collective", .shrink = true},
                 {.header = "step", .right = true, .drop = 2},
                 {.header = "skew", .right = true},
                 {.header = "last", .right = true},
                 {.header = "bytes", .right = true, .drop = 1}});
    for (const cluster::ClusterCollective* x : skewed) {
      t.AddRow({x->name, x->step ? fmt::format("{}", *x->step) : "", FormatDuration(x->skew_ns),
                name(x->last_member), x->bytes >= 0 ? FormatBytes(x->bytes) : ""});
    }
    table_lines(t);
  }
  if (!c.links.empty()) {
    // Thousands of ranks send tens of thousands of links: then only those
    // below their transport's median are listed.
    const bool all_links = c.links.size() <= kAllLinksShown;
    Say(out, l,
        all_links ? std::string("links (bytes each rank sent, by group, src and dst rank)")
                  : fmt::format("links below their transport's median ({} of {} links; all in "
                                "the JSON report)",
                                c.slow_links.size(), c.links.size()));
    TextTable t({{.header = "group", .shrink = true},
                 {.header = "src", .right = true},
                 {.header = "dst", .right = true},
                 {.header = "transport"},
                 {.header = "bytes", .right = true},
                 {.header = "time", .right = true, .drop = 1},
                 {.header = "GB/s", .right = true},
                 {.header = "of peak GB/s", .right = true, .drop = 2}});
    auto row = [&](const cluster::ClusterLink& link) {
      const std::optional<double> share = link.peak_share();
      t.AddRow({link.group, fmt::format("{}", link.src_rank), fmt::format("{}", link.dst_rank),
                link.transport, FormatBytes(link.bytes), FormatDuration(link.transit_ns),
                fmt::format("{:.1f}", link.bandwidth_gbps()),
                share ? fmt::format("{:.0f}% of {:.0f}", 100 * *share, link.peak_gbps) : ""});
    };
    if (all_links) {
      for (const cluster::ClusterLink& link : c.links) row(link);
    } else {
      for (const cluster::SlowLink& x : c.slow_links) row(c.links[x.link]);
    }
    table_lines(t);
  }
  for (const cluster::SlowLink& x : c.slow_links) {
    if (x.shortfall() < kSlowLinkShown) break;
    const cluster::ClusterLink& link = c.links[x.link];
    Say(out, l,
        fmt::format("slow link: {} {} -> {} ({}) at {:.1f} GB/s, {:.0f}% below the median {:.1f} "
                    "GB/s of {} {} links",
                    link.group, link.src_rank, link.dst_rank, link.transport, x.bandwidth_gbps,
                    100 * x.shortfall(), x.transport_median_gbps, x.transport_links,
                    link.transport));
  }
}

}  // namespace

void RenderAnalyzeText(const AnalyzeReport& report, const TextOptions& options, TextSink& sink) {
  const Layout l{static_cast<size_t>(std::max(options.width, kMinTextWidth)), options.top,
                 options.fixes, Style(options.color)};
  // Rank by rank: the text of many ranks is never whole in memory.
  std::string out;
  // Warnings first: a skipped rank or a truncated file changes how the rest reads.
  if (!report.warnings.empty()) {
    AppendLines(out, Wrap(l.style.Yellow("warnings"), l.width, "", 2));
    for (const std::string& w : report.warnings) Say(out, l, w);
    out += '\n';
  }
  for (const AnalyzeRank& r : report.ranks) {
    RenderRank(out, l, r);
    sink.Write(out);
    out.clear();
  }
  for (const AnalyzeJob& job : report.jobs) {
    const size_t ranks = job.cluster ? job.cluster->ranks.size() : job.members.size();
    if (ranks < 2) continue;
    AppendLines(out, Wrap(l.style.Bold(fmt::format("═══ across {} ranks of one job", ranks)),
                          l.width, "", 4));
    RenderFindings(out, l, job.findings);
    if (job.cluster) {
      Heading(out, l, "CLUSTER — the ranks side by side");
      RenderCluster(out, l, *job.cluster);
    }
    out += '\n';
  }
  sink.Write(out);
}

std::string RenderAnalyzeText(const AnalyzeReport& report, const TextOptions& options) {
  StringSink text;
  RenderAnalyzeText(report, options, text);
  return text.Take();
}

}  // namespace perfdx::report
