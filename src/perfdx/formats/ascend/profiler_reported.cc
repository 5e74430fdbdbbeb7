#include "perfdx/formats/ascend/profiler_reported.h"

#include <cmath>
#include <string>
#include <string_view>
#include <utility>

#include "perfdx/base/decimal_time.h"
#include "perfdx/formats/ascend/device.h"

namespace perfdx::formats::side_file {

namespace fs = std::filesystem;
using model::AscendData;

namespace {

// communication*.json sizes: "MB" is 10^6 bytes there (the sample's "Size
// Distribution" keys are the task sizes / 10^6 exactly).
constexpr double kDecimalMb = 1e6;
constexpr double kNsPerMs = 1e6;

int64_t MsToNs(simdjson::dom::element e) {
  const auto v = JsonNumber(e);
  return v ? RoundToInt(*v * kNsPerMs) : -1;
}

model::ReportedCommOp ParseCommOp(std::string_view key, simdjson::dom::object info) {
  model::ReportedCommOp op;
  const size_t at = key.rfind('@');
  op.op_name = std::string(key.substr(0, at));
  if (at != std::string_view::npos) op.group = std::string(key.substr(at + 1));
  simdjson::dom::object time;
  if (info["Communication Time Info"].get(time) == simdjson::SUCCESS) {
    for (auto [name, value] : time) {
      if (name == "Start Timestamp(us)") {
        const auto us = JsonNumber(value);
        if (us) op.start_ns = RoundToInt(*us * 1000.0);
      } else if (name == "Elapse Time(ms)") {
        op.elapse_ns = MsToNs(value);
      } else if (name == "Transit Time(ms)") {
        op.transit_ns = MsToNs(value);
      } else if (name == "Wait Time(ms)") {
        op.wait_ns = MsToNs(value);
      } else if (name == "Synchronization Time(ms)") {
        op.synchronization_ns = MsToNs(value);
      } else if (name == "Idle Time(ms)") {
        op.idle_ns = MsToNs(value);
      } else if (name == "Wait Time Ratio") {
        op.wait_ratio = JsonNumber(value).value_or(NAN);
      } else if (name == "Synchronization Time Ratio") {
        op.synchronization_ratio = JsonNumber(value).value_or(NAN);
      }
    }
  }
  simdjson::dom::object bandwidth;
  if (info["Communication Bandwidth Info"].get(bandwidth) == simdjson::SUCCESS) {
    for (auto [transport, value] : bandwidth) {
      simdjson::dom::object t;
      if (value.get(t) != simdjson::SUCCESS) continue;
      model::ReportedTransportBandwidth b;
      b.transport = std::string(transport);
      simdjson::dom::element e;
      if (t["Transit Size(MB)"].get(e) == simdjson::SUCCESS) {
        b.transit_bytes = RoundToInt(JsonNumber(e).value_or(NAN) * kDecimalMb);
      }
      if (t["Transit Time(ms)"].get(e) == simdjson::SUCCESS) b.transit_ns = MsToNs(e);
      if (t["Bandwidth(GB/s)"].get(e) == simdjson::SUCCESS) {
        b.bandwidth_gbps = JsonNumber(e).value_or(NAN);
      }
      if (t["Large Packet Ratio"].get(e) == simdjson::SUCCESS) {
        b.large_packet_ratio = JsonNumber(e).value_or(NAN);
      }
      simdjson::dom::object dist;
      if (t["Size Distribution"].get(dist) == simdjson::SUCCESS) {
        for (auto [size, counts] : dist) {
          model::ReportedTransportBandwidth::Packets p;
          p.packet_bytes = ParseDecimalScaled(size, 6).value_or(-1);
          simdjson::dom::array pair;
          if (counts.get(pair) == simdjson::SUCCESS && pair.size() >= 2) {
            p.count = JsonInt(pair.at(0).value()).value_or(0);
            p.transit_ns = MsToNs(pair.at(1).value());
          }
          b.size_distribution.push_back(p);
        }
      }
      op.bandwidth.push_back(std::move(b));
    }
  }
  return op;
}

bool IsCommOpInfo(simdjson::dom::object o) {
  simdjson::dom::element e;
  return o["Communication Time Info"].get(e) == simdjson::SUCCESS ||
         o["Communication Bandwidth Info"].get(e) == simdjson::SUCCESS;
}

}  // namespace

void ReadStepTraceTime(const fs::path& path, const AscendSideOptions& options,
                       model::Trace* trace) {
  AscendData& a = Ascend(trace);
  ReadSideCsv(path, options, trace, [&](const CsvHeader& h, const CsvRow& r) {
    const auto computing = r.MicrosToNanos(h.Find({"Computing"}));
    if (!computing) return false;
    auto us = [&](std::string_view column) {
      return r.MicrosToNanos(h.Find({column})).value_or(-1);
    };
    model::ReportedStepTrace s;
    s.device_id = DeviceOf(r, h.Find({"Device_id"}));
    s.step = std::string(r.Text(h.Find({"Step"})));
    s.computing_ns = *computing;
    s.communication_not_overlapped_ns = us("Communication(Not Overlapped)");
    s.overlapped_ns = us("Overlapped");
    s.communication_ns = us("Communication");
    s.free_ns = us("Free");
    s.stage_ns = us("Stage");
    s.bubble_ns = us("Bubble");
    s.communication_not_overlapped_exclude_receive_ns =
        us("Communication(Not Overlapped and Exclude Receive)");
    s.preparing_ns = us("Preparing");
    a.profiler_reported.step_trace.push_back(s);
    return true;
  });
}

void ParseCommunication(simdjson::dom::element doc, model::AscendProfilerReported* out) {
  simdjson::dom::object root;
  if (doc.get(root) != simdjson::SUCCESS) return;
  auto add_ops = [&](std::string_view step, bool p2p, simdjson::dom::object ops) {
    for (auto [key, value] : ops) {
      simdjson::dom::object info;
      if (value.get(info) != simdjson::SUCCESS || !IsCommOpInfo(info)) continue;
      model::ReportedCommOp op = ParseCommOp(key, info);
      op.step = std::string(step);
      op.p2p = p2p;
      out->communication.push_back(std::move(op));
    }
  };
  for (auto [key, value] : root) {
    simdjson::dom::object o;
    if (value.get(o) != simdjson::SUCCESS) continue;
    if (IsCommOpInfo(o)) {
      model::ReportedCommOp op = ParseCommOp(key, o);
      out->communication.push_back(std::move(op));
      continue;
    }
    for (std::string_view kind : {"p2p", "collective"}) {
      simdjson::dom::object ops;
      if (o[kind].get(ops) == simdjson::SUCCESS) add_ops(key, kind == "p2p", ops);
    }
  }
}

void ParseCommunicationMatrix(simdjson::dom::element doc, model::AscendProfilerReported* out) {
  simdjson::dom::object root;
  if (doc.get(root) != simdjson::SUCCESS) return;
  for (auto [step, value] : root) {
    simdjson::dom::object by_kind;
    if (value.get(by_kind) != simdjson::SUCCESS) continue;
    for (std::string_view kind : {"p2p", "collective"}) {
      simdjson::dom::object ops;
      if (by_kind[kind].get(ops) != simdjson::SUCCESS) continue;
      for (auto [op_key, links_value] : ops) {
        simdjson::dom::object links;
        if (links_value.get(links) != simdjson::SUCCESS) continue;
        const size_t at = op_key.rfind('@');
        for (auto [link, info_value] : links) {
          simdjson::dom::object info;
          if (info_value.get(info) != simdjson::SUCCESS) continue;
          model::ReportedCommLink l;
          l.step = std::string(step);
          l.p2p = kind == "p2p";
          l.op_key = std::string(op_key.substr(0, at));
          if (at != std::string_view::npos) l.group = std::string(op_key.substr(at + 1));
          const size_t dash = link.find('-');
          if (dash != std::string_view::npos) {
            l.src_rank = ParseDecimalScaled(link.substr(0, dash), 0).value_or(-1);
            l.dst_rank = ParseDecimalScaled(link.substr(dash + 1), 0).value_or(-1);
          }
          l.transport = JsonString(info, "Transport Type");
          simdjson::dom::element e;
          if (info["Transit Size(MB)"].get(e) == simdjson::SUCCESS) {
            l.transit_bytes = RoundToInt(JsonNumber(e).value_or(NAN) * kDecimalMb);
          }
          if (info["Transit Time(ms)"].get(e) == simdjson::SUCCESS) l.transit_ns = MsToNs(e);
          if (info["Bandwidth(GB/s)"].get(e) == simdjson::SUCCESS) {
            l.bandwidth_gbps = JsonNumber(e).value_or(NAN);
          }
          l.op_name = JsonString(info, "Op Name");
          out->communication_matrix.push_back(std::move(l));
        }
      }
    }
  }
}

}  // namespace perfdx::formats::side_file
