#include "perfdx/cli/check_command.h"

#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "perfdx/baseline/compare/check.h"
#include "perfdx/baseline/record/run_record.h"
#include "perfdx/cli/baseline_command.h"
#include "perfdx/cli/common.h"
#include "perfdx/io/output_file.h"
#include "perfdx/pipeline/runs.h"
#include "perfdx/report/check_report.h"

namespace perfdx::cli {
namespace {

struct CheckOptions {
  std::string current;
  std::string against;
  std::string max_regression = "5%";
  std::string min_improvement = "10%";
  double confidence = 0.95;
  int resamples = 0;
  uint64_t seed = perfdx::kDefaultBootstrapSeed;
  std::string format = "text";
  std::string output;
  std::string save_name;
  std::vector<std::string> tags;
};

int RunCheck(const RunInputFlags& flags, const CheckOptions& options) {
  baseline::CheckOptions check;
  auto max_regression = ParsePercent(options.max_regression, "--max-regression");
  if (!max_regression.ok()) return ReportError(max_regression.status());
  auto min_improvement = ParsePercent(options.min_improvement, "--min-improvement");
  if (!min_improvement.ok()) return ReportError(min_improvement.status());
  check.thresholds.max_regression = *max_regression;
  check.thresholds.min_improvement = *min_improvement;
  check.bootstrap.confidence = options.confidence;
  check.bootstrap.resamples = options.resamples;
  check.bootstrap.seed = options.seed;
  if (!options.save_name.empty() && !baseline::IsValidRunName(options.save_name)) {
    return ReportError(
        InvalidInput(fmt::format("--save {}: not a valid run name", options.save_name)));
  }
  std::vector<std::pair<std::string, std::string>> tags;
  for (const std::string& t : options.tags) {
    auto tag = baseline::ParseTag(t);
    if (!tag) return ReportError(InvalidInput(fmt::format("--tag {}: expected KEY=VALUE", t)));
    tags.push_back(std::move(*tag));
  }

  auto checked =
      pipeline::CheckRuns(options.current, options.against, flags.db, flags.ToOptions(), check);
  if (!checked.ok()) return ReportError(checked.status());
  const baseline::CheckResult& result = checked->result;

  std::string text;
  if (options.format == "json") {
    text = report::RenderCheckJson(result);
  } else if (options.format == "markdown") {
    text = report::RenderCheckMarkdown(result);
  } else if (options.format == "junit") {
    text = report::RenderCheckJunit(result);
  } else if (options.format == "html") {
    text = report::RenderCheckHtml(result);
  } else {
    text = report::RenderCheckText(result);
  }
  if (Status s = io::WriteOutputFile(options.output, text); !s.ok()) return ReportError(s);

  // The tuning loop: every measured run goes into the library, verdict and all.
  if (!options.save_name.empty()) {
    auto id = pipeline::SaveCheckedRun(*checked, options.save_name, tags, flags.db);
    if (!id.ok()) return ReportError(id.status());
    std::fprintf(stderr, "perfdx: saved run #%lld \"%s\" to %s\n", static_cast<long long>(*id),
                 options.save_name.c_str(), flags.db.c_str());
  }
  return result.verdict == baseline::Verdict::kRegressed ? kExitFinding : kExitOk;
}

}  // namespace

void RegisterCheckCommand(CLI::App& app, int* exit_code) {
  auto flags = std::make_shared<RunInputFlags>();
  auto options = std::make_shared<CheckOptions>();
  CLI::App* command = app.add_subcommand(
      "check",
      "did a change help? improved / unchanged / regressed against a baseline, beyond run-to-run "
      "noise (exit 1 on regression, for CI)");
  command
      ->add_option("new", options->current,
                   "the new run: trace, analyze report, step log, or library run")
      ->required();
  command
      ->add_option("--against", options->against,
                   "the baseline: a library run (name or id), or a trace, report or step log")
      ->required();
  command
      ->add_option("--max-regression", options->max_regression,
                   "slower than this (and beyond noise) is a regression")
      ->capture_default_str();
  command
      ->add_option("--min-improvement", options->min_improvement,
                   "faster than this (and beyond noise) is an improvement")
      ->capture_default_str();
  command->add_option("--confidence", options->confidence, "confidence level of the interval")
      ->check(FiniteNumber("--confidence", 0.5, 0.999))
      ->capture_default_str();
  command
      ->add_option("--resamples", options->resamples,
                   "bootstrap resamples (0: automatic, 10000 at most)")
      ->check(WholeNumber("--resamples", 0, 10000))
      ->group("");
  command
      ->add_option("--seed", options->seed,
                   "bootstrap seed (the default makes results reproducible)")
      ->group("");
  AddFormatOptions(command, &options->format, {"text", "json", "markdown", "junit", "html"},
                   "text, json, markdown (a PR comment), junit (CI) or html (one page with the "
                   "step-time distributions)");
  AddOutputOption(command, &options->output);
  command->add_option("--save", options->save_name,
                      "also save the new run to the library under this name");
  command->add_option("--tag", options->tags, "KEY=VALUE for --save, repeatable");
  AddRunInputFlags(command, flags.get());
  command->callback([flags, options, exit_code] { *exit_code = RunCheck(*flags, *options); });
}

}  // namespace perfdx::cli
