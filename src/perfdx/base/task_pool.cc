#include "perfdx/base/task_pool.h"

#include <utility>

namespace perfdx::base {

TaskPool::TaskPool(unsigned workers) {
  workers_.reserve(workers);
  for (unsigned i = 0; i < workers; ++i) workers_.emplace_back([this] { Work(); });
}

TaskPool::~TaskPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    for (Task* t : queue_) t->state_ = Task::State::kIdle;
    queue_.clear();
  }
  queued_.notify_all();
  for (std::thread& w : workers_) w.join();
}

void TaskPool::Submit(Task* task) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    task->state_ = Task::State::kQueued;
    queue_.push_back(task);
  }
  queued_.notify_one();
}

void TaskPool::RunLocked(Task* task, std::unique_lock<std::mutex>& lock) {
  task->state_ = Task::State::kRunning;
  lock.unlock();
  try {
    task->Run();
  } catch (...) {
    task->failure_ = std::current_exception();
  }
  lock.lock();
  task->state_ = Task::State::kDone;
  finished_.notify_all();
}

void TaskPool::Wait(Task* task) {
  std::unique_lock<std::mutex> lock(mutex_);
  while (task->state_ == Task::State::kQueued || task->state_ == Task::State::kRunning) {
    if (!queue_.empty()) {
      // Help: the oldest queued task, which is the awaited one or one before
      // it in the owner's order.
      Task* next = queue_.front();
      queue_.pop_front();
      RunLocked(next, lock);
      continue;
    }
    finished_.wait(lock);
  }
  task->state_ = Task::State::kIdle;
  if (task->failure_) std::rethrow_exception(std::exchange(task->failure_, nullptr));
}

void TaskPool::Work() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    queued_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    if (stopping_) return;
    Task* next = queue_.front();
    queue_.pop_front();
    RunLocked(next, lock);
  }
}

}  // namespace perfdx::base
