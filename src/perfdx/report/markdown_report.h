// `perfdx analyze --format md`: GitHub-flavoured Markdown for a pull-request
// comment or a ticket. A title line with the finding counts, warnings, then
// per rank: the health table, the top findings (severity, title, gain) each
// in a <details> block holding its evidence and fixes, and short operator and
// kernel tables (collapsed). It reads the AnalyzeReport only.
//
// The whole text stays within `max_bytes` (GitHub's comment limit is 65,536
// characters; a byte count is never below the character count): the tables,
// then the findings, are cut to fewer rows until it fits, with a note saying
// so; past that the text is cut at a line, its open blocks closed.
#pragma once

#include <cstddef>
#include <string>

#include "perfdx/report/analyze_report.h"

namespace perfdx::report {

inline constexpr size_t kGitHubCommentLimit = 65536;

struct MarkdownOptions {
  size_t top = 10;    // rows per table and findings per rank
  bool fixes = true;  // the fixes inside each finding's details
  size_t max_bytes = kGitHubCommentLimit;
};

std::string RenderAnalyzeMarkdown(const AnalyzeReport& report, const MarkdownOptions& options = {});

}  // namespace perfdx::report
