// Per-collective sizes, times and bandwidths (analysis/collectives.h)
// against the profiler's own numbers, read here and nowhere else:
//   text export: communication.json ("Communication Bandwidth Info" per
//     transport, "Communication Time Info"), parsed in this test;
//   DB export: analysis.db CommAnalyzerBandwidth / CommAnalyzerTime, by SQL.
// Plus NCCL message sizes and bandwidths on a Kineto trace, and RDMA runs
// by hand.
#include "perfdx/analysis/collectives.h"

#include <cmath>
#include <map>

#include <gtest/gtest.h>
#include <simdjson.h>

#include "perfdx/analysis/link_peaks.h"
#include "perfdx/formats/trace_loader.h"
#include "perfdx/io/sqlite.h"
#include "test_support.h"

namespace perfdx::analysis {
namespace {

using perfdx::testing::SharedPath;

std::string RankDir(const std::string& kind, int rank) {
  return SharedPath("traces/ascend/torch_npu_2rank_" + kind + "_level1/rank" +
                    std::to_string(rank) + "_ascend_pt");
}

model::Trace LoadOne(const std::string& path) {
  auto loaded = formats::LoadTraces({path}, formats::LoadOptions{});
  EXPECT_TRUE(loaded.ok()) << loaded.status().message();
  if (!loaded.ok() || loaded->traces.size() != 1) return model::Trace{};
  return std::move(loaded->traces[0]);
}

// The profiler's numbers for one (op, transport), in its units.
struct Expected {
  double size_mb = 0;
  double time_ms = 0;
  double bandwidth = 0;
  double large_packet_ratio = 0;
  std::map<int64_t, std::pair<int64_t, double>> packets;  // bytes -> (count, ms)
};
struct ExpectedTime {
  double elapse_ms, transit_ms, wait_ms, sync_ms, idle_ms;
};

// Tolerances: a task's sub-ns duration is rounded to whole ns when read
// (trace_view µs with 8 decimals; the DB's integer ns), so a sum of n
// tasks may differ by n/2 ns; the profiler rounds bandwidths to 4 decimals.
void CompareTransport(const CollectiveStats& c, const std::string& transport, const Expected& e,
                      double* worst_bandwidth_rel) {
  SCOPED_TRACE(c.name + " " + transport);
  const TransportTransit* t = c.Transport(transport);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->transit_bytes, std::llround(e.size_mb * 1e6));
  EXPECT_NEAR(static_cast<double>(t->transit_ns), e.time_ms * 1e6,
              0.5 * static_cast<double>(t->transfers) + 1);
  EXPECT_NEAR(t->bandwidth_gbps(), e.bandwidth, 5e-5 + 1e-5 * e.bandwidth);
  *worst_bandwidth_rel =
      std::max(*worst_bandwidth_rel, std::fabs(t->bandwidth_gbps() - e.bandwidth) / e.bandwidth);
  if (transport != "SDMA") {
    EXPECT_DOUBLE_EQ(t->large_packet_ratio(), e.large_packet_ratio);
    ASSERT_EQ(t->size_distribution.size(), e.packets.size());
    for (const PacketSize& p : t->size_distribution) {
      ASSERT_TRUE(e.packets.count(p.bytes)) << p.bytes;
      EXPECT_EQ(static_cast<int64_t>(p.count), e.packets.at(p.bytes).first);
      EXPECT_NEAR(static_cast<double>(p.transit_ns), e.packets.at(p.bytes).second * 1e6,
                  0.5 * static_cast<double>(p.count) + 1);
    }
  }
}

void CompareTime(const CollectiveStats& c, const ExpectedTime& e) {
  SCOPED_TRACE(c.name);
  EXPECT_NEAR(static_cast<double>(c.dur_ns), e.elapse_ms * 1e6, 1);
  EXPECT_NEAR(static_cast<double>(c.transit_ns), e.transit_ms * 1e6, 16);
  EXPECT_NEAR(static_cast<double>(c.wait_ns), e.wait_ms * 1e6, 16);
  EXPECT_NEAR(static_cast<double>(c.synchronization_ns), e.sync_ms * 1e6, 16);
  EXPECT_NEAR(static_cast<double>(c.idle_ns), e.idle_ms * 1e6, 32);
}

std::string OpName(const std::string& key) {
  return key.substr(0, key.rfind('@'));
}

class CollectivesRankTest : public ::testing::TestWithParam<int> {};

TEST_P(CollectivesRankTest, TextMatchesCommunicationJson) {
  PERFDX_REQUIRE_SHARED();
  const model::Trace trace = LoadOne(RankDir("text", GetParam()));
  const CollectiveSummary s = AnalyzeCollectives(trace);
  ASSERT_EQ(s.collectives.size(), 4u);

  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  ASSERT_EQ(parser.load(RankDir("text", GetParam()) + "/ASCEND_PROFILER_OUTPUT/communication.json")
                .get(doc),
            simdjson::SUCCESS);
  simdjson::dom::object ops;
  ASSERT_EQ(doc["step50"]["collective"].get(ops), simdjson::SUCCESS);
  int compared = 0;
  double worst = 0;
  for (auto [key, info] : ops) {
    const std::string name = OpName(std::string(key));
    if (name == "Total Op Info") continue;
    const CollectiveStats* c = nullptr;
    for (const CollectiveStats& x : s.collectives) {
      if (x.name == name) c = &x;
    }
    ASSERT_NE(c, nullptr) << name;
    EXPECT_EQ(c->type, CollectiveType::kAllReduce);
    simdjson::dom::object bandwidth;
    ASSERT_EQ(info["Communication Bandwidth Info"].get(bandwidth), simdjson::SUCCESS);
    for (auto [transport, b] : bandwidth) {
      Expected e;
      e.size_mb = double(b["Transit Size(MB)"].get_double().value_unsafe());
      if (e.size_mb == 0) {
        EXPECT_EQ(c->Transport(std::string(transport)), nullptr) << transport;
        continue;
      }
      e.time_ms = b["Transit Time(ms)"].get_double().value_unsafe();
      e.bandwidth = b["Bandwidth(GB/s)"].get_double().value_unsafe();
      e.large_packet_ratio = b["Large Packet Ratio"].get_double().value_unsafe();
      simdjson::dom::object dist;
      if (b["Size Distribution"].get(dist) == simdjson::SUCCESS) {
        for (auto [size, pair] : dist) {
          const int64_t bytes = std::llround(std::stod(std::string(size)) * 1e6);
          e.packets[bytes] = {pair.at(0).get_int64().value_unsafe(),
                              pair.at(1).get_double().value_unsafe()};
        }
      }
      CompareTransport(*c, std::string(transport), e, &worst);
      ++compared;
    }
    simdjson::dom::object time;
    ASSERT_EQ(info["Communication Time Info"].get(time), simdjson::SUCCESS);
    CompareTime(*c, {time["Elapse Time(ms)"].get_double().value_unsafe(),
                     time["Transit Time(ms)"].get_double().value_unsafe(),
                     time["Wait Time(ms)"].get_double().value_unsafe(),
                     time["Synchronization Time(ms)"].get_double().value_unsafe(),
                     time["Idle Time(ms)"].get_double().value_unsafe()});
    // The profiler rounds ratios to 4 decimals from sub-ns times: one unit
    // of the last digit.
    EXPECT_NEAR(c->wait_ratio.value_or(-1), time["Wait Time Ratio"].get_double().value_unsafe(),
                1e-4);
    EXPECT_NEAR(c->synchronization_ratio.value_or(-1),
                time["Synchronization Time Ratio"].get_double().value_unsafe(), 1e-4);
  }
  EXPECT_EQ(compared, 8);  // HCCS and SDMA of each of the 4 ops
  ::testing::Test::RecordProperty("worst_bandwidth_relative_deviation", std::to_string(worst));

  // "Total Op Info": sizes and times summed over the ops.
  simdjson::dom::object total;
  ASSERT_EQ(ops["Total Op Info"]["Communication Bandwidth Info"].get(total), simdjson::SUCCESS);
  const double hccs_mb = total["HCCS"]["Transit Size(MB)"].get_double().value_unsafe();
  const double hccs_ms = total["HCCS"]["Transit Time(ms)"].get_double().value_unsafe();
  const TransportTransit* t = nullptr;
  for (const TransportTransit& x : s.totals) {
    if (x.transport == "HCCS") t = &x;
  }
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->transit_bytes, std::llround(hccs_mb * 1e6));
  EXPECT_NEAR(static_cast<double>(t->transit_ns), hccs_ms * 1e6,
              0.5 * static_cast<double>(t->transfers) + 1);

