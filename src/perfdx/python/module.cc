// `perfdx._perfdx`: the Python front end over the same pipeline as the CLI
// (python/perfdx/__init__.py wraps it). Each call checks its arguments as the
// CLI checks its flags, runs the pipeline with the GIL released, and returns
// the report's JSON contract as Python objects (ObjectSink) together with the
// CLI's own text and JSON renderings, so that nothing is computed twice and no
// JSON text is parsed back.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <cstdint>
#include <new>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "perfdx/advisor/config.h"
#include "perfdx/base/statistics.h"
#include "perfdx/base/status.h"
#include "perfdx/formats/trace_loader.h"
#include "perfdx/model/framework.h"
#include "perfdx/pipeline/analyze.h"
#include "perfdx/pipeline/limits.h"
#include "perfdx/pipeline/runs.h"
#include "perfdx/python/object_sink.h"
#include "perfdx/report/analyze_report.h"
#include "perfdx/report/check_report.h"
#include "perfdx/report/html_report.h"
#include "perfdx/report/info_report.h"
#include "perfdx/report/markdown_report.h"
#include "perfdx/report/text_report.h"
#include "perfdx/report/whatif_report.h"
#include "perfdx/version.h"

namespace perfdx::python {
namespace {

namespace py = pybind11;

// The exception types, created at import (PyErr_NewException) and kept for
// the life of the interpreter.
struct Errors {
  PyObject* error = nullptr;     // perfdx.Error, the base of the others
  PyObject* input = nullptr;     // perfdx.InputError: the input cannot be read
  PyObject* usage = nullptr;     // perfdx.UsageError: a bad argument (also a ValueError)
  PyObject* internal = nullptr;  // perfdx.InternalError: a bug in perfdx
};
Errors g_errors;

// Raises the exception that matches `status`, with perfdx's message (the
// file and byte offset are in it).
[[noreturn]] void Raise(const Status& status) {
  PyObject* type = g_errors.input;
  switch (status.code()) {
    case StatusCode::kInternal:
      type = g_errors.internal;
      break;
    case StatusCode::kOutOfMemory:
      type = PyExc_MemoryError;
      break;
    default:
      break;
  }
  PyErr_SetString(type, status.message().c_str());
  throw py::error_already_set();
}

[[noreturn]] void RaiseUsage(const std::string& message) {
  PyErr_SetString(g_errors.usage, message.c_str());
  throw py::error_already_set();
}

template <typename T>
T ValueOrRaise(Result<T>&& result) {
  if (!result.ok()) Raise(result.status());
  return std::move(result).value();
}

// Runs `work` without the GIL; a std::bad_alloc inside becomes MemoryError
// as the CLI's exit code 4 does, after the GIL is back.
template <typename F>
auto WithoutGil(F&& work) -> decltype(work()) {
  std::optional<decltype(work())> out;
  bool out_of_memory = false;
  {
    py::gil_scoped_release release;
    try {
      out.emplace(work());
    } catch (const std::bad_alloc&) {
      out_of_memory = true;
    }
  }
  if (out_of_memory) Raise(OutOfMemory("perfdx: out of memory"));
  return std::move(*out);
}

// The Python object type each JSON object becomes (perfdx._report.Node).
py::object& ObjectType() {
  static py::object* type = new py::object(py::reinterpret_borrow<py::object>(
      reinterpret_cast<PyObject*>(&PyDict_Type)));  // leaked: outlives the interpreter's teardown
  return *type;
}

struct LoadArgs {
  std::vector<std::string> paths;
  unsigned threads = 0;
  // Unset: the reading limits' defaults (io::ReadLimits), as the CLI's.
  std::optional<uint64_t> max_decompressed_bytes;
  std::optional<double> max_ratio;
  std::string framework;  // "" detects
  bool fast_path = true;
};

formats::LoadOptions ToLoadOptions(const LoadArgs& args) {
  if (args.paths.empty()) RaiseUsage("paths: no trace given");
  if (args.threads > pipeline::kMaxThreads) {
    RaiseUsage(fmt::format("threads={}: expected a whole number from 0 to {}", args.threads,
                           pipeline::kMaxThreads));
  }
  formats::LoadOptions options;
  if (args.max_ratio) {
    const double ratio = *args.max_ratio;
    if (!std::isfinite(ratio) || ratio < 1 || ratio > pipeline::kMaxCompressionRatio) {
      RaiseUsage(fmt::format("max_ratio={}: expected a number from 1 to {:g}", ratio,
                             pipeline::kMaxCompressionRatio));
    }
    options.limits.max_compression_ratio = ratio;
  }
  if (args.max_decompressed_bytes) {
    options.limits.max_decompressed_bytes = *args.max_decompressed_bytes;
  }
  options.threads = args.threads;
  options.json.fast_path = args.fast_path;
  if (!args.framework.empty()) {
    auto framework = model::ParseFramework(args.framework);
    if (!framework || *framework == model::Framework::kUnknown) {
      RaiseUsage(
          fmt::format("framework='{}': expected pytorch, torch_npu or mindspore", args.framework));
    }
    options.framework = framework;
  }
  return options;
}

// analyze(): (the JSON contract as objects, the JSON text, the text report,
// the HTML page, the Markdown).
py::tuple Analyze(const LoadArgs& load, const std::string& steps, const std::string& window,
                  const std::vector<int64_t>& ranks, bool include_incomplete, double min_gap_us,
                  const std::string& config) {
  pipeline::AnalyzeRequest request;
  request.paths = load.paths;
  request.load = ToLoadOptions(load);
  const auto analysis_window = pipeline::ParseAnalysisWindow(window);
  if (!analysis_window) {
    RaiseUsage(fmt::format("window='{}': expected 'steps', 'all' or 'hta'", window));
  }
  request.analysis.window = *analysis_window;
  request.analysis.include_incomplete = include_incomplete;
  if (!std::isfinite(min_gap_us) || !(min_gap_us > 0) || min_gap_us > pipeline::kMaxMinGapUs) {
    RaiseUsage(fmt::format("min_gap_us={}: expected a number above 0 and at most {:g}", min_gap_us,
                           pipeline::kMaxMinGapUs));
  }
  request.analysis.min_gap_ns = static_cast<int64_t>(min_gap_us * 1000);
  if (!steps.empty()) {
    auto range = pipeline::ParseStepRange(steps);
    if (!range.ok()) RaiseUsage(range.status().message());
    request.analysis.step_range = *range;
  }
  for (int64_t r : ranks) {
    if (r < 0 || r > pipeline::kMaxRank) {
      RaiseUsage(
          fmt::format("rank={}: expected a whole number from 0 to {}", r, pipeline::kMaxRank));
    }
  }
  request.ranks = ranks;
  // As the CLI: a bad thresholds file fails before any trace is read.
  request.thresholds = ValueOrRaise(advisor::ResolveThresholds(config));

  struct Rendered {
    Result<report::AnalyzeReport> report;
    std::string json;
    std::string text;
    std::string html;
    std::string markdown;
  };
  Rendered out = WithoutGil([&] {
    Rendered r{pipeline::BuildAnalyzeReport(request), {}, {}, {}, {}};
    if (r.report.ok()) {
      r.json = report::RenderAnalyzeJson(*r.report);
      r.text = report::RenderAnalyzeText(*r.report);
      r.html = report::RenderAnalyzeHtml(*r.report);
      r.markdown = report::RenderAnalyzeMarkdown(*r.report);
    }
    return r;
  });
  if (!out.report.ok()) Raise(out.report.status());
  ObjectSink sink(ObjectType());
  report::WriteAnalyzeReport(*out.report, sink);
  py::object tree = sink.Take();
  // The report is freed without the GIL (its traces already are).
  WithoutGil([&] {
    out.report = Internal("released");
    return 0;
  });
  return py::make_tuple(tree, py::str(out.json), py::str(out.text), py::str(out.html),
                        py::str(out.markdown));
}

// info(): (the JSON contract as objects, the JSON text, the text).
// whatif(): (the JSON as objects, the JSON text, the text), as
// `perfdx whatif` with the same spellings of the fixes.
py::tuple WhatIf(const LoadArgs& load, const std::vector<std::string>& removals,
                 const std::vector<std::string>& speedups, const std::vector<int64_t>& ranks,
                 const std::vector<int64_t>& fix_ranks) {
  analysis::WhatIf what_if;
  for (const std::string& r : removals) {
    if (Status st = analysis::AddRemoval(r, &what_if); !st.ok()) RaiseUsage(st.message());
  }
  for (const std::string& s : speedups) {
    if (Status st = analysis::AddSpeedup(s, &what_if); !st.ok()) RaiseUsage(st.message());
  }
  if (what_if.identity()) RaiseUsage("whatif: nothing to change: give remove or speedup");
  for (const auto& [name, list] : {std::pair{"rank", &ranks}, std::pair{"fix_rank", &fix_ranks}}) {
    for (int64_t r : *list) {
      if (r < 0 || r > pipeline::kMaxRank) {
        RaiseUsage(fmt::format("{}={}: expected a whole number from 0 to {}", name, r,
                               pipeline::kMaxRank));
      }
    }
  }
  pipeline::AnalyzeRequest request;
  request.paths = load.paths;
  request.load = ToLoadOptions(load);
  request.ranks = ranks;
  request.what_if = what_if;
  request.fix_ranks = fix_ranks;
  struct Rendered {
    Result<report::AnalyzeReport> report;
    std::string json;
    std::string text;
  };
  Rendered out = WithoutGil([&] {
    Rendered r{pipeline::BuildAnalyzeReport(request), {}, {}};
    if (r.report.ok()) {
      r.json = report::RenderWhatIfJson(*r.report);
      r.text = report::RenderWhatIfText(*r.report, report::TextOptions{}.width);
    }
    return r;
  });
  if (!out.report.ok()) Raise(out.report.status());
  ObjectSink sink(ObjectType());
  report::WriteWhatIfReport(*out.report, sink);
  py::object tree = sink.Take();
  WithoutGil([&] {
    out.report = Internal("released");
    return 0;
  });
  return py::make_tuple(tree, out.json, out.text);
}

py::tuple Info(const LoadArgs& load) {
  const formats::LoadOptions options = ToLoadOptions(load);
  struct Rendered {
    Result<formats::LoadedTraces> loaded;
    std::optional<report::InfoReport> report;
    std::string json;
    std::string text;
  };
  Rendered out = WithoutGil([&] {
    Rendered r{formats::LoadTraces(load.paths, options), std::nullopt, {}, {}};
    if (r.loaded.ok()) {
      r.report = report::BuildInfoReport(r.loaded->traces, r.loaded->warnings);
      r.json = report::RenderInfoJson(*r.report);
      r.text = report::RenderInfoText(*r.report);
    }
    return r;
  });
  if (!out.loaded.ok()) Raise(out.loaded.status());
  ObjectSink sink(ObjectType());
  report::WriteInfoReport(*out.report, sink);
  py::object tree = sink.Take();
  WithoutGil([&] {
    out.report.reset();
    out.loaded = Internal("released");
    return 0;
  });
  return py::make_tuple(tree, py::str(out.json), py::str(out.text));
}

// check(): (the verdict as objects, JSON, text, Markdown, HTML).
py::tuple Check(const std::string& current, const std::string& against, const std::string& db,
                const LoadArgs& load, const std::string& window, bool include_incomplete,
                std::optional<int64_t> rank, int64_t warmup, double max_regression,
                double min_improvement, double confidence, int resamples, uint64_t seed) {
  baseline::RunInputOptions input;
  LoadArgs with_paths = load;
  with_paths.paths = {current};
  input.load = ToLoadOptions(with_paths);
  const auto analysis_window = pipeline::ParseAnalysisWindow(window);
  if (!analysis_window) {
    RaiseUsage(fmt::format("window='{}': expected 'steps', 'all' or 'hta'", window));
  }
  input.analysis.window = *analysis_window;
  input.analysis.include_incomplete = include_incomplete;
  if (rank && (*rank < 0 || *rank > pipeline::kMaxRank)) {
    RaiseUsage(
        fmt::format("rank={}: expected a whole number from 0 to {}", *rank, pipeline::kMaxRank));
  }
  input.rank = rank;
  if (warmup < 0 || warmup > pipeline::kMaxCount) {
    RaiseUsage(fmt::format("warmup={}: expected a whole number from 0 to {}", warmup,
                           pipeline::kMaxCount));
  }
  input.warmup_steps = warmup;
  auto fraction = [](const char* name, double v, double low, double high) {
    if (!std::isfinite(v) || v < low || !(v < high)) {
      RaiseUsage(
          fmt::format("{}={}: expected a fraction from {:g} to below {:g}", name, v, low, high));
    }
    return v;
  };
  baseline::CheckOptions check;
  check.thresholds.max_regression = fraction("max_regression", max_regression, 0, 1);
  check.thresholds.min_improvement = fraction("min_improvement", min_improvement, 0, 1);
  if (!std::isfinite(confidence) || confidence < 0.5 || confidence > 0.999) {
    RaiseUsage(fmt::format("confidence={}: expected a number from 0.5 to 0.999", confidence));
  }
  check.bootstrap.confidence = confidence;
  if (resamples < 0 || resamples > 10000) {
    RaiseUsage(fmt::format("resamples={}: expected a whole number from 0 to 10000", resamples));
  }
  check.bootstrap.resamples = resamples;
  check.bootstrap.seed = seed;

  struct Rendered {
    Result<pipeline::CheckedRun> checked;
    std::string json;
    std::string text;
    std::string markdown;
    std::string html;
  };
  Rendered out = WithoutGil([&] {
    Rendered r{pipeline::CheckRuns(current, against, db, input, check), {}, {}, {}, {}};
    if (r.checked.ok()) {
      r.json = report::RenderCheckJson(r.checked->result);
      r.text = report::RenderCheckText(r.checked->result);
      r.markdown = report::RenderCheckMarkdown(r.checked->result);
      r.html = report::RenderCheckHtml(r.checked->result);
    }
    return r;
  });
  if (!out.checked.ok()) Raise(out.checked.status());
  ObjectSink sink(ObjectType());
  report::WriteCheckResult(out.checked->result, sink);
  return py::make_tuple(sink.Take(), py::str(out.json), py::str(out.text), py::str(out.markdown),
                        py::str(out.html));
}

}  // namespace
}  // namespace perfdx::python

