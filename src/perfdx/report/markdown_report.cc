#include "perfdx/report/markdown_report.h"

#include <algorithm>
#include <string_view>

#include <fmt/format.h>

#include "perfdx/report/cluster_report.h"
#include "perfdx/report/html_text.h"
#include "perfdx/report/markdown.h"
#include "perfdx/report/text_layout.h"
#include "perfdx/report/units.h"

namespace perfdx::report {
namespace {

using analysis::RankAnalysis;

// Names in the tables: shortened in the middle, still distinct.
constexpr size_t kNameColumns = 80;
constexpr size_t kListedContributors = 5;
constexpr size_t kListedSteps = 20;

struct Limits {
  size_t rows;      // per table
  size_t findings;  // per rank (and per job)
  bool fixes;
};

std::string SeverityIcon(advisor::Severity s) {
  switch (s) {
    case advisor::Severity::kCritical:
      return ":red_circle:";
    case advisor::Severity::kWarning:
      return ":warning:";
    case advisor::Severity::kInfo:
      return ":information_source:";
  }
  return "";
}

// A fence longer than any run of backticks in `code`.
std::string Fence(std::string_view code) {
  size_t run = 0;
  size_t longest = 0;
  for (char c : code) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  return std::string(std::max<size_t>(3, longest + 1), '`');
}

// A URL as a link target: the characters that would end it, encoded.
std::string LinkTarget(std::string_view url) {
  std::string out;
  for (char c : url) {
    if (c == '(' || c == ')' || c == ' ' || c == '<' || c == '>') {
      out += fmt::format("%{:02X}", static_cast<unsigned char>(c));
    } else {
      out += c;
    }
  }
  return out;
}

void RenderFinding(std::string& out, const advisor::Finding& f, bool fixes) {
  std::string summary =
      fmt::format("{} <b>{}</b> · {}", SeverityIcon(f.severity), advisor::SeverityName(f.severity),
                  EscapeHtml(Printable(f.title)));
  if (const std::string gain = GainHeadline(f); !gain.empty()) summary += " · " + EscapeHtml(gain);
  out += fmt::format("<details><summary>{}</summary>\n\n", summary);
  if (f.prediction.available) out += "- " + PredictionSentence(f.prediction) + "\n";
  if (!f.prediction.available && f.gain.ns_per_step > 0) {
    out += "- an upper bound on the measured timeline: other work may fill the time\n";
  }
  for (const advisor::FindingOverlap& o : f.overlaps) out += "- " + OverlapSentence(o) + "\n";
  const advisor::Evidence& e = f.evidence;
  out +=
      fmt::format("- evidence: {} = {} (threshold {})\n", MdCode(e.metric),
                  FormatEvidenceValue(e.value, e.unit), FormatEvidenceValue(e.threshold, e.unit));
  if (!f.steps.empty()) {
    std::string steps;
    for (size_t i = 0; i < f.steps.size() && i < kListedSteps; ++i) {
      steps += fmt::format("{}{}", i ? ", " : "", f.steps[i]);
    }
    if (f.steps.size() > kListedSteps)
      steps += fmt::format(" and {} more", f.steps.size() - kListedSteps);
    out += fmt::format("- steps: {}\n", steps);
  }
  for (const auto& [key, value] : e.details) {
    out += fmt::format("- {}: {}\n", MdCode(key), FormatEvidenceDetail(key, value));
  }
  if (!e.contributors.empty()) {
    out += "- top contributors:\n";
    for (size_t i = 0; i < e.contributors.size() && i < kListedContributors; ++i) {
      const advisor::Contributor& c = e.contributors[i];
      out += fmt::format("  - {}: {} ({})\n", MdText(ShortenMiddle(c.name, kNameColumns)),
                         FormatDuration(c.ns), FormatShare(c.share));
    }
  }
  if (fixes) {
    for (const advisor::Recommendation& r : f.recommendations) {
      out += fmt::format("\n**Fix for {}**: {}\n", advisor::FixTargetName(r.framework),
                         MdText(r.text));
      if (!r.snippet.empty()) {
        const std::string fence = Fence(r.snippet);
        out += fmt::format("\n{}\n{}\n{}\n", fence, r.snippet, fence);
      }
      if (!r.doc_url.empty()) out += fmt::format("\n[Documentation]({})\n", LinkTarget(r.doc_url));
    }
  }
  out += "\n</details>\n\n";
}

void RenderFindings(std::string& out, const std::vector<advisor::Finding>& findings,
                    const Limits& limits) {
  out += "**Findings**, ranked by the gain each one leads with:\n\n";
  if (findings.empty()) {
    out += "None.\n\n";
    return;
  }
  const size_t shown = std::min(findings.size(), limits.findings);
  for (size_t i = 0; i < shown; ++i) RenderFinding(out, findings[i], limits.fixes);
  if (findings.size() > shown) {
    out += fmt::format("_{} more finding{} in `perfdx analyze --format json`._\n\n",
                       findings.size() - shown, findings.size() - shown == 1 ? "" : "s");
  }
}

std::string HealthMark(const advisor::HealthRow& row) {
  if (!row.applicable) return "n/a";
  if (!row.judged) return "";
  switch (row.status) {
    case advisor::HealthStatus::kHealthy:
      return ":white_check_mark:";
    case advisor::HealthStatus::kWarning:
      return ":warning:";
    case advisor::HealthStatus::kAbnormal:
      return ":x:";
  }
  return "";
}

void RenderHealth(std::string& out, const AnalyzeRank& entry) {
  if (entry.health.empty()) return;
  out += "| | health | value | healthy |\n|:-:|---|--:|---|\n";
  for (const advisor::HealthRow& row : entry.health) {
    std::string_view label = row.label;
    const bool nested = label.starts_with(" ");
    while (label.starts_with(" ")) label.remove_prefix(1);
    out += fmt::format(
        "| {} | {}{} | {} | {} |\n", HealthMark(row), nested ? "↳ " : "", MdText(label),
        row.metric == "step_time_cv" ? fmt::format("{:.3f}", row.value) : FormatShare(row.value),
        row.judged ? MdText(row.healthy) : "");
  }
  out += '\n';
}

template <typename T, typename Name, typename Cells>
void RenderTable(std::string& out, std::string_view title, const std::vector<T>& items, size_t rows,
                 std::string_view header, std::string_view align, Name name, Cells cells) {
  const size_t shown = std::min(items.size(), rows);
  if (shown == 0) return;
  std::vector<std::string> names;
  for (size_t i = 0; i < shown; ++i) names.push_back(name(items[i]));
  names = ShortenDistinct(names, kNameColumns);
  out += fmt::format("<details><summary>{} ({} of {})</summary>\n\n{}\n{}\n", title, shown,
                     items.size(), header, align);
  for (size_t i = 0; i < shown; ++i) {
    out += fmt::format("| {} | {} |\n", MdCode(names[i]), cells(items[i]));
  }
  out += "\n</details>\n\n";
}

// ", torch.compile, CUDA graphs, DDP".
std::string FeatureList(const model::RuntimeFeatures& f) {
  std::string out;
  for (std::string_view name : model::FeatureNames(f)) out += fmt::format(", {}", name);
  return out;
}

// The cluster section's per-rank table and clock offsets (cluster_report.h
// has the rest, in the text and JSON reports).
void RenderCluster(std::string& out, const cluster::ClusterAnalysis& c, const Limits& limits) {
  auto name = [&](size_t member) {
    const cluster::ClusterRank& r = c.ranks[member];
    return r.rank ? fmt::format("{}", *r.rank) : MdCode(r.path);
  };
  out +=
      "<details><summary>Per rank and step: wait vs transit</summary>\n\n"
      "| rank | step | time | computing | comm exposed | wait | transit | free | clock offset |\n"
      "|---|--:|--:|--:|--:|--:|--:|--:|--:|\n";
  // At most limits.rows steps of each rank shown (the JSON report has them
  // all).
  const auto [shown, hidden] = ShownRanks(c, limits.rows);
  for (const cluster::ClusterRank& r : c.ranks) {
    if (!shown[r.member]) continue;
    for (size_t i = 0; i < std::min(r.steps.size(), limits.rows); ++i) {
      const cluster::ClusterStep& s = r.steps[i];
      out +=
          fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} | {} |\n", name(r.member), s.id,
                      FormatDuration(s.step_ns), FormatDuration(s.computing_ns),
                      FormatDuration(s.communication_not_overlapped_ns), FormatDuration(s.wait_ns),
                      FormatDuration(s.transit_ns), FormatDuration(s.free_ns),
                      r.clock_aligned() ? FormatDuration(r.clock_offset_ns) : "not aligned");
    }
  }
  if (hidden > 0)
    out += fmt::format("\n{} more ranks in the JSON report (`jobs[].cluster.ranks`).\n", hidden);
  out += "\n</details>\n\n";
}