  // Its time: the window (here the whole trace, the one step) split as the
  // ops' times summed.
  simdjson::dom::object total_time;
  ASSERT_EQ(ops["Total Op Info"]["Communication Time Info"].get(total_time), simdjson::SUCCESS);
  const CommTimeSplit& w = s.window_time;
  EXPECT_EQ(w.collectives, 4u);
  EXPECT_EQ(w.without_tasks, 0u);
  EXPECT_TRUE(w.complete());
  EXPECT_NEAR(static_cast<double>(w.elapse_ns),
              total_time["Elapse Time(ms)"].get_double().value_unsafe() * 1e6, 4);
  EXPECT_NEAR(static_cast<double>(w.transit_ns),
              total_time["Transit Time(ms)"].get_double().value_unsafe() * 1e6, 64);
  EXPECT_NEAR(static_cast<double>(w.wait_ns),
              total_time["Wait Time(ms)"].get_double().value_unsafe() * 1e6, 64);
  EXPECT_NEAR(static_cast<double>(w.idle_ns),
              total_time["Idle Time(ms)"].get_double().value_unsafe() * 1e6, 128);
}

// The longest plane task of the first all-reduce, read off trace_view.json
// (the HCCL "Plane N" rows, task ends inside the op): a Notify_Wait on
// plane 5 of 78765 us on rank 0, on plane 4 of 73149.98 us on rank 1.
TEST_P(CollectivesRankTest, LongestTaskOfTheFirstAllReduce) {
  PERFDX_REQUIRE_SHARED();
  const model::Trace trace = LoadOne(RankDir("text", GetParam()));
  const CollectiveSummary s = AnalyzeCollectives(trace);
  ASSERT_EQ(s.collectives.size(), 4u);
  const CollectiveStats& c = s.collectives[0];
  EXPECT_EQ(c.name, "hcom_allReduce__586_0_1");
  EXPECT_EQ(c.longest_task, "Notify_Wait");
  EXPECT_EQ(c.longest_task_plane, GetParam() == 0 ? 5 : 4);
  EXPECT_NEAR(static_cast<double>(c.longest_task_ns), GetParam() == 0 ? 78'765'000 : 73'149'982,
              1000);
  for (const CollectiveStats& x : s.collectives) EXPECT_LE(x.longest_task_ns, x.dur_ns);
  // It is the window's longest task (the other ops' tasks are all shorter).
  EXPECT_EQ(s.window_time.longest_task_collective, 0);
}

