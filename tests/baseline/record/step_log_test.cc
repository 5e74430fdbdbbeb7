#include "perfdx/baseline/record/step_log.h"

#include <gtest/gtest.h>

#include "perfdx/baseline/record/run_input.h"
#include "test_support.h"

namespace perfdx::baseline {
namespace {

TEST(StepLog, ReadsStepsSamplesPhasesAndMeta) {
  const std::string log =
      "{\"perfdx_step_log\": 1, \"meta\": {\"model\": \"resnet50\", \"host\": \"node7\", "
      "\"batch\": 256}}\n"
      "{\"step\": 10, \"step_time_s\": 0.2041, \"samples\": 256}\n"
      "\n"
      "{\"step\": 11, \"step_time_s\": 0.1527, \"samples\": 256, \"loss\": 2.3,"
      " \"phases_s\": {\"forward\": 0.05, \"data\": 0.011}}\n";
  auto r = ParseStepLog(log, "steps.jsonl");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->source, RunSource::kStepLog);
  ASSERT_EQ(r->steps.size(), 2u);
  EXPECT_EQ(r->steps[0].id, 10);
  EXPECT_EQ(r->steps[0].dur_ns, 204100000);
  EXPECT_EQ(r->steps[0].samples, 256);
  EXPECT_EQ(r->steps[1].dur_ns, 152700000);
  ASSERT_EQ(r->steps[1].phases_ns.size(), 2u);  // sorted by phase name
  EXPECT_EQ(r->steps[1].phases_ns[0], (std::pair<std::string, int64_t>{"data", 11000000}));
  EXPECT_EQ(r->steps[1].phases_ns[1], (std::pair<std::string, int64_t>{"forward", 50000000}));
  EXPECT_EQ(r->host, "node7");
  const std::vector<std::pair<std::string, std::string>> tags = {{"batch", "256"},
                                                                 {"model", "resnet50"}};
  EXPECT_EQ(r->tags, tags);
  EXPECT_FALSE(r->items_complete);
  EXPECT_EQ(r->metrics.at("step_time_median_ns"), (204100000 + 152700000) / 2);
  EXPECT_DOUBLE_EQ(r->metrics.at("throughput_median"), (256 / 0.2041 + 256 / 0.1527) / 2);
  EXPECT_EQ(r->metrics.at("phase_data_ns"), 11000000 / 2.0);  // mean over both steps
}

// Issue #17: a step log saved with a UTF-8 byte-order mark was "not JSON".
TEST(StepLog, ALeadingByteOrderMarkIsSkipped) {
  const std::string log = "\xEF\xBB\xBF{\"perfdx_step_log\": 1}\n{\"step_time_ms\": 20}\n";
  EXPECT_TRUE(LooksLikeStepLog(log));
  auto r = ParseStepLog(log, "bom.jsonl");
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->steps.size(), 1u);
  EXPECT_EQ(r->steps[0].dur_ns, 20000000);
  // Only at the start: a BOM inside is still not JSON.
  EXPECT_FALSE(
      ParseStepLog("{\"step_time_ms\": 20}\n\xEF\xBB\xBF{\"step_time_ms\": 20}\n", "l").ok());
}

TEST(StepLog, UnitsDefaultIdsAndThroughput) {
  const std::string log =
      "{\"step_time_ms\": 20}\n"
      "{\"step_time_ns\": 30000000, \"throughput\": 1000}\n"
      "{\"step_time_s\": 0.04}\n";
  auto r = ParseStepLog(log, "l");
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->steps.size(), 3u);
  EXPECT_EQ(r->steps[0].id, 0);
  EXPECT_EQ(r->steps[2].id, 2);
  EXPECT_EQ(r->steps[0].dur_ns, 20000000);
  EXPECT_EQ(r->steps[1].dur_ns, 30000000);
  EXPECT_DOUBLE_EQ(r->steps[1].samples, 30.0);  // 1000 samples/s for 30 ms
  EXPECT_EQ(r->steps[2].dur_ns, 40000000);
}

TEST(StepLog, LastLineCutShortIsSkippedWithANote) {
  auto r = ParseStepLog("{\"step_time_s\": 0.1}\n{\"step_time_s\": 0.2}\n{\"step_ti", "l.jsonl");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->steps.size(), 2u);
  ASSERT_EQ(r->notes.size(), 1u);
  EXPECT_NE(r->notes[0].find("line 3"), std::string::npos) << r->notes[0];
}

