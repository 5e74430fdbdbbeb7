// LoadTraces over several ranks: one rank that cannot be read is skipped and
// named (file and byte offset) while the others load; an exception in a
// loader thread becomes a Status instead of terminating the process.
#include "perfdx/formats/trace_loader.h"

#include <filesystem>
#include <map>
#include <mutex>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "test_support.h"

namespace perfdx::formats {
namespace {

// Passes discovery's sniff ("traceEvents" in the head) but is no trace: the
// parser stops at the '}' of the object, byte 27 (counted by hand).
constexpr char kCorruptRank[] = R"({"traceEvents": {"ph": "X"}})";

class OneBadRankTest : public ::testing::TestWithParam<unsigned> {};

TEST_P(OneBadRankTest, TheOtherRanksLoadAndTheBadOneIsNamed) {
  perfdx::testing::TempDir dir;
  dir.Write("run/rank0.json", perfdx::testing::ReadFileOrDie("tests/data/healthy_gpu_trace.json"));
  const std::string bad = dir.Write("run/rank1.json", kCorruptRank);
  LoadOptions options;
  options.threads = GetParam();
  auto loaded = LoadTraces({dir.path() + "/run"}, options);
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  ASSERT_EQ(loaded->traces.size(), 1u);
  EXPECT_EQ(loaded->traces[0].info.rank, 0);
  ASSERT_EQ(loaded->failed.size(), 1u);
  EXPECT_EQ(loaded->failed[0].code(), StatusCode::kInvalidInput);
  EXPECT_EQ(loaded->failed[0].message(),
            bad + ": at byte 27: no \"traceEvents\" array in this JSON object");
  ASSERT_EQ(loaded->warnings.size(), 1u);
  EXPECT_EQ(loaded->warnings[0],
            "rank 1 skipped: " + loaded->failed[0].message() + " (the other 1 input was loaded)");
}

INSTANTIATE_TEST_SUITE_P(Threads, OneBadRankTest, ::testing::Values(1u, 2u),
                         [](const auto& p) { return "Threads" + std::to_string(p.param); });

TEST(TraceLoaderTest, NoReadableRankFailsWithTheFirstError) {
  perfdx::testing::TempDir dir;
  const std::string first = dir.Write("run/rank0.json", kCorruptRank);
  dir.Write("run/rank1.json", kCorruptRank);
  auto loaded = LoadTraces({dir.path() + "/run"}, LoadOptions{});
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.status().code(), StatusCode::kInvalidInput);
  EXPECT_EQ(loaded.status().message(),
            first + ": at byte 27: no \"traceEvents\" array in this JSON object");
}

TEST(TraceLoaderTest, TwoGoodRanksHaveNoWarning) {
  perfdx::testing::TempDir dir;
  const std::string good = perfdx::testing::ReadFileOrDie("tests/data/healthy_gpu_trace.json");
  dir.Write("run/rank0.json", good);
  dir.Write("run/rank1.json", good);
  auto loaded = LoadTraces({dir.path() + "/run"}, LoadOptions{});
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  EXPECT_EQ(loaded->traces.size(), 2u);
  EXPECT_TRUE(loaded->failed.empty());
  EXPECT_TRUE(loaded->warnings.empty());
}

// LoadEachTrace (issue #13): each trace is handed to the consumer, which owns
// it; what the consumer returns is the input's outcome, and the inputs it
// took come back in rank order whatever the threads' order.
class LoadEachTraceTest : public ::testing::TestWithParam<unsigned> {};

TEST_P(LoadEachTraceTest, RankOrderAndAConsumerErrorSkipsItsInput) {
  perfdx::testing::TempDir dir;
  const std::string good = perfdx::testing::ReadFileOrDie("tests/data/healthy_gpu_trace.json");
  // Written out of rank order: discovery sorts by name, the outcome by rank.
  for (int rank : {3, 1, 2, 0}) dir.Write(fmt::format("run/rank{}.json", rank), good);
  LoadOptions options;
  options.threads = GetParam();
  std::mutex mutex;
  std::map<size_t, int64_t> rank_of_input;
  auto outcome =
      LoadEachTrace({dir.path() + "/run"}, options, [&](size_t i, model::Trace t, unsigned) {
        if (t.info.rank == 2) return InvalidInput("rank2.json: refused by the consumer");
        std::lock_guard<std::mutex> lock(mutex);
        rank_of_input[i] = t.info.rank.value_or(-1);
        return Status::Ok();
      });
  ASSERT_TRUE(outcome.ok()) << outcome.status().message();
  std::vector<int64_t> ranks;
  for (size_t i : outcome->consumed) ranks.push_back(rank_of_input.at(i));
  EXPECT_EQ(ranks, (std::vector<int64_t>{0, 1, 3}));
  ASSERT_EQ(outcome->failed.size(), 1u);
  ASSERT_EQ(outcome->warnings.size(), 1u);
  EXPECT_EQ(outcome->warnings[0],
            "rank 2 skipped: rank2.json: refused by the consumer (the other 3 inputs were loaded)");
}

INSTANTIATE_TEST_SUITE_P(Threads, LoadEachTraceTest, ::testing::Values(1u, 2u),
                         [](const auto& p) { return "Threads" + std::to_string(p.param); });

// A consumer that throws (the analysis running out of memory on a loader
// thread) fails the load with a Status; the process is not terminated.
TEST(LoadEachTraceTest, AConsumerThatThrowsFailsTheLoad) {
  perfdx::testing::TempDir dir;
  const std::string good = perfdx::testing::ReadFileOrDie("tests/data/healthy_gpu_trace.json");
  const std::string path = dir.Write("run/rank0.json", good);
  dir.Write("run/rank1.json", good);
  LoadOptions options;
  options.threads = 2;
  auto outcome =
      LoadEachTrace({dir.path() + "/run"}, options, [&](size_t, model::Trace t, unsigned) {
        if (t.info.rank == 0) throw std::bad_alloc();
        return Status::Ok();
      });
  ASSERT_FALSE(outcome.ok());
  EXPECT_EQ(outcome.status().code(), StatusCode::kOutOfMemory);
  EXPECT_EQ(outcome.status().message(), path + ": an allocation failed while loading it");
}

// The progress hook (issue #14): bytes of each input as they are read, at
// most one call per kProgressBytes, then one call when the input is done.
class ProgressTest : public ::testing::TestWithParam<unsigned> {};

TEST_P(ProgressTest, ReportsBytesReadPerInputThenDone) {
  // Two ranks of about 10 MiB each: 120,000 events of ~90 bytes.
  std::string json = R"({"traceEvents": [)";
  for (int i = 0; i < 120000; ++i) {
    json +=
        fmt::format(R"({{"ph": "X", "name": "op_{}", "pid": 1, "tid": 1, "ts": {}, "dur": 5}},)",
                    i % 100, 10 * i);
    json += "\n";
  }
  json += R"({"ph": "X", "name": "last", "pid": 1, "tid": 1, "ts": 1, "dur": 1}]})";
  perfdx::testing::TempDir dir;
  const std::string rank0 = dir.Write("run/rank0.json", json);
  const std::string rank1 = dir.Write("run/rank1.json", json);
  const uint64_t size = std::filesystem::file_size(rank0);
  ASSERT_GT(size, 2 * kProgressBytes);

  std::mutex mutex;
  std::vector<LoadProgress> calls;
  std::vector<std::string> paths;
  LoadOptions options;
  options.threads = GetParam();
  options.progress = [&](const LoadProgress& p) {
    std::lock_guard<std::mutex> lock(mutex);
    calls.push_back(p);
    paths.emplace_back(p.path);
  };
  auto loaded = LoadTraces({dir.path() + "/run"}, options);
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  ASSERT_EQ(loaded->traces.size(), 2u);

  for (size_t input = 0; input < 2; ++input) {
    uint64_t last = 0;
    size_t reads = 0;
    size_t done = 0;
    for (size_t k = 0; k < calls.size(); ++k) {
      const LoadProgress& p = calls[k];
      EXPECT_EQ(p.inputs, 2u);
      if (p.input != input) continue;
      EXPECT_EQ(paths[k], input == 0 ? rank0 : rank1);
      if (p.done) {
        ++done;
        continue;
      }
      EXPECT_EQ(done, 0u) << "a byte count after done";
      EXPECT_EQ(p.bytes_total, size);
      EXPECT_LE(p.bytes_read, size);
      EXPECT_GE(p.bytes_read, last + kProgressBytes);
      last = p.bytes_read;
      ++reads;
    }
    EXPECT_EQ(done, 1u) << "input " << input;
    // About 10 MiB in 4 MiB steps: 2 calls (the parser reads 8 MiB chunks).
    EXPECT_GE(reads, 1u) << "input " << input;
    EXPECT_LE(reads, size / kProgressBytes) << "input " << input;
  }
}

INSTANTIATE_TEST_SUITE_P(Threads, ProgressTest, ::testing::Values(1u, 2u),
                         [](const auto& p) { return "Threads" + std::to_string(p.param); });

TEST(ImportGuardedTest, BadAllocBecomesOutOfMemory) {
  auto r = ImportGuarded("x/rank3.json", []() -> Result<model::Trace> { throw std::bad_alloc(); });
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kOutOfMemory);
  EXPECT_EQ(r.status().message(), "x/rank3.json: an allocation failed while loading it");
}

TEST(ImportGuardedTest, OtherExceptionsAreInternal) {
  auto r = ImportGuarded(
      "y.json", []() -> Result<model::Trace> { throw std::length_error("vector::reserve"); });
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInternal);
  EXPECT_EQ(r.status().message(), "y.json: unexpected exception while loading it: vector::reserve");
  auto thrown_int = ImportGuarded("z.json", []() -> Result<model::Trace> { throw 7; });
  ASSERT_FALSE(thrown_int.ok());
  EXPECT_EQ(thrown_int.status().code(), StatusCode::kInternal);
}

TEST(ImportGuardedTest, ResultsPassThrough) {
  auto failed = ImportGuarded("a.json", []() -> Result<model::Trace> { return NotFound("gone"); });
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(failed.status().message(), "gone");
}

}  // namespace
}  // namespace perfdx::formats
