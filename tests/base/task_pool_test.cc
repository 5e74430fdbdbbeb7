#include "perfdx/base/task_pool.h"

#include <atomic>
#include <chrono>
#include <deque>
#include <memory>
#include <new>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace perfdx::base {
namespace {

struct Square final : TaskPool::Task {
  uint64_t input = 0;
  uint64_t output = 0;
  std::thread::id ran_on;
  std::atomic<int>* runs = nullptr;
  void Run() override {
    output = input * input;
    ran_on = std::this_thread::get_id();
    if (runs) ++*runs;
  }
};

TEST(TaskPoolTest, WithoutWorkersTheOwnerRunsEachTaskWhenItWaits) {
  TaskPool pool(0);
  Square a;
  a.input = 7;
  pool.Submit(&a);
  EXPECT_EQ(a.output, 0u) << "nothing runs before the wait";
  pool.Wait(&a);
  EXPECT_EQ(a.output, 49u);
  EXPECT_EQ(a.ran_on, std::this_thread::get_id());
}

// The reader's pattern: a window of tasks in flight, consumed oldest first.
TEST(TaskPoolTest, AWindowOfTasksRunsEachOnceAndIsConsumedInOrder) {
  for (unsigned workers : {1u, 3u}) {
    TaskPool pool(workers);
    std::atomic<int> runs{0};
    std::deque<std::unique_ptr<Square>> window;
    uint64_t next_input = 0;
    uint64_t next_expected = 0;
    uint64_t sum = 0;
    constexpr uint64_t kTasks = 2000;
    while (next_expected < kTasks) {
      while (window.size() < 6 && next_input < kTasks) {
        auto task = std::make_unique<Square>();
        task->input = next_input++;
        task->runs = &runs;
        pool.Submit(task.get());
        window.push_back(std::move(task));
      }
      pool.Wait(window.front().get());
      EXPECT_EQ(window.front()->input, next_expected);
      EXPECT_EQ(window.front()->output, next_expected * next_expected);
      sum += window.front()->output;
      window.pop_front();
      ++next_expected;
    }
    EXPECT_EQ(runs.load(), static_cast<int>(kTasks));
    // The sum of squares 0..n-1, computed independently.
    EXPECT_EQ(sum, (kTasks - 1) * kTasks * (2 * kTasks - 1) / 6);
  }
}

// Which thread runs a task in the window above is up to the scheduler (the
// owner helps while it waits); one the owner never waits for is a worker's.
TEST(TaskPoolTest, AWorkerRunsATaskTheOwnerDoesNotWaitFor) {
  TaskPool pool(1);
  std::atomic<int> runs{0};
  Square a;
  a.input = 3;
  a.runs = &runs;
  pool.Submit(&a);
  for (int i = 0; i < 10000 && runs.load() == 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ASSERT_EQ(runs.load(), 1) << "no worker ran it within 10 s";
  pool.Wait(&a);
  EXPECT_EQ(a.output, 9u);
  EXPECT_NE(a.ran_on, std::this_thread::get_id());
}

// A task that throws, on a worker or on the owner while it helps, throws
// from its own Wait, once; the tasks beside it are not disturbed.
TEST(TaskPoolTest, WhatATaskThrowsIsThrownByItsWait) {
  struct Throws final : TaskPool::Task {
    void Run() override { throw std::bad_alloc(); }
  };
  for (unsigned workers : {0u, 1u}) {
    TaskPool pool(workers);
    Throws bad;
    Square good;
    good.input = 5;
    pool.Submit(&bad);
    pool.Submit(&good);
    pool.Wait(&good);  // may run `bad` first, helping
    EXPECT_EQ(good.output, 25u) << workers;
    EXPECT_THROW(pool.Wait(&bad), std::bad_alloc) << workers;
    pool.Wait(&bad);  // thrown once: a second wait returns
    pool.Submit(&bad);
    EXPECT_THROW(pool.Wait(&bad), std::bad_alloc) << workers;
  }
}

TEST(TaskPoolTest, DestroyedWithTasksQueuedItDropsThemAndReturns) {
  std::atomic<int> runs{0};
  std::vector<std::unique_ptr<Square>> tasks;
  {
    TaskPool pool(1);
    for (int i = 0; i < 100; ++i) {
      tasks.push_back(std::make_unique<Square>());
      tasks.back()->runs = &runs;
      pool.Submit(tasks.back().get());
    }
  }  // joins the worker: no task runs after this
  const int seen = runs.load();
  EXPECT_LE(seen, 100);
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  EXPECT_EQ(runs.load(), seen);
}

}  // namespace
}  // namespace perfdx::base
