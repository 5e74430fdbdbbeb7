// What the libFuzzer targets share: a private scratch folder for the readers
// that take paths, inputs that name the file they stand for, and the whole
// analyze pipeline run on what was written (so a value a reader lets through
// meets every analysis, rule and renderer, as it would in `perfdx analyze`).
#pragma once

#include <stdlib.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include "perfdx/baseline/record/run_record.h"
#include "perfdx/baseline/store.h"
#include "perfdx/pipeline/analyze.h"
#include "perfdx/report/analyze_report.h"
#include "perfdx/report/baseline_report.h"
#include "perfdx/report/markdown_report.h"
#include "perfdx/report/text_report.h"

namespace perfdx::fuzz {

// A folder of this process, made once (on tmpfs where there is one: the
// targets write a file per input) and removed at exit.
inline const std::filesystem::path& ScratchDir() {
  static const std::filesystem::path dir = [] {
    std::string base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    std::string templ = base + "/perfdx_fuzz_XXXXXX";
    if (mkdtemp(templ.data()) == nullptr) abort();
    static std::filesystem::path removed_at_exit;
    removed_at_exit = templ;
    atexit([] {
      std::error_code ec;
      std::filesystem::remove_all(removed_at_exit, ec);
    });
    return std::filesystem::path(templ);
  }();
  return dir;
}

inline void WriteFile(const std::filesystem::path& path, std::string_view bytes) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) abort();  // the scratch folder is ours: a failed write is a broken harness
}

// An input that names the file it stands for: "relative/path\n" then the
// file's bytes. Seeds are written so (tests/fuzz/make_seeds.py); a name not
// in `allowed` is no input (cheap to reject, and nothing is ever written
// outside the scratch folder).
struct NamedInput {
  std::string_view name;
  std::string_view content;
};
inline std::optional<NamedInput> SplitNamed(const uint8_t* data, size_t size,
                                            std::initializer_list<std::string_view> allowed) {
  const std::string_view all(reinterpret_cast<const char*>(data), size);
  const size_t eol = all.find('\n');
  if (eol == std::string_view::npos) return std::nullopt;
  const std::string_view name = all.substr(0, eol);
  for (std::string_view a : allowed) {
    if (a == name) return NamedInput{name, all.substr(eol + 1)};
  }
  return std::nullopt;
}

// `perfdx analyze PATH` without the CLI: load, analyse, advise, group into
// jobs, render both formats. The window varies with the input so that all
// three are fuzzed. Errors are the expected outcome of most inputs.
inline void AnalyzePath(const std::string& path, size_t variant) {
  pipeline::AnalyzeRequest request;
  request.paths = {path};
  request.load.threads = 1;
  // Small limits: a mutated bomb stops at 4 MiB instead of costing a second.
  request.load.limits.max_decompressed_bytes = 4 << 20;
  request.load.limits.ratio_floor_bytes = 1 << 20;
  constexpr analysis::AnalysisWindow kWindows[] = {analysis::AnalysisWindow::kSteps,
                                                   analysis::AnalysisWindow::kAll,
                                                   analysis::AnalysisWindow::kHta};
  request.analysis.window = kWindows[variant % 3];
  Result<report::AnalyzeReport> report = pipeline::BuildAnalyzeReport(request);
  if (!report.ok()) return;
  (void)report::RenderAnalyzeJson(*report);
  (void)report::RenderAnalyzeText(*report);
  (void)report::RenderAnalyzeText(*report, {.width = 40, .color = true, .top = 3, .fixes = false});
  (void)report::RenderAnalyzeMarkdown(*report);
}

// A record read from an input goes where `baseline save` puts it: saved to a
// run library (one per process, in the scratch folder), loaded back and
// rendered as `baseline show` would, then removed again.
inline void RoundTripRecord(const baseline::RunRecord& record) {
  static Result<baseline::RunStore> store = baseline::RunStore::Open(
      (ScratchDir() / "runs.db").string(), baseline::RunStore::Mode::kCreate);
  if (!store.ok()) abort();
  Result<int64_t> id = store->Save(record);
  if (!id.ok()) return;
  const std::string ref = std::to_string(*id);
  Result<baseline::RunRecord> loaded = store->Load(ref);
  if (loaded.ok()) {
    (void)report::RenderRunText(*loaded);
    (void)report::RenderRunJson(*loaded);
  }
  if (!store->Remove(ref).ok()) abort();
}

}  // namespace perfdx::fuzz
