#include "perfdx/cli/baseline_command.h"

#include <charconv>
#include <cmath>
#include <memory>

#include <fmt/format.h>

#include "perfdx/base/json_writer.h"
#include "perfdx/baseline/record/run_record.h"
#include "perfdx/baseline/store.h"
#include "perfdx/cli/common.h"
#include "perfdx/io/output_file.h"
#include "perfdx/pipeline/analyze.h"
#include "perfdx/pipeline/runs.h"
#include "perfdx/report/baseline_report.h"
#include "perfdx/report/units.h"

namespace perfdx::cli {

baseline::RunInputOptions RunInputFlags::ToOptions() const {
  baseline::RunInputOptions options;
  options.load.limits.max_decompressed_bytes = max_decompressed_bytes;
  options.load.limits.max_compression_ratio = max_compression_ratio;
  options.analysis.window =
      pipeline::ParseAnalysisWindow(window).value_or(analysis::AnalysisWindow::kSteps);
  options.analysis.include_incomplete = include_incomplete;
  options.rank = rank;
  options.warmup_steps = warmup_steps;
  return options;
}

void AddDbFlag(CLI::App* command, RunInputFlags* flags) {
  command->add_option("--db", flags->db, "the run library (SQLite); also $PERFDX_DB")
      ->envname("PERFDX_DB")
      ->capture_default_str();
}

void AddRunInputFlags(CLI::App* command, RunInputFlags* flags) {
  AddDbFlag(command, flags);
  command
      ->add_option("--rank", flags->rank,
                   "which rank of a multi-rank trace or report (default: the first)")
      ->check(WholeNumber("--rank", 0, kMaxRank));
  command
      ->add_option("--window", flags->window,
                   "analysis window of a trace: steps, all or hta (as analyze)")
      ->check(CLI::IsMember({"steps", "all", "hta"}))
      ->capture_default_str();
  command->add_flag("--include-incomplete", flags->include_incomplete,
                    "keep a last step that looks truncated");
  command
      ->add_option("--warmup", flags->warmup_steps,
                   "drop this many leading steps (compilation, autotuning)")
      ->check(WholeNumber("--warmup", 0, kMaxCount));
  command
      ->add_option("--max-decompressed", flags->max_decompressed_bytes,
                   "refuse inputs larger than this after decompression (bytes; K/M/G suffixes)")
      ->transform(CLI::AsSizeValue(false))
      ->transform(UnsignedSize(
          "--max-decompressed"))  // runs first: transforms are applied last-added first
      ->group("");
  command
      ->add_option("--max-ratio", flags->max_compression_ratio,
                   "refuse compressed inputs that expand more than this")
      ->check(FiniteNumber("--max-ratio", 1, kMaxCompressionRatio))
      ->group("");
}

Result<double> ParsePercent(std::string_view text, std::string_view flag) {
  std::string_view number = text;
  if (!number.empty() && number.back() == '%') number.remove_suffix(1);
  double v = 0;
  auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), v);
  if (number.empty() || ec != std::errc() || end != number.data() + number.size() || !(v >= 0) ||
      v >= 100) {
    return InvalidInput(fmt::format("{} {}: expected a percentage such as 5%", flag, text));
  }
  return v / 100;
}

namespace {

struct SaveOptions {
  std::string input;
  std::string name;
  std::vector<std::string> tags;
  std::string format = "text";
};

struct ListOptions {
  std::optional<std::string> name;
  std::vector<std::string> tags;
  size_t limit = 0;
  std::string format = "text";
};

struct ShowOptions {
  std::string ref;
  std::string format = "text";
  size_t top = 10;
};

struct RemoveOptions {
  std::vector<std::string> refs;
};

struct TrendOptions {
  std::string metric;
  std::optional<std::string> name;
  std::string format = "text";
};

Result<std::vector<std::pair<std::string, std::string>>> ParseTags(
    const std::vector<std::string>& texts) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const std::string& t : texts) {
    auto tag = baseline::ParseTag(t);
    if (!tag)
      return InvalidInput(
          fmt::format("--tag {}: expected KEY=VALUE (KEY of A-Z a-z 0-9 _ . -)", t));
    out.push_back(std::move(*tag));
  }
  return out;
}

