// Fork and join for pieces of work that read what none of the others
// writes: RunBeside for two, one on a thread of its own and the other here;
// RunEach for a list, taken in order by the threads as each finishes one.
// What another thread throws (std::bad_alloc on a large trace) is thrown here
// once all are done, so it reaches the caller's handlers instead of
// terminating the process.
#pragma once

#include <algorithm>
#include <atomic>
#include <exception>
#include <functional>
#include <mutex>
#include <span>
#include <thread>
#include <utility>
#include <vector>

namespace perfdx::base {

// With `beside` false both run here, `here` first.
template <typename Side, typename Here>
void RunBeside(bool beside, Side&& side, Here&& here) {
  if (!beside) {
    std::forward<Here>(here)();
    std::forward<Side>(side)();
    return;
  }
  std::exception_ptr failure;
  {
    std::jthread other([&] {
      try {
        side();
      } catch (...) {
        failure = std::current_exception();
      }
    });
    here();
  }  // joined here, also when `here` throws
  if (failure) std::rethrow_exception(failure);
}

// Runs every task once on `threads` threads, this one among them: each takes
// the next task not yet taken, so pieces of unequal cost balance themselves
// (list the longest first). With one thread they run here in order. After a
// failure no further task is started; the first failure is thrown here.
inline void RunEach(unsigned threads, std::span<const std::function<void()>> tasks) {
  std::atomic<size_t> next{0};
  std::atomic<bool> failed{false};
  std::exception_ptr failure;
  std::mutex failure_mutex;
  auto work = [&] {
    for (;;) {
      if (failed.load(std::memory_order_relaxed)) return;
      const size_t k = next.fetch_add(1, std::memory_order_relaxed);
      if (k >= tasks.size()) return;
      try {
        tasks[k]();
      } catch (...) {
        const std::lock_guard<std::mutex> lock(failure_mutex);
        if (!failure) failure = std::current_exception();
        failed = true;
      }
    }
  };
  {
    std::vector<std::jthread> others;
    // No more threads than tasks to share: this one takes a task too.
    const size_t extra =
        tasks.empty() ? 0 : std::min<size_t>(threads > 0 ? threads - 1 : 0, tasks.size() - 1);
    others.reserve(extra);
    for (size_t t = 0; t < extra; ++t) others.emplace_back(work);
    work();
  }  // joined here
  if (failure) std::rethrow_exception(failure);
}

}  // namespace perfdx::base