TEST_P(CollectivesRankTest, DbMatchesCommAnalyzerTables) {
  PERFDX_REQUIRE_SHARED();
  const model::Trace trace = LoadOne(RankDir("db", GetParam()));
  const CollectiveSummary s = AnalyzeCollectives(trace);
  ASSERT_EQ(s.collectives.size(), 4u);
  auto db = io::SqliteDb::Open(RankDir("db", GetParam()) + "/ASCEND_PROFILER_OUTPUT/analysis.db",
                               io::SqliteDb::kImmutable);
  ASSERT_TRUE(db.ok()) << db.status().message();

  // CommAnalyzerBandwidth: one row per (op, transport, packet size); SDMA
  // rows carry the transport totals with package_size 0.
  std::map<std::pair<std::string, std::string>, Expected> expected;
  {
    auto st = db->Prepare(
        "SELECT hccl_op_name, transport_type, transit_size, transit_time, bandwidth, "
        "large_packet_ratio, package_size, count, total_duration FROM CommAnalyzerBandwidth "
        "WHERE hccl_op_name != 'Total Op Info'");
    ASSERT_TRUE(st.ok()) << st.status().message();
    while (*st->Step()) {
      Expected& e = expected[{std::string(st->Text(0)), std::string(st->Text(1))}];
      e.size_mb = st->Double(2);
      e.time_ms = st->Double(3);
      e.bandwidth = st->Double(4);
      e.large_packet_ratio = st->Double(5);
      if (st->Double(6) > 0) {
        e.packets[std::llround(st->Double(6) * 1e6)] = {st->Int(7), st->Double(8)};
      }
    }
  }
  ASSERT_EQ(expected.size(), 8u);  // HCCS and SDMA of 4 ops
  double worst = 0;
  for (const auto& [key, e] : expected) {
    const CollectiveStats* c = nullptr;
    for (const CollectiveStats& x : s.collectives) {
      if (x.name == key.first) c = &x;
    }
    ASSERT_NE(c, nullptr) << key.first;
    CompareTransport(*c, key.second, e, &worst);
  }
  ::testing::Test::RecordProperty("worst_bandwidth_relative_deviation", std::to_string(worst));

  auto st = db->Prepare(
      "SELECT hccl_op_name, elapse_time, transit_time, wait_time, synchronization_time, idle_time "
      "FROM CommAnalyzerTime WHERE hccl_op_name != 'Total Op Info'");
  ASSERT_TRUE(st.ok());
  int rows = 0;
  while (*st->Step()) {
    const std::string name(st->Text(0));
    for (const CollectiveStats& c : s.collectives) {
      if (c.name == name) {
        CompareTime(c, {st->Double(1), st->Double(2), st->Double(3), st->Double(4), st->Double(5)});
        ++rows;
      }
    }
  }
  EXPECT_EQ(rows, 4);
}