int RunSave(const RunInputFlags& flags, const SaveOptions& options) {
  // Cheap checks first: a typo in the name should not cost a trace analysis.
  if (!baseline::IsValidRunName(options.name)) {
    return ReportError(InvalidInput(fmt::format(
        "--name {}: use 1-128 of A-Z a-z 0-9 _ . : / + - (not only digits: those are ids)",
        options.name)));
  }
  auto tags = ParseTags(options.tags);
  if (!tags.ok()) return ReportError(tags.status());
  auto saved = pipeline::SaveRun(options.input, options.name, *tags, flags.db, flags.ToOptions());
  if (!saved.ok()) return ReportError(saved.status());
  const baseline::RunRecord& record = saved->record;
  const int64_t id = saved->id;
  const auto median = record.metrics.find("step_time_median_ns");
  std::string text;
  if (options.format == "json") {
    JsonWriter w;
    w.BeginObject()
        .Key("id")
        .Int(id)
        .Key("name")
        .String(record.name)
        .Key("db")
        .String(flags.db)
        .EndObject();
    text = w.TakeDocument();
  } else {
    text = fmt::format(
        "saved run #{} \"{}\" to {}: {} steps, median step {}\n", id, record.name, flags.db,
        record.steps.size(),
        median == record.metrics.end()
            ? std::string("-")
            : report::FormatDuration(static_cast<int64_t>(std::llround(median->second))));
  }
  if (Status s = io::WriteOutputFile("", text); !s.ok()) return ReportError(s);
  return kExitOk;
}

int RunList(const RunInputFlags& flags, const ListOptions& options) {
  auto tags = ParseTags(options.tags);
  if (!tags.ok()) return ReportError(tags.status());
  std::vector<baseline::RunSummary> runs;
  auto store = baseline::RunStore::Open(flags.db, baseline::RunStore::Mode::kRead);
  if (!store.ok()) return ReportError(store.status());
  auto listed = store->List(baseline::ListFilter{options.name, *tags, options.limit});
  if (!listed.ok()) return ReportError(listed.status());
  runs = std::move(*listed);
  const std::string text = options.format == "json" ? report::RenderRunListJson(flags.db, runs)
                                                    : report::RenderRunListText(runs);
  if (Status s = io::WriteOutputFile("", text); !s.ok()) return ReportError(s);
  return kExitOk;
}

int RunShow(const RunInputFlags& flags, const ShowOptions& options) {
  auto store = baseline::RunStore::Open(flags.db, baseline::RunStore::Mode::kRead);
  if (!store.ok()) return ReportError(store.status());
  auto run = store->Load(options.ref);
  if (!run.ok()) return ReportError(run.status());
  const std::string text = options.format == "json" ? report::RenderRunJson(*run)
                                                    : report::RenderRunText(*run, options.top);
  if (Status s = io::WriteOutputFile("", text); !s.ok()) return ReportError(s);
  return kExitOk;
}

int RunRemove(const RunInputFlags& flags, const RemoveOptions& options) {
  auto store = baseline::RunStore::Open(flags.db, baseline::RunStore::Mode::kExisting);
  if (!store.ok()) return ReportError(store.status());
  int64_t total = 0;
  for (const std::string& ref : options.refs) {
    auto removed = store->Remove(ref);
    if (!removed.ok()) return ReportError(removed.status());
    total += *removed;
  }
  if (Status s =
          io::WriteOutputFile("", fmt::format("removed {} run(s) from {}\n", total, flags.db));
      !s.ok()) {
    return ReportError(s);
  }
  return kExitOk;
}

int RunTrend(const RunInputFlags& flags, const TrendOptions& options) {
  const std::string metric = baseline::CanonicalMetricName(options.metric);
  std::vector<baseline::TrendPoint> points;
  auto store = baseline::RunStore::Open(flags.db, baseline::RunStore::Mode::kRead);
  if (!store.ok()) return ReportError(store.status());
  auto trend = store->Trend(metric, options.name);
  if (!trend.ok()) return ReportError(trend.status());
  points = std::move(*trend);
  const std::string text = options.format == "json" ? report::RenderTrendJson(metric, points)
                                                    : report::RenderTrendText(metric, points);
  if (Status s = io::WriteOutputFile("", text); !s.ok()) return ReportError(s);
  return kExitOk;
}

}  // namespace

