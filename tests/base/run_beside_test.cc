#include "perfdx/base/run_beside.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <new>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace perfdx::base {
namespace {

TEST(RunBesideTest, TheSideRunsOnAThreadOfItsOwnOnlyWhenAsked) {
  for (bool beside : {false, true}) {
    std::thread::id side_thread;
    std::thread::id here_thread;
    RunBeside(
        beside, [&] { side_thread = std::this_thread::get_id(); },
        [&] { here_thread = std::this_thread::get_id(); });
    EXPECT_EQ(here_thread, std::this_thread::get_id()) << beside;
    EXPECT_EQ(side_thread == std::this_thread::get_id(), !beside) << beside;
  }
}

// A bad_alloc on the side thread used to end the process (std::terminate);
// it reaches the caller, after `here` has finished.
TEST(RunBesideTest, WhatTheSideThrowsIsThrownHereAfterBothAreDone) {
  for (bool beside : {false, true}) {
    bool here_done = false;
    EXPECT_THROW(RunBeside(
                     beside, [] { throw std::bad_alloc(); }, [&] { here_done = true; }),
                 std::bad_alloc)
        << beside;
    EXPECT_TRUE(here_done) << beside;
  }
}

TEST(RunBesideTest, WhenHereThrowsTheSideIsJoinedFirst) {
  std::atomic<bool> side_done{false};
  EXPECT_THROW(RunBeside(
                   true,
                   [&] {
                     std::this_thread::sleep_for(std::chrono::milliseconds(20));
                     side_done = true;
                   },
                   [] { throw std::runtime_error("here"); }),
               std::runtime_error);
  EXPECT_TRUE(side_done);
}

TEST(RunEachTest, EveryTaskRunsOnceInOrderHereWithOneThread) {
  std::vector<int> ran;
  std::vector<std::thread::id> where;
  std::vector<std::function<void()>> tasks;
  for (int k = 0; k < 5; ++k) {
    tasks.emplace_back([&ran, &where, k] {
      ran.push_back(k);
      where.push_back(std::this_thread::get_id());
    });
  }
  RunEach(1, tasks);
  EXPECT_EQ(ran, (std::vector<int>{0, 1, 2, 3, 4}));
  for (const std::thread::id& id : where) EXPECT_EQ(id, std::this_thread::get_id());
}

TEST(RunEachTest, ThreadsShareTheTasksEachRunOnce) {
  constexpr int kTasks = 64;
  std::vector<std::atomic<int>> runs(kTasks);
  std::mutex mutex;
  std::set<std::thread::id> threads;
  std::vector<std::function<void()>> tasks;
  for (int k = 0; k < kTasks; ++k) {
    tasks.emplace_back([&, k] {
      ++runs[k];
      std::this_thread::sleep_for(std::chrono::microseconds(200));
      const std::lock_guard<std::mutex> lock(mutex);
      threads.insert(std::this_thread::get_id());
    });
  }
  RunEach(3, tasks);
  for (int k = 0; k < kTasks; ++k) EXPECT_EQ(runs[k].load(), 1) << k;
  EXPECT_GE(threads.size(), 1u);
  EXPECT_LE(threads.size(), 3u);
  EXPECT_TRUE(threads.count(std::this_thread::get_id()) == 1);
  RunEach(4, std::span<const std::function<void()>>());  // nothing to run: returns
}

// As RunBeside: a bad_alloc on another thread reaches the caller; with one
// thread, the tasks after the failed one are not started.
TEST(RunEachTest, AFailureIsThrownHereAndStopsTheTasksNotStarted) {
  for (unsigned threads : {1u, 2u}) {
    std::atomic<bool> later_ran{false};
    const std::function<void()> tasks[] = {
        [] { throw std::bad_alloc(); },
        [] { std::this_thread::sleep_for(std::chrono::milliseconds(5)); },
        [&] { later_ran = true; },
    };
    EXPECT_THROW(RunEach(threads, tasks), std::bad_alloc) << threads;
    EXPECT_FALSE(later_ran) << threads;
  }
}

}  // namespace
}  // namespace perfdx::base