INSTANTIATE_TEST_SUITE_P(BothRanks, CollectivesRankTest, ::testing::Values(0, 1),
                         [](const auto& p) { return "Rank" + std::to_string(p.param); });

// NCCL: Kineto copies record_param_comms' args onto the kernel. The first
// all-reduce kernel of nccl_data.json.gz: "In msg nelems": 6637568, "dtype":
// "Float", "Group size": 2, dur 2636.669 µs -> 26550272 B / 2636669 ns.
TEST(CollectivesTest, NcclMessageSizeAndBandwidth) {
  PERFDX_REQUIRE_SHARED();
  auto trace = perfdx::testing::ImportFile(
      SharedPath("traces/kineto/hta/nccl_parser_config/nccl_data.json.gz"));
  ASSERT_TRUE(trace.ok()) << trace.status().message();
  const CollectiveSummary s = AnalyzeCollectives(*trace);
  // 15 all-reduce and 6 broadcast kernels carry the args.
  std::map<CollectiveType, int> by_type;
  int with_bytes = 0;
  for (const CollectiveStats& c : s.collectives) {
    ++by_type[c.type];
    with_bytes += c.message_bytes > 0;
  }
  EXPECT_EQ(by_type[CollectiveType::kAllReduce], 15);
  EXPECT_EQ(by_type[CollectiveType::kBroadcast], 6);
  EXPECT_EQ(with_bytes, 21);
  const CollectiveStats* c = nullptr;
  for (const CollectiveStats& x : s.collectives) {
    if (x.dur_ns == 2636669) c = &x;
  }
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->message_bytes, 6637568 * 4);
  EXPECT_EQ(c->group_size, 2);
  EXPECT_DOUBLE_EQ(c->algbw_gbps.value_or(-1), 26550272.0 / 2636669.0);
  EXPECT_DOUBLE_EQ(c->busbw_gbps.value_or(-1), 26550272.0 / 2636669.0);  // 2(n-1)/n = 1 for n=2
  EXPECT_TRUE(c->transports.empty());
}