void RegisterBaselineCommand(CLI::App& app, int* exit_code) {
  CLI::App* baseline = app.add_subcommand("baseline",
                                          "the run library: save measured runs, list, show, remove "
                                          "them, and follow a metric over time");
  baseline->require_subcommand(1);

  {
    auto flags = std::make_shared<RunInputFlags>();
    auto options = std::make_shared<SaveOptions>();
    CLI::App* save = baseline->add_subcommand(
        "save",
        "add a run to the library: a trace (analysed now), an analyze JSON report, or a step log");
    save->add_option("input", options->input,
                     "trace file or folder, analyze report (.json), or step log (.jsonl); - reads "
                     "one from standard input")
        ->required();
    save->add_option("--name", options->name, "the run's name; runs of one name form a series")
        ->required();
    save->add_option("--tag", options->tags, "KEY=VALUE, repeatable (commit=abc123, batch=256)");
    AddFormatOptions(save, &options->format);
    AddRunInputFlags(save, flags.get());
    save->callback([flags, options, exit_code] { *exit_code = RunSave(*flags, *options); });
  }
  {
    auto flags = std::make_shared<RunInputFlags>();
    auto options = std::make_shared<ListOptions>();
    CLI::App* list = baseline->add_subcommand("list", "the saved runs, oldest first");
    list->add_option("--name", options->name, "only runs of this name");
    list->add_option("--tag", options->tags,
                     "only runs with this KEY=VALUE tag (repeatable: all must match)");
    list->add_option("--limit", options->limit, "only the latest N")
        ->check(WholeNumber("--limit", 0, kMaxCount));
    AddFormatOptions(list, &options->format);
    AddDbFlag(list, flags.get());
    list->callback([flags, options, exit_code] { *exit_code = RunList(*flags, *options); });
  }
  {
    auto flags = std::make_shared<RunInputFlags>();
    auto options = std::make_shared<ShowOptions>();
    CLI::App* show = baseline->add_subcommand(
        "show", "one run: provenance, metrics, steps, top operators and kernels");
    show->add_option("run", options->ref, "run id (12 or #12) or name (its latest run)")
        ->required();
    show->add_option("--top", options->top, "operators and kernels shown in text")
        ->check(WholeNumber("--top", 0, kMaxCount))
        ->capture_default_str();
    AddFormatOptions(show, &options->format);
    AddDbFlag(show, flags.get());
    show->callback([flags, options, exit_code] { *exit_code = RunShow(*flags, *options); });
  }
  {
    auto flags = std::make_shared<RunInputFlags>();
    auto options = std::make_shared<RemoveOptions>();
    CLI::App* rm = baseline->add_subcommand(
        "rm", "remove runs: an id removes that run, a name all runs of it");
    rm->add_option("runs", options->refs, "run ids or names")->required();
    AddDbFlag(rm, flags.get());
    rm->callback([flags, options, exit_code] { *exit_code = RunRemove(*flags, *options); });
  }
  {
    auto flags = std::make_shared<RunInputFlags>();
    auto options = std::make_shared<TrendOptions>();
    CLI::App* trend = baseline->add_subcommand("trend",
                                               "a metric over the saved runs, oldest first "
                                               "(step_time, throughput, device_utilization, ...)");
    trend
        ->add_option("metric", options->metric,
                     "step_time (median), throughput, step_time_p90_ns, device_utilization, "
                     "phase_kernel_ns, ...")
        ->required();
    trend->add_option("--name", options->name, "only runs of this name");
    AddFormatOptions(trend, &options->format);
    AddDbFlag(trend, flags.get());
    trend->callback([flags, options, exit_code] { *exit_code = RunTrend(*flags, *options); });
  }
}

}  // namespace perfdx::cli
