// TaskPool: a few worker threads that run submitted tasks while their owner
// goes on, for work that is cut into pieces consumed in order (the chunks of
// one trace). The owner waits for one task at a time; while it waits it runs
// queued tasks itself, so N threads of work need only N - 1 workers and a
// pool of zero workers runs everything on the owner's thread.
#pragma once

#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace perfdx::base {

class TaskPool {
 public:
  class Task {
   public:
    virtual ~Task() = default;
    virtual void Run() = 0;

   private:
    friend class TaskPool;
    enum class State { kIdle, kQueued, kRunning, kDone };
    State state_ = State::kIdle;
    std::exception_ptr failure_;  // what Run threw, for Wait to throw
  };

  explicit TaskPool(unsigned workers);
  ~TaskPool();  // waits for the running tasks; queued ones are dropped
  TaskPool(const TaskPool&) = delete;
  TaskPool& operator=(const TaskPool&) = delete;

  // `task` must stay alive until Wait(task) returns or the pool is destroyed.
  void Submit(Task* task);
  // Until `task` has run (it may run here), then throws what its Run threw
  // (std::bad_alloc on a worker would otherwise end the process). A task
  // never submitted returns.
  void Wait(Task* task);

 private:
  void Work();
  void RunLocked(Task* task, std::unique_lock<std::mutex>& lock);

  std::mutex mutex_;
  std::condition_variable queued_;
  std::condition_variable finished_;
  std::deque<Task*> queue_;
  bool stopping_ = false;
  std::vector<std::thread> workers_;
};

}  // namespace perfdx::base