// RDMA by hand: an allreduce (barrier: 5 closing tasks, the run closes at
// idx + run + 3) with two payloads of 1 MB and 3 MB on plane 1:
//   plane 1: payload [10,20) payload [20,30) notify [30,35) ack [35,40)
//            barrier [40,42) barrier2 [42,50)
// -> one transfer of 4 MB from 10 to the end of the 3rd task after the run
// (idx 0 + 2 + 5 - 2 = 5: [42,50)) = 40 µs: 4e6 B / 40000 ns = 0.1 GB/s.
// Plane 2 has the older trace_view spelling without "rdma type": every RDMA
// task with a size is one transfer. The ON_CHIP copy on plane 0 is no link
// traffic.
TEST(CollectivesTest, RdmaRunsAndFallback) {
  const char* task = R"json({"ph": "X", "pid": 9, "tid": %d, "ts": %d, "dur": %d, "name": "%s",
      "args": {"transport type": "%s", "link type": "%s", "size(Byte)": %d %s}})json";
  auto t = [&](int tid, int ts, int dur, const char* name, const char* transport, const char* link,
               int size, const char* rdma) {
    char buf[512];
    std::string extra = rdma[0] ? std::string(", \"rdma type\": \"") + rdma + "\"" : "";
    std::snprintf(buf, sizeof(buf), task, tid, ts, dur, name, transport, link, size, extra.c_str());
    return std::string(buf);
  };
  std::string json = R"([
    {"ph": "M", "name": "process_name", "pid": 9, "tid": 0, "args": {"name": "HCCL"}},
    {"ph": "M", "name": "thread_name", "pid": 9, "tid": 0,
     "args": {"name": "Group 0 Communication"}},
    {"ph": "M", "name": "thread_name", "pid": 9, "tid": 1, "args": {"name": "Plane 0"}},
    {"ph": "M", "name": "thread_name", "pid": 9, "tid": 2, "args": {"name": "Plane 1"}},
    {"ph": "M", "name": "thread_name", "pid": 9, "tid": 3, "args": {"name": "Plane 2"}},
    {"ph": "X", "pid": 9, "tid": 0, "ts": 0, "dur": 100, "name": "hcom_allReduce__1_0_1",
     "args": {"count": 1000, "data_type": "FP32"}},
)";
  json += t(1, 1, 5, "Memcpy", "SDMA", "ON_CHIP", 4096, "") + ",\n";
  json += t(2, 5, 5, "Notify_Wait", "LOCAL", "INVALID_TYPE", 0, "") + ",\n";
  json += t(2, 10, 10, "RDMASend", "RDMA", "ROCE", 1000000, "RDMA_SEND_PAYLOAD") + ",\n";
  json += t(2, 20, 10, "RDMASend", "RDMA", "ROCE", 3000000, "RDMA_SEND_PAYLOAD") + ",\n";
  json += t(2, 30, 5, "RDMASend", "RDMA", "ROCE", 4, "RDMA_SEND_NOTIFY") + ",\n";
  json += t(2, 35, 5, "Notify_Wait", "RDMA", "ROCE", 0, "RDMA_PAYLOAD_ACK") + ",\n";
  json += t(2, 40, 2, "RDMASend", "RDMA", "ROCE", 4, "RDMA_SEND_NOTIFY") + ",\n";
  json += t(2, 42, 8, "Notify_Wait", "RDMA", "ROCE", 0, "RDMA_PAYLOAD_ACK") + ",\n";
  json += t(3, 60, 20, "RDMASend", "RDMA", "ROCE", 2000000, "") + "\n]";
  auto trace = perfdx::testing::ImportString(json);
  ASSERT_TRUE(trace.ok()) << trace.status().message();
  const CollectiveSummary s = AnalyzeCollectives(*trace);
  ASSERT_EQ(s.collectives.size(), 1u);
  const CollectiveStats& c = s.collectives[0];
  EXPECT_EQ(c.tasks, 9u);
  EXPECT_EQ(c.message_bytes, 4000);  // count x FP32
  const TransportTransit* rdma = c.Transport("RDMA");
  ASSERT_NE(rdma, nullptr);
  EXPECT_EQ(rdma->transfers, 2u);
  EXPECT_EQ(rdma->transit_bytes, 4000000 + 2000000);
  EXPECT_EQ(rdma->transit_ns, 40000 + 20000);
  EXPECT_EQ(rdma->large_transfers, 2u);     // both > 0.5 MB
  EXPECT_EQ(c.Transport("SDMA"), nullptr);  // the ON_CHIP copy is not link traffic
  EXPECT_EQ(c.link_bytes(), 6000000);
  // Master plane: plane 1 (the lowest with transfers): transit 40 µs; its
  // Notify_Waits: [5,10) before the first transfer (sync) and [35,40),
  // [42,50) inside the run: wait 18 µs.
  EXPECT_EQ(c.transit_ns, 40000);
  EXPECT_EQ(c.wait_ns, 18000);
  EXPECT_EQ(c.synchronization_ns, 5000);
  EXPECT_EQ(c.idle_ns, 100000 - 40000 - 18000);
  EXPECT_DOUBLE_EQ(c.wait_ratio.value_or(-1), 18.0 / 58.0);
  // The longest task on any plane: plane 2's 20 us RDMASend.
  EXPECT_EQ(c.longest_task, "RDMASend");
  EXPECT_EQ(c.longest_task_plane, 2);
  EXPECT_EQ(c.longest_task_ns, 20000);
  // No window: the one op is the window's.
  EXPECT_EQ(s.window_time.collectives, 1u);
  EXPECT_EQ(s.window_time.elapse_ns, 100000);
  EXPECT_EQ(s.window_time.transit_ns, 40000);
  EXPECT_EQ(s.window_time.wait_ns, 18000);
  EXPECT_EQ(s.window_time.idle_ns, 42000);
}

