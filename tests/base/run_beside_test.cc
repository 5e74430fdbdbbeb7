#include "perfdx/base/run_beside.h"

#include <atomic>
#include <chrono>
#include <new>
#include <stdexcept>
#include <thread>

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

}  // namespace
}  // namespace perfdx::base
