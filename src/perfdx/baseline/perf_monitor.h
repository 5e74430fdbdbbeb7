// perfdx::PerfMonitor — step time and throughput in the training loop itself,
// compared with a baseline the way `perfdx check` compares runs, and written
// as the JSON-lines step log (step_log.h) that `perfdx check` and
// `perfdx baseline save` read.
//
// Header-only, standard library only (with base/statistics.h and verdict.h):
// copy the three headers into a training program, no perfdx library to link.
//
//   perfdx::PerfMonitor monitor({.log_path = "steps.jsonl"});
//   monitor.SetBaseline(last_release_step_times_s);  // or: the first run becomes it
//   for (int i = 0; i < steps; ++i) {
//     auto timer = monitor.StartStep(batch_size);     // records when it goes out of scope
//     TrainStep();
//   }
//   monitor.ValidateImprovement();  // warns: "step time -3.1% ... below the 10% threshold"
//
// What the seed's monitor (../shared/seeds/004 §6) did, done properly: it
// compared two single step times; this compares the step-time distributions
// (median ratio with a bootstrap confidence interval), so one slow step or a
// noisy machine neither hides a regression nor fakes an improvement. An
// improvement counts when the median falls by at least min_improvement (10%)
// and beyond noise (../shared/docs/thresholds.md "Validation").
#pragma once

#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "perfdx/base/statistics.h"
#include "perfdx/baseline/verdict.h"

namespace perfdx {

struct PerfMonitorOptions {
  std::string log_path;  // append the step log here; empty: no log
  double min_improvement = 0.10;
  double max_regression = 0.05;
  size_t warmup_steps = 0;                  // first steps left out of comparisons
  std::map<std::string, std::string> meta;  // the log's header line (model, commit, ...)
  std::ostream* warnings = &std::cerr;      // where warnings go; nullptr: nowhere
};

class PerfMonitor {
 public:
  using Options = PerfMonitorOptions;

  struct Comparison {
    bool valid = false;  // false: no baseline, or too few steps on a side
    baseline::Verdict verdict = baseline::Verdict::kUnchanged;
    perfdx::RatioInterval interval;  // median(current) / median(baseline)
    double speedup = 0;              // 1 - ratio: 0.25 = 25% less step time
    std::string message;             // one line, for logs
  };

  // Steps fewer than this on either side say nothing about noise.
  static constexpr size_t kMinSteps = 3;

  explicit PerfMonitor(Options options = {}) : options_(std::move(options)) {}
  ~PerfMonitor() {
    if (log_ != nullptr) std::fclose(log_);
  }
  PerfMonitor(const PerfMonitor&) = delete;
  PerfMonitor& operator=(const PerfMonitor&) = delete;

  // Records one step: its wall time in seconds and, for throughput, the
  // samples it processed. Appends a line to the log (flushed, so a killed
  // job loses at most the line being written).
  void RecordStep(double step_time_s, double samples = 0) {
    if (!(step_time_s > 0)) return;
    step_times_s_.push_back(step_time_s);
    samples_.push_back(samples);
    WriteLogLine(step_time_s, samples);
  }

  // Times one step from construction to destruction (steady clock).
  class StepTimer {
   public:
    StepTimer(PerfMonitor* monitor, double samples)
        : monitor_(monitor), samples_(samples), start_(std::chrono::steady_clock::now()) {}
    ~StepTimer() {
      if (monitor_ == nullptr) return;
      const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start_;
      monitor_->RecordStep(elapsed.count(), samples_);
    }
    StepTimer(StepTimer&& other) noexcept
        : monitor_(std::exchange(other.monitor_, nullptr)),
          samples_(other.samples_),
          start_(other.start_) {}
    StepTimer(const StepTimer&) = delete;
    StepTimer& operator=(const StepTimer&) = delete;
    StepTimer& operator=(StepTimer&&) = delete;

   private:
    PerfMonitor* monitor_;
    double samples_;
    std::chrono::steady_clock::time_point start_;
  };
  [[nodiscard]] StepTimer StartStep(double samples = 0) { return StepTimer(this, samples); }

  void SetBaseline(std::vector<double> step_times_s) { baseline_s_ = std::move(step_times_s); }
  // The seed's behaviour: with no baseline yet, this run becomes it.
  void SetBaselineFromCurrent() { baseline_s_ = Measured(); }
  bool has_baseline() const { return !baseline_s_.empty(); }

  const std::vector<double>& step_times_s() const { return step_times_s_; }
  double MedianStepTime() const { return perfdx::Median(Measured()); }
  // Median of samples / step time over the steps that recorded samples; 0 if none.
  double MedianThroughput() const {
    std::vector<double> per_step;
    for (size_t i = options_.warmup_steps; i < step_times_s_.size(); ++i) {
      if (samples_[i] > 0) per_step.push_back(samples_[i] / step_times_s_[i]);
    }
    return perfdx::Median(per_step);
  }