namespace {

using perfdx::python::g_errors;
namespace py = pybind11;

PyObject* NewError(py::module_& m, const char* name, PyObject* bases, const char* doc) {
  const std::string qualified = fmt::format("perfdx.{}", name);
  PyObject* type = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, bases, nullptr);
  if (type == nullptr) throw py::error_already_set();
  m.add_object(name, py::reinterpret_borrow<py::object>(type));
  return type;
}

}  // namespace

PYBIND11_MODULE(_perfdx, m) {
  using namespace perfdx::python;  // NOLINT: the bindings name every function of this file
  m.doc() = "perfdx's engine (use the perfdx package, which wraps this module)";
  m.attr("__version__") = PERFDX_VERSION;
  g_errors.error = NewError(m, "Error", PyExc_Exception, "Any error perfdx reports.");
  g_errors.input = NewError(m, "InputError", g_errors.error,
                            "An input cannot be read: a missing file, bytes that are not a trace "
                            "(the message names the file and the byte offset or line), a limit.");
  {
    py::tuple bases = py::make_tuple(py::handle(g_errors.error), py::handle(PyExc_ValueError));
    g_errors.usage = NewError(m, "UsageError", bases.ptr(),
                              "An argument perfdx cannot take (the CLI's exit code 2 for a flag).");
  }
  g_errors.internal =
      NewError(m, "InternalError", g_errors.error, "A bug in perfdx (please report it).");

  py::class_<LoadArgs>(m, "LoadArgs")
      .def(py::init<>())
      .def_readwrite("paths", &LoadArgs::paths)
      .def_readwrite("threads", &LoadArgs::threads)
      .def_readwrite("max_decompressed_bytes", &LoadArgs::max_decompressed_bytes)
      .def_readwrite("max_ratio", &LoadArgs::max_ratio)
      .def_readwrite("framework", &LoadArgs::framework)
      .def_readwrite("fast_path", &LoadArgs::fast_path);

  m.def(
      "set_object_type", [](py::object type) { ObjectType() = std::move(type); },
      "The type each JSON object of a report becomes (a dict subclass).");
  m.def("analyze", &Analyze, py::arg("load"), py::arg("steps"), py::arg("window"), py::arg("ranks"),
        py::arg("include_incomplete"), py::arg("min_gap_us"), py::arg("config"));
  m.def("info", &Info, py::arg("load"));
  m.def("whatif", &WhatIf, py::arg("load"), py::arg("removals"), py::arg("speedups"),
        py::arg("ranks"), py::arg("fix_ranks"));
  m.def("check", &Check, py::arg("current"), py::arg("against"), py::arg("db"), py::arg("load"),
        py::arg("window"), py::arg("include_incomplete"), py::arg("rank"), py::arg("warmup"),
        py::arg("max_regression"), py::arg("min_improvement"), py::arg("confidence"),
        py::arg("resamples"), py::arg("seed"));
  m.attr("DEFAULT_SEED") = py::int_(perfdx::kDefaultBootstrapSeed);
}