void RenderRank(std::string& out, const AnalyzeRank& entry, const Limits& limits) {
  const RankAnalysis& a = entry.analysis;
  const model::RankInfo& info = a.info();
  out += fmt::format("#### Rank {} · {}\n\n", info.rank ? fmt::format("{}", *info.rank) : "?",
                     MdText(info.path));
  out += fmt::format("{} on {}{} ({} on {}) · {} step{} analysed ({}, window {}) · mean step {}",
                     model::FrameworkName(info.runtime.framework),
                     model::PlatformName(info.runtime.platform), FeatureList(info.runtime.features),
                     model::SourceFormatName(info.source), MdText(info.device_name), a.steps.size(),
                     a.steps.size() == 1 ? "" : "s", analysis::StepSourceName(a.timeline.source),
                     analysis::AnalysisWindowName(a.window), FormatDuration(a.step_time.mean_ns));
  if (!a.steps.empty()) {
    out += fmt::format(", median {}, p90 {}", FormatDuration(a.step_time.median_ns),
                       FormatDuration(a.step_time.p90_ns));
  }
  out += "\n\n";
  for (const std::string& n : a.notes) out += fmt::format("> note: {}\n\n", MdText(n));
  RenderHealth(out, entry);
  RenderFindings(out, entry.findings, limits);
  const bool by_device = a.ops.ranked_by_device;
  RenderTable(
      out, by_device ? "Top operators by device self time" : "Top operators by host self time",
      a.ops.ops, limits.rows, "| operator | calls | self time |", "|---|--:|--:|",
      [](const analysis::OpStat& op) { return op.name; },
      [&](const analysis::OpStat& op) {
        return fmt::format("{} | {}", op.calls,
                           FormatDuration(by_device ? op.device_self_ns : op.host_self_ns));
      });
  RenderTable(
      out, "Top kernels", a.kernels.kernels, limits.rows,
      "| kernel | share | total | calls | mean |", "|---|--:|--:|--:|--:|",
      [](const analysis::KernelStat& k) { return k.name; },
      [](const analysis::KernelStat& k) {
        return fmt::format("{} | {} | {} | {}", FormatShare(k.share), FormatDuration(k.total_ns),
                           k.count, FormatDuration(k.mean_ns()));
      });
}

