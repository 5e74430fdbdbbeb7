// The library under concurrent writers and a writer killed mid-save
// (SIGKILL inside its transaction, while it holds the write lock).
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "perfdx/baseline/store.h"
#include "test_support.h"

namespace perfdx::baseline {
namespace {

constexpr int kWriters = 8;
constexpr int kStepsPerRun = 400;  // ~1600 rows per save: a transaction that takes a moment

RunRecord MakeRun(const std::string& name) {
  RunRecord r;
  r.name = name;
  r.created_unix_s = 1700000000;
  r.perfdx_version = "test";
  r.source = RunSource::kStepLog;
  r.input_path = name + ".jsonl";
  r.window = "log";
  for (int i = 0; i < kStepsPerRun; ++i) {
    r.steps.push_back(StepSample{i, 1000000 + i, 32, {{"data", 1000}, {"forward", 2000}}});
  }
  AddStepMetrics(r);
  for (int i = 0; i < 100; ++i) r.items.push_back({"kernel_" + std::to_string(i), "kernel", 1, i});
  return r;
}

// Child process body: save one run, then _exit (never return into gtest).
[[noreturn]] void SaveAndExit(const std::string& db, const std::string& name, int start_fd) {
  if (start_fd >= 0) {
    char c;
    (void)!::read(start_fd, &c, 1);  // returns 0 when the parent closes its end: go
  }
  auto store = RunStore::Open(db, RunStore::Mode::kCreate);
  if (!store.ok()) {
    std::fprintf(stderr, "%s: open: %s\n", name.c_str(), store.status().message().c_str());
    ::_exit(2);
  }
  auto id = store->Save(MakeRun(name));
  if (!id.ok()) {
    std::fprintf(stderr, "%s: save: %s\n", name.c_str(), id.status().message().c_str());
    ::_exit(3);
  }
  ::_exit(0);
}

// Waits for a child; kills it if it takes longer than `limit`.
int WaitExit(pid_t pid, std::chrono::seconds limit = std::chrono::seconds(120)) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  int status = 0;
  while (::waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      return -1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
}

std::vector<pid_t> StartWriters(const std::string& db, const std::string& prefix, int* start_pipe) {
  std::vector<pid_t> pids;
  for (int k = 0; k < kWriters; ++k) {
    const pid_t pid = ::fork();
    if (pid == 0) {
      ::close(start_pipe[1]);
      SaveAndExit(db, prefix + std::to_string(k), start_pipe[0]);
    }
    pids.push_back(pid);
  }
  return pids;
}

std::set<std::string> RunNames(const std::string& db) {
  auto store = RunStore::Open(db, RunStore::Mode::kExisting);
  EXPECT_TRUE(store.ok()) << store.status().message();
  if (!store.ok()) return {};
  auto runs = store->List({});
  EXPECT_TRUE(runs.ok()) << runs.status().message();
  std::set<std::string> names;
  for (const RunSummary& r : *runs) {
    EXPECT_EQ(r.steps, kStepsPerRun) << r.name;
    names.insert(r.name);
  }
  return names;
}

TEST(Durability, EightConcurrentWritersLoseNothing) {
  testing::TempDir dir;
  const std::string db = dir.path() + "/runs.db";  // created by the writers themselves, at once
  int start[2];
  ASSERT_EQ(::pipe(start), 0);
  const std::vector<pid_t> pids = StartWriters(db, "writer-", start);
  ::close(start[0]);
  ::close(start[1]);  // all writers start now
  for (pid_t pid : pids) EXPECT_EQ(WaitExit(pid), 0);

  std::set<std::string> expected;
  for (int k = 0; k < kWriters; ++k) expected.insert("writer-" + std::to_string(k));
  EXPECT_EQ(RunNames(db), expected);
  auto store = RunStore::Open(db, RunStore::Mode::kExisting);
  ASSERT_TRUE(store.ok());
  EXPECT_EQ(*store->IntegrityCheck(), "ok");
}

TEST(Durability, KillDuringSaveLosesOnlyThatRun) {
  testing::TempDir dir;
  const std::string db = dir.path() + "/runs.db";
  {
    auto store = RunStore::Open(db, RunStore::Mode::kCreate);
    ASSERT_TRUE(store.ok()) << store.status().message();
    ASSERT_TRUE(store->Save(MakeRun("before-0")).ok());
    ASSERT_TRUE(store->Save(MakeRun("before-1")).ok());
  }

  // The victim writes every row of its run, tells us, and waits inside the
  // transaction, holding the write lock, until it is killed.
  int inside[2];
  ASSERT_EQ(::pipe(inside), 0);
  const pid_t victim = ::fork();
  if (victim == 0) {
    ::close(inside[0]);
    auto store = RunStore::Open(db, RunStore::Mode::kExisting);
    if (!store.ok()) ::_exit(2);
    (void)store->Save(MakeRun("victim"), [&] {
      (void)!::write(inside[1], "x", 1);
      ::sleep(120);
    });
    ::_exit(4);  // never reached when the test works
  }
  ::close(inside[1]);
  pollfd p{inside[0], POLLIN, 0};
  ASSERT_EQ(::poll(&p, 1, 60000), 1) << "the victim never reached its commit";
  char c;
  ASSERT_EQ(::read(inside[0], &c, 1), 1);
  ::close(inside[0]);

  // Eight writers queue behind the victim's lock on their busy timeout...
  int start[2];
  ASSERT_EQ(::pipe(start), 0);
  const std::vector<pid_t> writers = StartWriters(db, "writer-", start);
  ::close(start[0]);
  ::close(start[1]);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));

  // ...until kill -9 ends the victim mid-transaction.
  ASSERT_EQ(::kill(victim, SIGKILL), 0);
  EXPECT_EQ(WaitExit(victim), -SIGKILL);
  for (pid_t pid : writers) EXPECT_EQ(WaitExit(pid), 0);

  auto store = RunStore::Open(db, RunStore::Mode::kExisting);
  ASSERT_TRUE(store.ok()) << store.status().message();
  EXPECT_EQ(*store->IntegrityCheck(), "ok");
  std::set<std::string> expected = {"before-0", "before-1"};
  for (int k = 0; k < kWriters; ++k) expected.insert("writer-" + std::to_string(k));
  EXPECT_EQ(RunNames(db), expected);  // everything but the victim
  EXPECT_EQ(store->Load("victim").status().code(), StatusCode::kNotFound);
  auto before = store->Load("before-1");
  ASSERT_TRUE(before.ok()) << before.status().message();
  EXPECT_EQ(before->steps.size(), static_cast<size_t>(kStepsPerRun));
  EXPECT_EQ(before->items.size(), 100u);
  // The library stays writable.
  EXPECT_TRUE(store->Save(MakeRun("after")).ok());
}

}  // namespace
}  // namespace perfdx::baseline