  Comparison Compare() const {
    Comparison c;
    const std::vector<double> current = Measured();
    if (baseline_s_.size() < kMinSteps || current.size() < kMinSteps) {
      c.message = "perfdx: not enough steps to compare (need 3 on each side, after warm-up)";
      return c;
    }
    c.interval = perfdx::BootstrapMedianRatio(baseline_s_, current);
    if (!c.interval.valid) {
      c.message = "perfdx: the baseline's median step time is 0";
      return c;
    }
    c.valid = true;
    c.verdict = baseline::Classify(c.interval, {options_.max_regression, options_.min_improvement});
    c.speedup = 1 - c.interval.ratio;
    char line[256];
    std::snprintf(
        line, sizeof(line),
        "perfdx: %s: step time %+.1f%% (95%% CI %+.1f%% .. %+.1f%%), median %.4g s -> %.4g s",
        std::string(baseline::VerdictName(c.verdict)).c_str(), (c.interval.ratio - 1) * 100,
        (c.interval.low - 1) * 100, (c.interval.high - 1) * 100, perfdx::Median(baseline_s_),
        perfdx::Median(current));
    c.message = line;
    return c;
  }

  // True when the step time improved past min_improvement beyond noise;
  // otherwise warns. With no baseline, adopts this run as the baseline and
  // returns true (nothing to compare with yet).
  bool ValidateImprovement() {
    if (!has_baseline()) {
      SetBaselineFromCurrent();
      return true;
    }
    const Comparison c = Compare();
    if (c.valid && c.verdict == baseline::Verdict::kImproved) return true;
    char threshold[96];
    std::snprintf(threshold, sizeof(threshold),
                  " — below the %.3g%% improvement threshold or within noise",
                  options_.min_improvement * 100);
    Warn(c.message + (c.valid ? threshold : ""));
    return false;
  }

  // False (with a warning) when the step time regressed past max_regression
  // beyond noise: the signal to roll the change back.
  bool CheckNoRegression() const {
    const Comparison c = Compare();
    if (c.valid && c.verdict == baseline::Verdict::kRegressed) {
      Warn(c.message + " — regression: roll back or investigate");
      return false;
    }
    return true;
  }

 private:
  std::vector<double> Measured() const {
    if (step_times_s_.size() <= options_.warmup_steps) return {};
    return std::vector<double>(
        step_times_s_.begin() + static_cast<std::ptrdiff_t>(options_.warmup_steps),
        step_times_s_.end());
  }

  void Warn(const std::string& text) const {
    if (options_.warnings != nullptr) *options_.warnings << "Warning: " << text << '\n';
  }

  static void AppendJsonString(std::string& out, std::string_view s) {
    out += '"';
    for (char ch : s) {
      const auto c = static_cast<unsigned char>(ch);
      if (ch == '"' || ch == '\\') {
        out += '\\';
        out += ch;
      } else if (c < 0x20) {
        char buf[8];
        std::snprintf(buf, sizeof(buf), "\\u%04x", c);
        out += buf;
      } else {
        out += ch;
      }
    }
    out += '"';
  }

  void WriteLogLine(double step_time_s, double samples) {
    if (options_.log_path.empty() || log_failed_) return;
    if (log_ == nullptr) {
      log_ = std::fopen(options_.log_path.c_str(), "a");
      if (log_ == nullptr) {
        log_failed_ = true;
        Warn("perfdx: cannot open step log " + options_.log_path);
        return;
      }
      std::string header = "{\"perfdx_step_log\": 1";
      if (!options_.meta.empty()) {
        header += ", \"meta\": {";
        bool first = true;
        for (const auto& [key, value] : options_.meta) {
          if (!first) header += ", ";
          first = false;
          AppendJsonString(header, key);
          header += ": ";
          AppendJsonString(header, value);
        }
        header += '}';
      }
      header += "}\n";
      std::fputs(header.c_str(), log_);
    }
    char line[160];
    if (samples > 0) {
      std::snprintf(line, sizeof(line),
                    "{\"step\": %zu, \"step_time_s\": %.9g, \"samples\": %.9g}\n",
                    step_times_s_.size() - 1, step_time_s, samples);
    } else {
      std::snprintf(line, sizeof(line), "{\"step\": %zu, \"step_time_s\": %.9g}\n",
                    step_times_s_.size() - 1, step_time_s);
    }
    std::fputs(line, log_);
    std::fflush(log_);
  }

  Options options_;
  std::vector<double> step_times_s_;
  std::vector<double> samples_;
  std::vector<double> baseline_s_;
  std::FILE* log_ = nullptr;
  bool log_failed_ = false;
};

}  // namespace perfdx
