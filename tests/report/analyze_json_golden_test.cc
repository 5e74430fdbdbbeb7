// The analyze JSON of a small hand-made trace (issue 9, item 6), against its
// committed golden and against numbers computed by hand from the trace.
//
// tests/data/golden/small_cuda_trace.json, in µs (Kineto's unit):
//   step 0 [0, 10000), step 1 [10000, 20000), step 2 [20000, 42000) (slow).
//   In each step, with w = the step's end − 6000:
//     DataLoader __next__   [t0, w−100)   3900 (steps 0, 1), 15900 (step 2)
//     aten::copy_           [w−100, w+400); cudaMemcpyAsync [w−50, w+350)
//     Memcpy HtoD Pageable  [w, w+500)          device, 500
//     aten::mm              launch at w+420;  volta_sgemm [w+500, w+3500)   3000
//     aten::add_            launch at w+520;  add kernel  [w+3500, w+5000)  1500
//     aten::relu            launch at w+620;  relu kernel [w+5000, w+6000)  1000
//   So the device works [w, t0+D): 6000 per step, of which 5500 compute.
//
// Hand values (ns):
//   breakdown per step: kernel 5 500 000 (w+500..end), memcpy 500 000,
//     runtime 50 000 (cudaMemcpyAsync before the copy starts: w−50..w),
//     dataloader 3 900 000 / 15 900 000, cpu_exec 50 000 (copy_ w−100..w−50),
//     other 0; the parts sum to dur_ns 10 000 000 / 22 000 000.
//   device_ns: computing 5 500 000, free 0 (kernels back to back), trailing 0,
//     preparing = first kernel − step start = 4 500 000 / 16 500 000.
//   summary over W = 42 ms: device_utilization 18/42, device_compute_share
//     16.5/42, idle 24/42, memcpy = h2d_pageable 1.5/42, framework_overhead
//     3 × 0.1 / 42 (copy_ w−100..w, outside data loading and device work),
//     dataloader_stall (3.9 + 3.9 + 15.9) / 42 = 23.7/42.
//   ops by device time: mm 9, add_ 4.5, relu 3, copy_ 1.5 ms (sum 18):
//     top1 9/18 = 0.5, top3 16.5/18 = 11/12 (top2 would be 0.75).
//   kernels (share of 18 ms device work): sgemm 9 ms 0.5, add 4.5 ms 0.25,
//     relu 3 ms 1/6, memcpy 1.5 ms 1/12; fp32_matrix 9 ms.
//   gaps: [0, 4 ms) step 0 start, [10, 14 ms) step 1 start, [20, 36 ms)
//     step 2 (midpoint 8 of 22 ms: middle); data loader covers 3.9/4, 15.9/16.
//   data_loader_stall gain: 23.7 ms / 3 steps = 7 900 000 ns per step, share
//     7.9 / 14 (mean step 14 ms).
//
// Regenerate the golden (then check the hand values still hold):
//   build/release/src/perfdx/perfdx analyze tests/data/golden/small_cuda_trace.json
//     --format json -o tests/data/golden/small_cuda_trace.analyze.json  (one line)
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

#include <gtest/gtest.h>
#include <simdjson.h>

#include "perfdx/pipeline/analyze.h"
#include "perfdx/report/analyze_report.h"
#include "test_support.h"

