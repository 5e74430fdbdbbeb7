#include "perfdx/cli/progress_bar.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "perfdx/report/text_layout.h"
#include "perfdx/report/units.h"

namespace perfdx::cli {
namespace {

using Clock = std::chrono::steady_clock;

class ProgressBar {
 public:
  explicit ProgressBar(int columns) : columns_(std::clamp(columns > 0 ? columns : 80, 20, 300)) {}

  // Called from the loader threads.
  void Update(const formats::LoadProgress& p) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (inputs_.size() < p.inputs) inputs_.resize(p.inputs);
    if (p.input >= inputs_.size()) return;
    Input& in = inputs_[p.input];
    if (p.done) {
      in.done = true;
    } else {
      in.read = p.bytes_read;
      in.total = p.bytes_total;
      path_ = std::string(p.path);
    }
    const size_t done = static_cast<size_t>(
        std::count_if(inputs_.begin(), inputs_.end(), [](const Input& i) { return i.done; }));
    if (done == inputs_.size()) {
      Erase();
      return;
    }
    const Clock::time_point now = Clock::now();
    // Quiet for the first second (most loads end by then), then ten frames a second.
    if (now - start_ < std::chrono::seconds(1)) return;
    if (shown_ && now - drawn_ < std::chrono::milliseconds(100)) return;
    drawn_ = now;
    Draw(done);
  }

 private:
  struct Input {
    uint64_t read = 0;
    uint64_t total = 0;
    bool done = false;
  };

  void Draw(size_t done) {
    // Each input counts the same; one in progress by the share of its bytes read.
    double sum = 0;
    uint64_t read = 0;
    for (const Input& i : inputs_) {
      read += i.read;
      if (i.done) {
        sum += 1;
      } else if (i.total > 0) {
        sum += std::min(1.0, static_cast<double>(i.read) / static_cast<double>(i.total));
      }
    }
    const double fraction = inputs_.empty() ? 0 : sum / static_cast<double>(inputs_.size());
    constexpr int kBar = 24;
    const int filled = static_cast<int>(fraction * kBar);
    std::string bar;
    for (int k = 0; k < kBar; ++k) bar += k < filled ? "█" : "░";
    std::string line =
        fmt::format("perfdx: loading {}/{} {} {:3.0f}% {}", done, inputs_.size(), bar,
                    fraction * 100, report::FormatBytes(static_cast<double>(read)));
    const size_t width = static_cast<size_t>(columns_ - 1);
    const size_t used = report::DisplayWidth(line);
    if (used + 3 < width) line += "  " + report::ShortenMiddle(path_, width - used - 2);
    line = std::string(report::TakeColumns(line, width));
    const std::string frame = "\r" + line + "\x1b[K";
    (void)!::write(STDERR_FILENO, frame.data(), frame.size());
    shown_ = true;
  }

  void Erase() {
    if (!shown_) return;
    static constexpr char kErase[] = "\r\x1b[K";
    (void)!::write(STDERR_FILENO, kErase, sizeof(kErase) - 1);
    shown_ = false;
  }

  std::mutex mutex_;
  const int columns_;
  const Clock::time_point start_ = Clock::now();
  Clock::time_point drawn_{};
  bool shown_ = false;
  std::vector<Input> inputs_;
  std::string path_;
};

}  // namespace

void AttachProgressBar(const Terminal& terminal, formats::LoadOptions* options) {
  if (!terminal.stderr_tty || (terminal.term && *terminal.term == "dumb")) return;
  auto bar = std::make_shared<ProgressBar>(terminal.stderr_columns);
  options->progress = [bar](const formats::LoadProgress& p) { bar->Update(p); };
}

}  // namespace perfdx::cli