size_t CountFindings(const AnalyzeReport& report, std::optional<advisor::Severity> level) {
  size_t n = 0;
  auto count = [&](const std::vector<advisor::Finding>& findings) {
    for (const advisor::Finding& f : findings) n += !level || f.severity == *level;
  };
  for (const AnalyzeRank& r : report.ranks) count(r.findings);
  for (const AnalyzeJob& j : report.jobs) count(j.findings);
  return n;
}

std::string Render(const AnalyzeReport& report, const Limits& limits, bool cut) {
  const size_t critical = CountFindings(report, advisor::Severity::kCritical);
  const size_t warning = CountFindings(report, advisor::Severity::kWarning);
  const size_t all = CountFindings(report, std::nullopt);
  const char* icon = critical > 0  ? ":x:"
                     : warning > 0 ? ":warning:"
                     : all > 0     ? ":information_source:"
                                   : ":white_check_mark:";
  std::string out = fmt::format(
      "### {} perfdx analyze: {} finding{} ({} critical, {} warning, {} info) on {} rank{}\n\n",
      icon, all, all == 1 ? "" : "s", critical, warning, all - critical - warning,
      report.ranks.size(), report.ranks.size() == 1 ? "" : "s");
  if (cut) {
    out +=
        "> [!NOTE]\n> Shortened to fit GitHub's 65,536-character comment limit: fewer rows and "
        "findings than `--top` asks for. `perfdx analyze --format json` has them all.\n\n";
  }
  if (!report.warnings.empty()) {
    out += "> [!WARNING]\n";
    for (const std::string& w : report.warnings) out += fmt::format("> - {}\n", MdText(w));
    out += '\n';
  }
  for (const AnalyzeRank& r : report.ranks) RenderRank(out, r, limits);
  for (const AnalyzeJob& job : report.jobs) {
    const size_t ranks = job.cluster ? job.cluster->ranks.size() : job.members.size();
    if (ranks < 2) continue;
    out += fmt::format("#### Across the {} ranks of one job\n\n", ranks);
    RenderFindings(out, job.findings, limits);
    if (job.cluster) RenderCluster(out, *job.cluster, limits);
  }
  out +=
      "<sub>perfdx analyze; a gain is the step replayed with the fix where the fix replays, "
      "else an upper bound on the measured timeline.</sub>\n";
  return out;
}