TEST(LinkPeaksTest, EachTransportTheTracesName) {
  // Distinct values, so that each name is seen to pick its own.
  const LinkPeaks peaks{18, 32, 25, 17};
  EXPECT_DOUBLE_EQ(PeakOf(peaks, "HCCS"), 18);  // HCCS_SW is folded into HCCS (collectives.h)
  EXPECT_DOUBLE_EQ(PeakOf(peaks, "PCIE"), 32);
  EXPECT_DOUBLE_EQ(PeakOf(peaks, "RDMA"), 25);
  EXPECT_DOUBLE_EQ(PeakOf(peaks, "SIO"), 17);   // SDMA with no peak of its own
  EXPECT_DOUBLE_EQ(PeakOf(peaks, "SDMA"), 17);  // the other SDMA links (OtherSdmaLinks)
  EXPECT_DOUBLE_EQ(PeakOf(peaks, "LOCAL"), 0);  // on-chip copies are not link traffic
  EXPECT_DOUBLE_EQ(PeakOf(peaks, ""), 0);       // not recorded
}

TEST(CollectivesTest, ParseTypesAndDtypes) {
  EXPECT_EQ(ParseCollectiveType("hcom_allReduce__586_0_1"), CollectiveType::kAllReduce);
  EXPECT_EQ(ParseCollectiveType("hcom_reduceScatter_"), CollectiveType::kReduceScatter);
  EXPECT_EQ(ParseCollectiveType("_allgather_base"), CollectiveType::kAllGather);
  EXPECT_EQ(ParseCollectiveType("hcom_send_"), CollectiveType::kSend);
  EXPECT_EQ(ParseCollectiveType("hcom_receive_"), CollectiveType::kReceive);
  EXPECT_EQ(ParseCollectiveType("hcom_batchSendRecv"), CollectiveType::kBatchSendRecv);
  EXPECT_EQ(ParseCollectiveType("hcom_broadcast_"), CollectiveType::kBroadcast);
  EXPECT_TRUE(IsPointToPoint(CollectiveType::kReceive));
  EXPECT_EQ(DtypeBytes("BFloat16"), 2);
  EXPECT_EQ(DtypeBytes("FP32"), 4);
  EXPECT_EQ(DtypeBytes("INT8"), 1);
  EXPECT_EQ(DtypeBytes("mystery"), 0);
}

// The spellings the rules meet (the advisor's communication rules read
// these collectives; they keep no definitions of their own).
TEST(CollectivesTest, KinetoSpellingsAndBusBandwidthFactors) {
  EXPECT_EQ(DtypeBytes("Float"), 4);
  EXPECT_EQ(DtypeBytes("FP16"), 2);
  EXPECT_EQ(DtypeBytes("Long"), 8);
  EXPECT_EQ(ParseCollectiveType("_reduce_scatter_base"), CollectiveType::kReduceScatter);
  EXPECT_EQ(ParseCollectiveType("all_gather_into_tensor"), CollectiveType::kAllGather);
  EXPECT_TRUE(IsPointToPoint(ParseCollectiveType("hcom_receive")));
  EXPECT_EQ(ParseCollectiveType("barrier"), CollectiveType::kUnknown);
  // nccl-tests: 2(n-1)/n for all-reduce, (n-1)/n for all-gather, 1 for broadcast.
  EXPECT_DOUBLE_EQ(BusBandwidthFactor(CollectiveType::kAllReduce, 8), 1.75);
  EXPECT_DOUBLE_EQ(BusBandwidthFactor(CollectiveType::kAllGather, 4), 0.75);
  EXPECT_DOUBLE_EQ(BusBandwidthFactor(CollectiveType::kBroadcast, 4), 1.0);
  EXPECT_DOUBLE_EQ(BusBandwidthFactor(CollectiveType::kUnknown, 4), 0.0);
}

}  // namespace
}  // namespace perfdx::analysis