TEST(StepLog, MalformedLinesAreErrorsNamingTheLine) {
  struct Case {
    std::string text;
    std::string expect;
  };
  const Case cases[] = {
      {"{\"step_time_s\": 0.1}\n{\"step_ti\n{\"step_time_s\": 0.1}\n", "l.jsonl: line 2: not JSON"},
      {"{\"step_time_s\": 0.1}\n{\"loss\": 2}\n", "l.jsonl: line 2: no step_time_s"},
      {"{\"step_time_s\": -1}\n", "out of range"},
      {"{\"step_time_s\": 0}\n", "must be positive"},
      {"{\"step_time_s\": \"fast\"}\n", "not a number"},
      {"{\"step_time_s\": 0.1, \"step_time_ms\": 100}\n", "more than one"},
      {"{\"step_time_s\": 0.1, \"step\": 1.5}\n", "\"step\" is not an integer"},
      {"[1, 2]\n", "not a JSON object"},
      {"{\"perfdx_step_log\": 1}\n", "no steps"},
      {"", "no steps"},
      {"{\"perfdx_step_log\": 9}\n{\"step_time_s\": 0.1}\n", "newer than this perfdx reads"},
  };
  for (const Case& c : cases) {
    auto r = ParseStepLog(c.text, "l.jsonl");
    ASSERT_FALSE(r.ok()) << c.text;
    EXPECT_NE(r.status().message().find(c.expect), std::string::npos) << r.status().message();
  }
}

TEST(StepLog, Sniffing) {
  EXPECT_TRUE(LooksLikeStepLog("\n  {\"step\": 0, \"step_time_s\": 0.1}\n"));
  EXPECT_TRUE(LooksLikeStepLog("{\"perfdx_step_log\": 1}\n"));
  EXPECT_FALSE(LooksLikeStepLog("{\"traceEvents\": [{\"name\": \"step_time_s\"}]}"));
  EXPECT_FALSE(LooksLikeStepLog("[{\"ph\": \"X\"}]"));
}

TEST(RunInput, SniffsEachKindOfInput) {
  testing::TempDir dir;
  const std::string log = dir.Write("run.txt", "{\"step_time_s\": 0.1}\n");
  const std::string jsonl = dir.Write("run.jsonl", "");
  const std::string report = dir.Write("report.json", "{\n \"ranks\": []}\n");
  const std::string trace = dir.Write("trace.json", "{\"traceEvents\": []}");
  EXPECT_EQ(*SniffInput(log), InputFormat::kStepLog);
  EXPECT_EQ(*SniffInput(jsonl), InputFormat::kStepLog);
  EXPECT_EQ(*SniffInput(report), InputFormat::kReport);
  EXPECT_EQ(*SniffInput(trace), InputFormat::kTrace);
  EXPECT_EQ(*SniffInput(dir.path()), InputFormat::kTrace);
  EXPECT_EQ(SniffInput(dir.path() + "/missing").status().code(), StatusCode::kNotFound);
}

TEST(RunInput, StepLogGetsProvenanceAndWarmup) {
  testing::TempDir dir;
  const std::string path = dir.Write(
      "run.jsonl", "{\"step_time_s\": 1.0}\n{\"step_time_s\": 0.1}\n{\"step_time_s\": 0.3}\n");
  RunInputOptions options;
  options.warmup_steps = 1;
  auto r = LoadRunInput(path, options);
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->steps.size(), 2u);
  EXPECT_EQ(r->metrics.at("step_time_median_ns"), 200000000);  // (0.1 + 0.3) / 2 s
  EXPECT_EQ(r->input_path, path);
  EXPECT_FALSE(r->perfdx_version.empty());
  EXPECT_FALSE(r->host.empty());
  EXPECT_GT(r->created_unix_s, 0);
  EXPECT_EQ(r->fingerprint.rfind("fnv1a64:", 0), 0u);
  options.warmup_steps = 3;
  EXPECT_FALSE(LoadRunInput(path, options).ok());
}

TEST(RunInput, FingerprintIsFnv1a64) {
  testing::TempDir dir;
  // FNV-1a 64 reference values: "" -> cbf29ce484222325, "a" -> af63dc4c8601ec8c.
  EXPECT_EQ(*FingerprintFile(dir.Write("empty", "")), "fnv1a64:cbf29ce484222325");
  EXPECT_EQ(*FingerprintFile(dir.Write("a", "a")), "fnv1a64:af63dc4c8601ec8c");
}

}  // namespace
}  // namespace perfdx::baseline
