#include "perfdx/cli/summarize_command.h"

#include <cstdio>
#include <memory>

#include <fmt/format.h>

#include "perfdx/cli/common.h"
#include "perfdx/cluster/summary_file.h"
#include "perfdx/io/output_file.h"
#include "perfdx/pipeline/analyze.h"

namespace perfdx::cli {
namespace {

struct SummarizeOptions {
  InputOptions input;
  std::string output;
  WindowOptions window;
  std::vector<int64_t> ranks;
};

int RunSummarize(const SummarizeOptions& options) {
  pipeline::AnalyzeRequest request;
  request.paths = options.input.paths;
  request.load = options.input.ToLoadOptions();
  request.ranks = options.ranks;
  if (Status st = ApplyWindowOptions(options.window, &request.analysis); !st.ok()) {
    return ReportError(st);
  }
  auto summaries = pipeline::SummarizeRanks(request);
  if (!summaries.ok()) return ReportError(summaries.status());
  // One rank per file: the job's scheduler runs one task per rank.
  if (summaries->size() != 1) {
    return ReportError(InvalidInput(
        fmt::format("{} ranks loaded; a summary holds one rank: give one rank's trace (or --rank)",
                    summaries->size())));
  }
  if (Status s = io::WriteOutputFile(options.output, cluster::WriteRankSummary(summaries->front()));
      !s.ok()) {
    return ReportError(s);
  }
  return kExitOk;
}

}  // namespace

void RegisterSummarizeCommand(CLI::App& app, int* exit_code) {
  auto options = std::make_shared<SummarizeOptions>();
  CLI::App* command = app.add_subcommand(
      "summarize",
      "one rank's summary for the cluster analysis, made where its trace is (one task of a "
      "scheduler's array); perfdx analyze *.summary merges them (docs/cluster.md)");
  AddInputOptions(command, &options->input);
  command->add_option("-o,--output", options->output, "the summary file (default: stdout)");
  AddWindowOptions(command, &options->window);
  command->add_option("--rank", options->ranks, "summarize this rank of a folder of several")
      ->check(WholeNumber("--rank", 0, kMaxRank));
  command->callback([options, exit_code] { *exit_code = RunSummarize(*options); });
}

}  // namespace perfdx::cli