namespace perfdx::report {
namespace {

constexpr char kTrace[] = "tests/data/golden/small_cuda_trace.json";
constexpr char kGolden[] = "tests/data/golden/small_cuda_trace.analyze.json";
constexpr char kRegenerate[] =
    "build/release/src/perfdx/perfdx analyze tests/data/golden/small_cuda_trace.json --format json "
    "-o tests/data/golden/small_cuda_trace.analyze.json";

bool NearlyEqual(double a, double b) {
  return a == b || std::fabs(a - b) <= 1e-9 * std::max(std::fabs(a), std::fabs(b));
}

bool IsNumber(const simdjson::dom::element& e) {
  return e.is_int64() || e.is_uint64() || e.is_double();
}

// The path of the first difference between two JSON values ("" when none):
// every key of one must be in the other, numbers equal within 1e-9 relative.
std::string FirstDifference(const simdjson::dom::element& a, const simdjson::dom::element& b,
                            const std::string& path) {
  if (IsNumber(a) && IsNumber(b)) {
    return NearlyEqual(double(a.get_double().value_unsafe()), double(b.get_double().value_unsafe()))
               ? ""
               : path;
  }
  if (a.type() != b.type()) return path + " (type)";
  switch (a.type()) {
    case simdjson::dom::element_type::OBJECT: {
      simdjson::dom::object oa = a.get_object().value_unsafe();
      simdjson::dom::object ob = b.get_object().value_unsafe();
      for (auto field : oa) {
        simdjson::dom::element other;
        const std::string key(field.key);
        if (ob.at_key(field.key).get(other) != simdjson::SUCCESS)
          return path + "/" + key + " (missing in one)";
        std::string d = FirstDifference(field.value, other, path + "/" + key);
        if (!d.empty()) return d;
      }
      for (auto field : ob) {
        simdjson::dom::element other;
        if (oa.at_key(field.key).get(other) != simdjson::SUCCESS)
          return path + "/" + std::string(field.key) + " (missing in one)";
      }
      return "";
    }
    case simdjson::dom::element_type::ARRAY: {
      simdjson::dom::array xa = a.get_array().value_unsafe();
      simdjson::dom::array xb = b.get_array().value_unsafe();
      if (xa.size() != xb.size()) return path + " (length)";
      for (size_t i = 0; i < xa.size(); ++i) {
        std::string d = FirstDifference(xa.at(i).value_unsafe(), xb.at(i).value_unsafe(),
                                        path + "/" + std::to_string(i));
        if (!d.empty()) return d;
      }
      return "";
    }
    case simdjson::dom::element_type::STRING:
      return a.get_string().value_unsafe() == b.get_string().value_unsafe() ? "" : path;
    case simdjson::dom::element_type::BOOL:
      return a.get_bool().value_unsafe() == b.get_bool().value_unsafe() ? "" : path;
    default:
      return "";  // null == null
  }
}

std::string RenderGoldenTrace() {
  pipeline::AnalyzeRequest request;
  request.paths = {kTrace};
  auto r = pipeline::BuildAnalyzeReport(request);
  EXPECT_TRUE(r.ok()) << r.status().message();
  return r.ok() ? RenderAnalyzeJson(*r) : std::string("{}");
}

class AnalyzeJsonGolden : public ::testing::Test {
 protected:
  void SetUp() override {
    json_ = RenderGoldenTrace();
    ASSERT_EQ(parser_.parse(json_).get(doc_), simdjson::SUCCESS);
  }
  double At(const std::string& pointer) {
    simdjson::dom::element e;
    EXPECT_EQ(doc_.at_pointer(pointer).get(e), simdjson::SUCCESS) << pointer;
    double v = 0;
    EXPECT_EQ(e.get_double().get(v), simdjson::SUCCESS) << pointer;
    return v;
  }
  std::string Str(const std::string& pointer) {
    std::string_view v;
    EXPECT_EQ(doc_.at_pointer(pointer).get_string().get(v), simdjson::SUCCESS) << pointer;
    return std::string(v);
  }
  // The finding of `rule` (one at most in this trace), or null.
  std::optional<simdjson::dom::element> FindingOf(std::string_view rule) {
    simdjson::dom::array findings;
    EXPECT_EQ(doc_.at_pointer("/findings").get_array().get(findings), simdjson::SUCCESS);
    for (simdjson::dom::element f : findings) {
      std::string_view r;
      EXPECT_EQ(f["rule"].get_string().get(r), simdjson::SUCCESS);
      if (r == rule) return f;
    }
    return std::nullopt;
  }
  std::string json_;
  simdjson::dom::parser parser_;
  simdjson::dom::element doc_;
};

TEST_F(AnalyzeJsonGolden, MatchesTheCommittedGoldenKeyByKey) {
  simdjson::dom::parser golden_parser;
  simdjson::dom::element golden;
  const std::string text = perfdx::testing::ReadFileOrDie(kGolden);
  ASSERT_EQ(golden_parser.parse(text).get(golden), simdjson::SUCCESS);
  const std::string diff = FirstDifference(doc_, golden, "");
  EXPECT_EQ(diff, "") << "the analyze JSON differs from " << kGolden << " first at " << diff
                      << "; if the change is meant, regenerate it with\n  " << kRegenerate
                      << "\nand check the hand values in " << __FILE__;
}

TEST_F(AnalyzeJsonGolden, StepsAsComputedByHand) {
  const double dur[] = {10e6, 10e6, 22e6};
  const double loader[] = {3.9e6, 3.9e6, 15.9e6};
  for (int s = 0; s < 3; ++s) {
    const std::string p = "/ranks/0/steps/" + std::to_string(s);
    EXPECT_EQ(At(p + "/id"), s);
    EXPECT_EQ(At(p + "/dur_ns"), dur[s]);
    EXPECT_EQ(At(p + "/breakdown_ns/kernel"), 5.5e6);
    EXPECT_EQ(At(p + "/breakdown_ns/memcpy"), 0.5e6);
    EXPECT_EQ(At(p + "/breakdown_ns/memset"), 0);
    EXPECT_EQ(At(p + "/breakdown_ns/communication"), 0);
    EXPECT_EQ(At(p + "/breakdown_ns/runtime"), 50e3);
    EXPECT_EQ(At(p + "/breakdown_ns/dataloader"), loader[s]);
    EXPECT_EQ(At(p + "/breakdown_ns/cpu_exec"), 50e3);
    EXPECT_EQ(At(p + "/breakdown_ns/other"), 0);
    // The shares the text report's step table prints: each category / the step.
    EXPECT_DOUBLE_EQ(At(p + "/breakdown_share/kernel"), 5.5e6 / dur[s]);
    EXPECT_DOUBLE_EQ(At(p + "/breakdown_share/dataloader"), loader[s] / dur[s]);
    EXPECT_DOUBLE_EQ(At(p + "/breakdown_share/memcpy"), 0.5e6 / dur[s]);
    EXPECT_EQ(At(p + "/breakdown_share/other"), 0);
    EXPECT_EQ(At(p + "/device_ns/computing"), 5.5e6);
    EXPECT_EQ(At(p + "/device_ns/free"), 0);
    EXPECT_EQ(At(p + "/device_ns/preparing"), dur[s] - 5.5e6);
    EXPECT_EQ(At(p + "/device_ns/trailing"), 0);
  }
}

TEST_F(AnalyzeJsonGolden, SummaryAsComputedByHand) {
  EXPECT_EQ(At("/ranks/0/window_ns"), 42e6);
  const std::string s = "/ranks/0/summary/";
  EXPECT_DOUBLE_EQ(At(s + "device_utilization"), 18.0 / 42);
  EXPECT_DOUBLE_EQ(At(s + "device_compute_share"), 16.5 / 42);
  EXPECT_DOUBLE_EQ(At(s + "idle_share"), 24.0 / 42);
  EXPECT_DOUBLE_EQ(At(s + "memcpy_share"), 1.5 / 42);
  EXPECT_DOUBLE_EQ(At(s + "h2d_pageable_share"), 1.5 / 42);
  EXPECT_EQ(At(s + "h2d_pinned_share"), 0);
  EXPECT_DOUBLE_EQ(At(s + "framework_overhead_share"), 0.3 / 42);
  EXPECT_DOUBLE_EQ(At(s + "dataloader_stall_share"), 23.7 / 42);
  EXPECT_EQ(At(s + "comm_share"), 0);
  EXPECT_DOUBLE_EQ(At(s + "top1_op_share"), 0.5);
  // 4 operators: mm 9, add_ 4.5, relu 3, copy_ 1.5 ms. Top 3 = 16.5 / 18
  // (the top 2 would be 0.75, the top 4 1).
  EXPECT_DOUBLE_EQ(At(s + "top3_op_share"), 16.5 / 18);
  for (int k = 0; k < 3; ++k) {
    EXPECT_DOUBLE_EQ(At("/ranks/0/steps/" + std::to_string(k) + "/health/top3_op_share"),
                     16.5 / 18);
  }
  EXPECT_EQ(At(s + "step_time_ns/mean"), 14e6);
  EXPECT_EQ(At(s + "step_time_ns/median"), 10e6);
  // HTA's temporal breakdown over the 42 ms span: idle 24, compute 16.5,
  // non-compute (the 1.5 ms of copies) 1.5.
  EXPECT_DOUBLE_EQ(At("/ranks/0/temporal_breakdown_share/idle"), 24.0 / 42);
  EXPECT_DOUBLE_EQ(At("/ranks/0/temporal_breakdown_share/compute"), 16.5 / 42);
  EXPECT_DOUBLE_EQ(At("/ranks/0/temporal_breakdown_share/non_compute"), 1.5 / 42);
}

TEST_F(AnalyzeJsonGolden, KernelsAndOpsAsComputedByHand) {
  EXPECT_EQ(At("/ranks/0/kernel_totals_ns/device_work"), 18e6);
  EXPECT_EQ(At("/ranks/0/kernel_totals_ns/fp32_matrix"), 9e6);
  // The sgemm (9 ms) is all the matrix work, in FP32, of 18 ms of device work.
  EXPECT_DOUBLE_EQ(At("/ranks/0/kernel_shares/matrix"), 0.5);
  EXPECT_DOUBLE_EQ(At("/ranks/0/kernel_shares/fp32_matrix"), 0.5);
  EXPECT_EQ(At("/ranks/0/kernel_shares/layout_conversion"), 0);
  EXPECT_EQ(At("/ranks/0/kernel_shares/tensor_core"), 0);  // the sgemm is FP32 SIMT
  const char* names[] = {"volta_sgemm_128x64_nn", nullptr, nullptr,
                         "Memcpy HtoD (Pageable -> Device)"};
  const double totals[] = {9e6, 4.5e6, 3e6, 1.5e6};
  for (int k = 0; k < 4; ++k) {
    const std::string p = "/ranks/0/kernels/" + std::to_string(k);
    if (names[k] != nullptr) {
      EXPECT_EQ(Str(p + "/name"), names[k]);
    }
    EXPECT_EQ(At(p + "/count"), 3);
    EXPECT_EQ(At(p + "/total_ns"), totals[k]);
    EXPECT_DOUBLE_EQ(At(p + "/share"), totals[k] / 18e6);
  }
  const char* ops[] = {"aten::mm", "aten::add_", "aten::relu", "aten::copy_"};
  for (int k = 0; k < 4; ++k) {
    const std::string p = "/ranks/0/ops/" + std::to_string(k);
    EXPECT_EQ(Str(p + "/name"), ops[k]);
    EXPECT_EQ(At(p + "/device_self_ns"), totals[k]);
  }
}

TEST_F(AnalyzeJsonGolden, GapsAsComputedByHand) {
  const double start[] = {0, 10e6, 20e6};
  const double dur[] = {4e6, 4e6, 16e6};
  const char* position[] = {"start", "start", "middle"};
  const double coverage[] = {3.9 / 4, 3.9 / 4, 15.9 / 16};
  simdjson::dom::array gaps;
  ASSERT_EQ(doc_.at_pointer("/ranks/0/gaps").get_array().get(gaps), simdjson::SUCCESS);
  ASSERT_EQ(gaps.size(), 3u);
  for (int k = 0; k < 3; ++k) {
    const std::string p = "/ranks/0/gaps/" + std::to_string(k);
    EXPECT_EQ(At(p + "/start_ns"), start[k]);
    EXPECT_EQ(At(p + "/dur_ns"), dur[k]);
    EXPECT_EQ(At(p + "/step"), k);
    EXPECT_EQ(Str(p + "/position"), position[k]);
    EXPECT_EQ(Str(p + "/cause/kind"), "data_loader");
    EXPECT_DOUBLE_EQ(At(p + "/cause/coverage"), coverage[k]);
  }
}

TEST_F(AnalyzeJsonGolden, DataLoaderStallGainAsComputedByHand) {
  const auto f = FindingOf("data_loader_stall");
  ASSERT_TRUE(f);
  EXPECT_EQ(double(f->at_pointer("/estimated_gain/ns_per_step").get_double().value()), 7.9e6);
  EXPECT_DOUBLE_EQ(double(f->at_pointer("/estimated_gain/share").get_double().value()), 7.9 / 14);
  EXPECT_EQ(std::string_view((*f)["severity"].get_string().value()), "critical");
}

// step_jitter (step 2 is 22 ms, the others 10): the device computes 5.5 ms
// in every step, so the idle time is the step less that, 4.5 ms (step 0,
// the first of the two least idle) to 16.5 ms (step 2); the DataLoader's
// wait grows by 15.9 − 3.9 = 12 ms between them, all of the 12 ms: the
// cause is named and no new profile is asked for.
TEST_F(AnalyzeJsonGolden, StepJitterAsComputedByHand) {
  const auto f = FindingOf("step_jitter");
  ASSERT_TRUE(f);
  const auto evidence = [&](const char* key) {
    return double(f->at_pointer(std::string("/evidence/") + key).get_double().value());
  };
  EXPECT_EQ(evidence("device_work_min_ns"), 5.5e6);
  EXPECT_EQ(evidence("device_work_max_ns"), 5.5e6);
  EXPECT_EQ(evidence("idle_min_ns"), 4.5e6);
  EXPECT_EQ(evidence("idle_max_ns"), 16.5e6);
  EXPECT_EQ(evidence("least_idle_step"), 0);
  EXPECT_EQ(evidence("most_idle_step"), 2);
  const std::string_view title = (*f)["title"].get_string().value();
  EXPECT_NE(title.find("most of the difference is the host waiting for the DataLoader"),
            std::string_view::npos)
      << title;
  EXPECT_EQ((*f)["recommendations"].get_array().value().size(), 0u);
}

TEST_F(AnalyzeJsonGolden, NoCollectivesGiveAnEmptySection) {
  // The hand-made trace has no collective: the section is there, empty.
  EXPECT_EQ(At("/ranks/0/collectives/count"), 0);
  EXPECT_EQ(At("/ranks/0/collectives/listed"), 0);
  for (const char* key : {"by_type", "transports", "window_transports", "longest"}) {
    simdjson::dom::array a;
    ASSERT_EQ(doc_.at_pointer(std::string("/ranks/0/collectives/") + key).get_array().get(a),
              simdjson::SUCCESS)
        << key;
    EXPECT_EQ(a.size(), 0u) << key;
  }
}

// The collectives section of a real Ascend profile against torch_npu's own
// communication.json (step 50, the profile's one step): the op count, and
// the HCCS totals of "Total Op Info" (sizes exact in bytes, time within the
// µs rounding, transfers = the size distribution's counts).
TEST(AnalyzeJsonCollectives, AscendSectionMatchesCommunicationJson) {
  PERFDX_REQUIRE_SHARED();
  const std::string profile =
      perfdx::testing::SharedPath("traces/ascend/torch_npu_2rank_text_level1");
  pipeline::AnalyzeRequest request;
  request.paths = {profile};
  auto r = pipeline::BuildAnalyzeReport(request);
  ASSERT_TRUE(r.ok()) << r.status().message();
  const std::string json = RenderAnalyzeJson(*r);
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  ASSERT_EQ(parser.parse(json).get(doc), simdjson::SUCCESS);
  simdjson::dom::array ranks;
  ASSERT_EQ(doc["ranks"].get_array().get(ranks), simdjson::SUCCESS);
  ASSERT_EQ(ranks.size(), 2u);
  for (simdjson::dom::element rank : ranks) {
    const int64_t id = rank["rank"].get_int64().value();
    SCOPED_TRACE(id);
    simdjson::dom::parser golden_parser;
    simdjson::dom::element golden;
    ASSERT_EQ(golden_parser
                  .load(profile + "/rank" + std::to_string(id) +
                        "_ascend_pt/ASCEND_PROFILER_OUTPUT/communication.json")
                  .get(golden),
              simdjson::SUCCESS);
    simdjson::dom::object ops;
    ASSERT_EQ(golden["step50"]["collective"].get_object().get(ops), simdjson::SUCCESS);
    uint64_t op_count = 0;
    for (auto field : ops) op_count += field.key != "Total Op Info";
    simdjson::dom::element hccs =
        golden.at_pointer("/step50/collective/Total Op Info/Communication Bandwidth Info/HCCS");
    const double size_mb = double(hccs["Transit Size(MB)"].get_double().value());
    const double time_ms = double(hccs["Transit Time(ms)"].get_double().value());
    uint64_t transfers = 0;
    simdjson::dom::object distribution;
    ASSERT_EQ(hccs["Size Distribution"].get_object().get(distribution), simdjson::SUCCESS);
    for (auto field : distribution) {
      transfers += uint64_t(field.value.at(0).get_int64().value());
    }

    simdjson::dom::element c = rank["collectives"];
    EXPECT_EQ(uint64_t(c["count"].get_uint64().value()), op_count);
    EXPECT_EQ(uint64_t(c["listed"].get_uint64().value()), op_count);  // under the cap of 50
    for (const char* key : {"transports", "window_transports"}) {
      SCOPED_TRACE(key);
      simdjson::dom::element t = c[key].at(0);
      EXPECT_EQ(std::string_view(t["transport"].get_string().value()), "HCCS");
      EXPECT_EQ(double(t["transit_bytes"].get_int64().value()), std::round(size_mb * 1e6));
      EXPECT_NEAR(double(t["transit_ns"].get_int64().value()), time_ms * 1e6, 50);
      EXPECT_EQ(uint64_t(t["transfers"].get_uint64().value()), transfers);
    }
    simdjson::dom::array longest;
    ASSERT_EQ(c["longest"].get_array().get(longest), simdjson::SUCCESS);
    for (simdjson::dom::element op : longest) {
      EXPECT_EQ(int64_t(op["step"].get_int64().value()), 50);
      EXPECT_TRUE(bool(op["in_window"].get_bool().value()));
      EXPECT_EQ(std::string_view(op["type"].get_string().value()), "allreduce");
    }
  }
}

}  // namespace
}  // namespace perfdx::report
