// Fork and join for two pieces of work that read what neither writes: the
// one beside on a thread of its own, the other here. What the side throws
// (std::bad_alloc on a large trace) is thrown here once both are done, so it
// reaches the caller's handlers instead of terminating the process.
#pragma once

#include <exception>
#include <thread>
#include <utility>

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

}  // namespace perfdx::base
