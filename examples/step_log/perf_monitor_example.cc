// PerfMonitor in a C++ training loop: time each step, write the step log,
// compare with a baseline. Built and run by the test suite
// (tests/CMakeLists.txt: perf_monitor_example).
//
//   perf_monitor_example steps.jsonl     then: perfdx check steps.jsonl --against ...
#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>

#include "perfdx/baseline/perf_monitor.h"

namespace {

// Stands in for forward + backward + optimizer step.
void TrainStep(int step) {
  std::this_thread::sleep_for(std::chrono::microseconds(2000 + 37 * (step % 5)));
}

}  // namespace

int main(int argc, char** argv) {
  perfdx::PerfMonitor::Options options;
  options.log_path = argc > 1 ? argv[1] : "";
  options.meta = {{"model", "example"}};
  perfdx::PerfMonitor monitor(options);
  // Last release's step times, e.g. from `perfdx baseline show NAME --json`.
  monitor.SetBaseline({0.0101, 0.0100, 0.0102, 0.0101, 0.0100, 0.0101});

  constexpr int kSteps = 20;
  constexpr double kBatchSize = 64;
  for (int step = 0; step < kSteps; ++step) {
    auto timer = monitor.StartStep(kBatchSize);
    TrainStep(step);
  }
  const perfdx::PerfMonitor::Comparison c = monitor.Compare();
  std::printf("%s\nthroughput %.0f samples/s\n", c.message.c_str(), monitor.MedianThroughput());
  if (!monitor.CheckNoRegression()) return 1;
  monitor.ValidateImprovement();
  return 0;
}
