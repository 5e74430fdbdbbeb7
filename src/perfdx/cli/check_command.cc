#include "perfdx/cli/check_command.h"

#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "perfdx/baseline/check.h"
#include "perfdx/baseline/run_ref.h"
#include "perfdx/baseline/store.h"
#include "perfdx/cli/baseline_command.h"
#include "perfdx/cli/common.h"
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

  const baseline::RunInputOptions input = flags.ToOptions();
  auto base = baseline::ResolveRun(options.against, flags.db, input);
  if (!base.ok()) return ReportError(base.status());
  auto current = baseline::ResolveRun(options.current, flags.db, input);
  if (!current.ok()) return ReportError(current.status());
  auto result = baseline::CheckRun(*base, *current, check);
  if (!result.ok()) return ReportError(result.status());

  std::string text;
  if (options.format == "json") {
    text = report::RenderCheckJson(*result);
  } else if (options.format == "markdown") {
    text = report::RenderCheckMarkdown(*result);
  } else if (options.format == "junit") {
    text = report::RenderCheckJunit(*result);
  } else {
    text = report::RenderCheckText(*result);
  }
  if (Status s = WriteOutput(options.output, text); !s.ok()) return ReportError(s);

  // The tuning loop: every measured run goes into the library, verdict and all.
  if (!options.save_name.empty()) {
    current->name = options.save_name;
    for (auto& [k, v] : tags) baseline::SetTag(*current, k, v);
    baseline::SetTag(*current, "check_verdict",
                     std::string(baseline::VerdictName(result->verdict)));
    auto store = baseline::RunStore::Open(flags.db, baseline::RunStore::Mode::kCreate);
    if (!store.ok()) return ReportError(store.status());
    auto id = store->Save(*current);
    if (!id.ok()) return ReportError(id.status());
    std::fprintf(stderr, "perfdx: saved run #%lld \"%s\" to %s\n", static_cast<long long>(*id),
                 current->name.c_str(), flags.db.c_str());
  }
  return result->verdict == baseline::Verdict::kRegressed ? kExitFinding : kExitOk;
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
      ->check(CLI::Range(0.5, 0.999))
      ->capture_default_str();
  command
      ->add_option("--resamples", options->resamples,
                   "bootstrap resamples (0: automatic, 10000 at most)")
      ->check(CLI::NonNegativeNumber)
      ->group("");
  command
      ->add_option("--seed", options->seed,
                   "bootstrap seed (the default makes results reproducible)")
      ->group("");
  command
      ->add_option("--format", options->format, "text, json, markdown (a PR comment) or junit (CI)")
      ->check(CLI::IsMember({"text", "json", "markdown", "junit"}))
      ->capture_default_str();
  command->add_flag_callback(
      "--json", [options] { options->format = "json"; }, "same as --format json");
  command->add_option("-o,--output", options->output, "write to this file instead of stdout");
  command->add_option("--save", options->save_name,
                      "also save the new run to the library under this name");
  command->add_option("--tag", options->tags, "KEY=VALUE for --save, repeatable");
  AddRunInputFlags(command, flags.get());
  command->callback([flags, options, exit_code] { *exit_code = RunCheck(*flags, *options); });
}

}  // namespace perfdx::cli