size_t Count(std::string_view s, std::string_view part) {
  size_t n = 0;
  for (size_t at = s.find(part); at != std::string_view::npos; at = s.find(part, at + 1)) ++n;
  return n;
}

// The last resort: cut at a line, close the code fence and the details
// blocks left open.
std::string CutToFit(std::string text, size_t max_bytes) {
  const std::string note =
      "\n_Cut here to fit GitHub's comment limit; `perfdx analyze --format json` has the rest._\n";
  const size_t closing_room = note.size() + 64;
  const size_t keep = max_bytes > closing_room ? max_bytes - closing_room : 0;
  const size_t eol = text.rfind('\n', keep);
  text.resize(eol == std::string::npos ? 0 : eol + 1);
  // Fences open and close on lines of their own, starting with ```.
  size_t fences = 0;
  for (size_t at = 0; at < text.size();) {
    if (text.compare(at, 3, "```") == 0) ++fences;
    const size_t next = text.find('\n', at);
    if (next == std::string::npos) break;
    at = next + 1;
  }
  if (fences % 2 == 1) text += "```\n";
  text += note;
  const size_t open = Count(text, "<details>");
  const size_t closed = Count(text, "</details>");
  // Each open block needs 12 bytes; the rest of the room above holds them
  // unless the report nests more than a few (it nests none).
  for (size_t i = closed; i < open && text.size() + 12 <= max_bytes; ++i) text += "\n</details>\n";
  return text;
}

}  // namespace

std::string RenderAnalyzeMarkdown(const AnalyzeReport& report, const MarkdownOptions& options) {
  Limits limits{options.top, options.top, options.fixes};
  std::string out = Render(report, limits, false);
  // Fewer table rows first, then fewer findings.
  while (out.size() > options.max_bytes && (limits.rows > 1 || limits.findings > 1)) {
    if (limits.rows > 1) {
      limits.rows /= 2;
    } else {
      limits.findings /= 2;
    }
    out = Render(report, limits, true);
  }
  if (out.size() > options.max_bytes) out = CutToFit(std::move(out), options.max_bytes);
  return out;
}

}  // namespace perfdx::report
