// `perfdx annotate` (issue #14 item 3) on real traces: the original bytes all
// kept, in order, around one insertion; the added events are what the
// analysis found (counted from the analyze report, not from the annotation
// code); perfdx reads the result back with its tracks, and analyses it as
// it analyses the original.
#include "perfdx/pipeline/annotate.h"

#include <algorithm>
#include <string>
#include <string_view>

#include <gtest/gtest.h>
#include <simdjson.h>

#include "perfdx/io/byte_source.h"
#include "perfdx/report/analyze_report.h"
#include "test_support.h"

namespace perfdx::pipeline {
namespace {

std::string Decompressed(const std::string& path) {
  auto source = io::OpenByteSource(path);
  EXPECT_TRUE(source.ok()) << source.status().message();
  return *io::ReadAll(**source, uint64_t{1} << 32);
}

// The trace's events with "cat": "perfdx", and all of its events.
struct Counted {
  size_t perfdx = 0;
  size_t events = 0;
  size_t gaps = 0;  // on the "idle gaps" thread (tid 1)
};
Counted CountEvents(const std::string& json) {
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  EXPECT_EQ(parser.parse(json).get(doc), simdjson::SUCCESS);
  simdjson::dom::array events;
  if (doc.is_array()) {
    events = doc.get_array().value();
  } else {
    EXPECT_EQ(doc["traceEvents"].get_array().get(events), simdjson::SUCCESS);
  }
  Counted c;
  for (simdjson::dom::element e : events) {
    ++c.events;
    std::string_view cat;
    if (e["cat"].get_string().get(cat) == simdjson::SUCCESS && cat == "perfdx") {
      ++c.perfdx;
      int64_t tid = 0;
      if (e["tid"].get_int64().get(tid) == simdjson::SUCCESS && tid == 1) ++c.gaps;
    }
  }
  return c;
}

// The args of the first added event of `rule`'s finding: its prediction's
// step time, -1 where it has none.
int64_t PredictedStepNs(const std::string& json, std::string_view rule) {
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  EXPECT_EQ(parser.parse(json).get(doc), simdjson::SUCCESS);
  for (simdjson::dom::element e : doc["traceEvents"].get_array()) {
    std::string_view cat, name;
    if (e["cat"].get_string().get(cat) != simdjson::SUCCESS || cat != "perfdx") continue;
    if (e["args"]["rule"].get_string().get(name) != simdjson::SUCCESS || name != rule) continue;
    int64_t ns = -1;
    EXPECT_EQ(e["args"]["predicted_step_ns"].get_int64().get(ns), simdjson::SUCCESS);
    return ns;
  }
  return -1;
}

// All of `original`'s bytes, in order, with one run inserted: the common
// prefix and suffix cover the whole original.
void ExpectOneInsertion(const std::string& original, const std::string& annotated) {
  ASSERT_GT(annotated.size(), original.size());
  const size_t prefix =
      std::mismatch(original.begin(), original.end(), annotated.begin()).first - original.begin();
  const size_t suffix =
      std::mismatch(original.rbegin(), original.rend(), annotated.rbegin()).first -
      original.rbegin();
  EXPECT_GE(prefix + suffix, original.size()) << "prefix " << prefix << ", suffix " << suffix;
}

AnnotateRequest RequestFor(const std::string& path) {
  AnnotateRequest request;
  request.analyze.paths = {path};
  return request;
}

TEST(Annotate, AKinetoTraceKeepsItsBytesAndGainsTheAnalysisTracks) {
  PERFDX_REQUIRE_SHARED();
  const std::string path = perfdx::testing::SharedPath(
      "traces/kineto/tbp/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz");
  auto annotated = AnnotateTrace(RequestFor(path));
  ASSERT_TRUE(annotated.ok()) << annotated.status().message();
  EXPECT_EQ(annotated->trace_path, path);
  const std::string original = Decompressed(path);
  ExpectOneInsertion(original, annotated->bytes);

  // What was added, against the analyze report of the same trace.
  AnalyzeRequest analyze;
  analyze.paths = {path};
  auto report = BuildAnalyzeReport(analyze);
  ASSERT_TRUE(report.ok());
  const analysis::RankAnalysis& a = report->ranks[0].analysis;
  const Counted before = CountEvents(original);
  const Counted after = CountEvents(annotated->bytes);
  EXPECT_EQ(before.perfdx, 0u);
  EXPECT_EQ(after.gaps, a.gaps.gaps.size());
  EXPECT_GT(after.gaps, 0u);
  size_t stalls = 0;
  for (const analysis::Gap& g : a.gaps.gaps) stalls += g.cause.kind == "data_loader";
  size_t ranges = 0;
  for (const advisor::Finding& f : report->ranks[0].findings) ranges += f.evidence.ranges.size();
  EXPECT_EQ(after.perfdx, a.gaps.gaps.size() + stalls +
                              a.activity.communication_exposed.intervals().size() + ranges);
  // Metadata: the process, its sort index, three threads, one per finding with ranges.
  EXPECT_GT(after.events, before.events + after.perfdx + 4);
  // A finding's events carry its replayed prediction, as the report does.
  const advisor::Finding* stall = nullptr;
  for (const advisor::Finding& f : report->ranks[0].findings) {
    if (f.rule == "data_loader_stall") stall = &f;
  }
  ASSERT_NE(stall, nullptr);
  ASSERT_TRUE(stall->prediction.available);
  ASSERT_FALSE(stall->evidence.ranges.empty());
  EXPECT_EQ(PredictedStepNs(annotated->bytes, "data_loader_stall"),
            stall->prediction.predicted_step_ns);

  // perfdx reads it back: the added tracks are there, kept out of the analysis.
  perfdx::testing::TempDir dir;
  const std::string file = dir.Write("annotated.json", annotated->bytes);
  auto back = perfdx::testing::ImportFile(file);
  ASSERT_TRUE(back.ok()) << back.status().message();
  size_t perfdx_tracks = 0;
  for (const model::Track& t : back->tracks) {
    if (back->str(t.process_name).starts_with("perfdx")) {
      ++perfdx_tracks;
      EXPECT_EQ(t.kind, model::TrackKind::kProfilerInternal) << back->str(t.thread_name);
    }
  }
  EXPECT_GE(perfdx_tracks, 3u);
  AnalyzeRequest again;
  again.paths = {file};
  auto reanalysed = BuildAnalyzeReport(again);
  ASSERT_TRUE(reanalysed.ok());
  std::string json_before = report::RenderAnalyzeJson(*report);
  std::string json_after = report::RenderAnalyzeJson(*reanalysed);
  // Only the path differs (the gaps, steps, kernels and findings are the same).
  auto unpath = [](std::string s, const std::string& p) {
    for (size_t at = s.find(p); at != std::string::npos; at = s.find(p, at))
      s.replace(at, p.size(), "P");
    return s;
  };
  EXPECT_EQ(unpath(json_before, path), unpath(json_after, file));

  // gzip'd on request, to the same bytes.
  AnnotateRequest gz = RequestFor(path);
  gz.gzip = true;
  auto compressed = AnnotateTrace(gz);
  ASSERT_TRUE(compressed.ok());
  ASSERT_GE(compressed->bytes.size(), 2u);
  EXPECT_EQ(static_cast<unsigned char>(compressed->bytes[0]), 0x1f);
  EXPECT_EQ(static_cast<unsigned char>(compressed->bytes[1]), 0x8b);
  auto source = io::OpenMemoryByteSource(compressed->bytes, "annotated.json.gz");
  ASSERT_TRUE(source.ok());
  EXPECT_EQ(*io::ReadAll(**source, uint64_t{1} << 32), annotated->bytes);
}

TEST(Annotate, AnAscendTraceViewInTheArrayFormat) {
  PERFDX_REQUIRE_SHARED();
  const std::string profile =
      perfdx::testing::SharedPath("traces/ascend/torch_npu_2rank_text_level1/rank0_ascend_pt");
  auto annotated = AnnotateTrace(RequestFor(profile));
  ASSERT_TRUE(annotated.ok()) << annotated.status().message();
  EXPECT_TRUE(annotated->trace_path.ends_with("ASCEND_PROFILER_OUTPUT/trace_view.json"))
      << annotated->trace_path;
  const std::string original = Decompressed(annotated->trace_path);
  ExpectOneInsertion(original, annotated->bytes);
  const Counted after = CountEvents(annotated->bytes);
  EXPECT_EQ(after.events - CountEvents(original).events - after.perfdx >= 4, true);
  EXPECT_GT(after.perfdx, 0u);
}

TEST(Annotate, InputsWithoutOneChromeTraceAreRefusedSayingWhatToPass) {
  PERFDX_REQUIRE_SHARED();
  auto db = AnnotateTrace(RequestFor(
      perfdx::testing::SharedPath("traces/ascend/torch_npu_2rank_db_level0/rank0_ascend_pt")));
  ASSERT_FALSE(db.ok());
  EXPECT_EQ(db.status().code(), StatusCode::kUnsupported);
  EXPECT_NE(db.status().message().find("export the profile as text"), std::string::npos)
      << db.status().message();
  auto job = AnnotateTrace(
      RequestFor(perfdx::testing::SharedPath("traces/ascend/torch_npu_2rank_text_level0")));
  ASSERT_FALSE(job.ok());
  EXPECT_NE(job.status().message().find("holds 2"), std::string::npos) << job.status().message();
}

}  // namespace
}  // namespace perfdx::pipeline
