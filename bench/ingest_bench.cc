// perfdx_ingest_bench: one ingest measurement of one trace file, one process
// per measurement so that the peak RSS belongs to that measurement alone.
//
//   perfdx_ingest_bench perfdx   TRACE   # what `perfdx info` does: load + summarise
//   perfdx_ingest_bench simdjson TRACE   # the whole-document limit: see MinimalPass below
//   perfdx_ingest_bench stream   TRACE   # the bounded-memory limit: StreamingMinimalPass
//   ... TRACE --threads N                # perfdx/analyze with LoadOptions::threads = N
//
// Prints one JSON object on stdout: "mode", "path", "bytes" (uncompressed
// JSON), "seconds" (wall), "cpu_seconds" (user + system), "mb_per_s" (10^6
// bytes per wall second), "peak_rss_bytes" (getrusage), "events",
// "read_seconds" (simdjson mode: the part spent reading and decompressing;
// analyze mode: the load, with "analysis_seconds" the rest, of which
// "replay_seconds" is the what-if replay's part, timed again alone),
// "march" and a "checksum" of what was read; perfdx and analyze modes also
// "calling_thread_cpu_seconds" (the thread that loads a single trace, builds
// its model and runs the analyses not handed off), its
// "calling_thread_run_queue_seconds" (ready to run, waiting for a CPU) and
// "critical_path_seconds": its CPU time or all the other threads' together,
// whichever is more. With two threads that bounds
// the wall time on an idle machine from below, and it is not inflated by
// other work on a shared one, as wall time is. The perfdx mode also gives
// "minor_faults" and the calling thread's "calling_thread_minor_faults"
// (page faults without I/O: the model's fresh pages, most of the kernel's
// time in a load; counts, so as repeatable as instructions).
// run_ingest_bench.py runs it for every trace and prints the table of
// docs/PERFORMANCE.md.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

#include <fmt/format.h>
#include <simdjson.h>

#include "perfdx/advisor/advisor.h"
#include "perfdx/analysis/rank_analysis.h"
#include "perfdx/analysis/trace_summary.h"
#include "perfdx/base/allocator.h"
#include "perfdx/base/json_writer.h"
#include "perfdx/formats/trace_loader.h"
#include "perfdx/io/byte_source.h"

namespace perfdx::bench {
namespace {

namespace od = simdjson::ondemand;
using Clock = std::chrono::steady_clock;

// The -march the benchmark was compiled with (both modes share it).
constexpr const char* kMarch =
#if defined(__AVX512F__)
    "avx512";
#elif defined(__AVX2__)
    "x86-64-v3";
#elif defined(__SSE4_2__)
    "x86-64-v2";
#else
    "baseline";
#endif

// This process's own peak: VmHWM of /proc/self/status, which exec resets.
// getrusage's ru_maxrss is not reset by exec: it kept the driver's RSS at the
// fork (the Python driver's 15 MiB) as a floor under every small measurement.
uint64_t PeakRssBytes() {
  if (std::FILE* f = std::fopen("/proc/self/status", "r")) {
    char line[256];
    uint64_t kib = 0;
    while (std::fgets(line, sizeof line, f) != nullptr) {
      if (std::sscanf(line, "VmHWM: %" SCNu64 " kB", &kib) == 1) break;
    }
    std::fclose(f);
    if (kib > 0) return kib * 1024;
  }
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<uint64_t>(usage.ru_maxrss) * 1024;  // Linux reports KiB
}

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// User + system CPU time of this process so far. On a busy machine the CPU
// time of a single-threaded measurement is steadier than its wall time.
// Seconds the calling thread was ready to run but waited for a CPU (the
// scheduler's run-queue wait, /proc/thread-self/schedstat): what other load on
// a shared machine cost it. 0 where the kernel keeps no such statistics.
double RunQueueSeconds() {
  FILE* f = std::fopen("/proc/thread-self/schedstat", "r");
  if (f == nullptr) return 0;
  unsigned long long run_ns = 0;
  unsigned long long wait_ns = 0;
  const int got = std::fscanf(f, "%llu %llu", &run_ns, &wait_ns);
  std::fclose(f);
  return got == 2 ? static_cast<double>(wait_ns) * 1e-9 : 0;
}

// User + system seconds of the process (RUSAGE_SELF) or the calling thread
// (RUSAGE_THREAD).
double CpuSeconds(int who = RUSAGE_SELF) {
  rusage usage{};
  getrusage(who, &usage);
  auto seconds = [](const timeval& tv) {
    return static_cast<double>(tv.tv_sec) + tv.tv_usec * 1e-6;
  };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

// Page faults that needed no I/O (a fresh page zeroed, a page-cache page
// mapped): the kernel's share of loading a trace is mostly these.
uint64_t MinorFaults(int who = RUSAGE_SELF) {
  rusage usage{};
  getrusage(who, &usage);
  return static_cast<uint64_t>(usage.ru_minflt);
}

// Uncompressed size, by streaming the file once through a small buffer.
Result<uint64_t> UncompressedBytes(const std::string& path) {
  PERFDX_ASSIGN_OR_RETURN(auto source, io::OpenByteSource(path));
  std::string buffer(size_t{1} << 20, '\0');
  for (;;) {
    PERFDX_ASSIGN_OR_RETURN(size_t n, source->Read(buffer.data(), buffer.size()));
    if (n == 0) break;
  }
  return source->bytes_out();
}

struct Measurement {
  uint64_t bytes = 0;
  double seconds = 0;
  double cpu_seconds = 0;
  double calling_thread_cpu_seconds = 0;
  double calling_thread_run_queue_seconds = 0;
  uint64_t minor_faults = 0;
  uint64_t calling_thread_minor_faults = 0;
  double read_seconds = 0;
  uint64_t events = 0;
  uint64_t checksum = 0;        // keeps the minimal pass from being optimised away
  double analysis_seconds = 0;  // analyze mode: the part after loading
  // analyze mode: the what-if replay's part of analysis_seconds, timed again
  // on its own after it (the graph, the unchanged replay, each finding's).
  double replay_seconds = 0;
};

// --- perfdx mode -----------------------------------------------------------

Result<Measurement> PerfdxInfo(const std::string& path, unsigned threads) {
  Measurement m;
  const double cpu_start = CpuSeconds();
  const double thread_cpu_start = CpuSeconds(RUSAGE_THREAD);
  const double run_queue_start = RunQueueSeconds();
  const uint64_t faults_start = MinorFaults();
  const uint64_t thread_faults_start = MinorFaults(RUSAGE_THREAD);
  const auto start = Clock::now();
  formats::LoadOptions options;
  options.threads = threads;
  PERFDX_ASSIGN_OR_RETURN(formats::LoadedTraces loaded, formats::LoadTraces({path}, options));
  // What `perfdx info` computes; rendering the summary as text is left out
  // (microseconds, and it keeps this benchmark off the report library).
  for (const model::Trace& trace : loaded.traces) {
    const analysis::TraceSummary summary = analysis::SummarizeTrace(trace);
    m.checksum += summary.tracks.size() + summary.step_ids.size();
  }
  m.seconds = SecondsSince(start);
  m.cpu_seconds = CpuSeconds() - cpu_start;
  m.calling_thread_cpu_seconds = CpuSeconds(RUSAGE_THREAD) - thread_cpu_start;
  m.calling_thread_run_queue_seconds = RunQueueSeconds() - run_queue_start;
  m.minor_faults = MinorFaults() - faults_start;
  m.calling_thread_minor_faults = MinorFaults(RUSAGE_THREAD) - thread_faults_start;
  for (const model::Trace& trace : loaded.traces) m.events += trace.raw.events;
  return m;
}

// --- analyze mode ------------------------------------------------------------

// What `perfdx analyze` computes (load, every analysis, the advisor), with the
// analysis part timed on its own: issue #3 bounds it at +50% of ingest.
Result<Measurement> PerfdxAnalyze(const std::string& path, unsigned threads) {
  Measurement m;
  const double cpu_start = CpuSeconds();
  const double thread_cpu_start = CpuSeconds(RUSAGE_THREAD);
  const double run_queue_start = RunQueueSeconds();
  const auto start = Clock::now();
  formats::LoadOptions options;
  options.threads = threads;
  PERFDX_ASSIGN_OR_RETURN(formats::LoadedTraces loaded, formats::LoadTraces({path}, options));
  const double load_seconds = SecondsSince(start);
  double replay_cpu_seconds = 0;  // the re-timed replay, left out of cpu_seconds
  // As the pipeline does: the threads left to each trace.
  analysis::AnalysisOptions analysis_options;
  const unsigned budget = threads != 0 ? threads : std::thread::hardware_concurrency();
  analysis_options.threads =
      std::max<unsigned>(1, budget / std::max<size_t>(1, loaded.traces.size()));
  for (const model::Trace& trace : loaded.traces) {
    const auto analysis_start = Clock::now();
    const analysis::RankAnalysis a = analysis::AnalyzeRank(trace, analysis_options);
    const std::vector<advisor::Finding> findings =
        advisor::RunAdvisor(a, advisor::Thresholds{}, analysis_options.threads);
    m.analysis_seconds += SecondsSince(analysis_start);
    m.checksum += a.steps.size() + a.gaps.gaps.size() + findings.size();
    // The replay again, alone (issue #11 bounds it at +50% of analysis).
    const auto replay_start = Clock::now();
    const double replay_cpu_start = CpuSeconds();
    const analysis::ReplayGraph graph = analysis::BuildReplayGraph(trace, a.kernels);
    const analysis::ReplayCheck check =
        analysis::CheckReplay(graph, a.timeline.steps, a.complete_steps);
    for (const advisor::Finding& f : findings) {
      if (!f.what_if) continue;
      const analysis::Prediction p =
          analysis::Predict(graph, a.timeline.steps, check, *f.what_if, f.what_if_low);
      m.checksum += static_cast<uint64_t>(p.available);
    }
    m.replay_seconds += SecondsSince(replay_start);
    replay_cpu_seconds += CpuSeconds() - replay_cpu_start;
  }
  m.read_seconds = load_seconds;
  m.seconds = SecondsSince(start) - m.replay_seconds;
  m.cpu_seconds = CpuSeconds() - cpu_start - replay_cpu_seconds;
  // The replay ran here alone.
  m.calling_thread_cpu_seconds = CpuSeconds(RUSAGE_THREAD) - thread_cpu_start - replay_cpu_seconds;
  m.calling_thread_run_queue_seconds = RunQueueSeconds() - run_queue_start;
  for (const model::Trace& trace : loaded.traces) m.events += trace.raw.events;
  return m;
}

// --- simdjson mode -----------------------------------------------------------

template <size_t N>
bool KeyIs(const char* raw, const char (&literal)[N]) {
  return std::memcmp(raw, literal, N - 1) == 0 && raw[N - 1] == '"';
}

uint64_t TouchString(od::value value) {
  std::string_view s;
  return value.get_string().get(s) == simdjson::SUCCESS ? s.size() : 0;
}

// Numbers and strings both occur for ids and times (Ascend writes "ts" as text).
uint64_t TouchScalar(od::value value) {
  od::json_type type;
  if (value.type().get(type) != simdjson::SUCCESS) return 0;
  if (type == od::json_type::string) {
    std::string_view s;
    return value.get_string().get(s) == simdjson::SUCCESS ? s.size() : 0;
  }
  if (type == od::json_type::number) {
    double d = 0;
    return value.get_double().get(d) == simdjson::SUCCESS ? static_cast<uint64_t>(d) : 0;
  }
  return 0;
}

Result<uint64_t> WalkEvents(od::array events, uint64_t* checksum) {
  uint64_t count = 0;
  for (auto element : events) {
    od::object event;
    if (element.get_object().get(event) != simdjson::SUCCESS) {
      return InvalidInput("an element of the event array is not an object");
    }
    ++count;
    for (auto field_result : event) {
      od::field field;
      if (std::move(field_result).get(field) != simdjson::SUCCESS) {
        return InvalidInput("malformed event");
      }
      // The key as written (trace keys carry no escapes): no copy, no unescaping.
      const char* key = field.key().raw();
      switch (key[0]) {
        case 'p':
          if (KeyIs(key, "ph")) {
            *checksum += TouchString(field.value());
          } else if (KeyIs(key, "pid")) {
            *checksum += TouchScalar(field.value());
          }
          break;
        case 'n':
          if (KeyIs(key, "name")) *checksum += TouchString(field.value());
          break;
        case 't':
          if (KeyIs(key, "tid") || KeyIs(key, "ts")) *checksum += TouchScalar(field.value());
          break;
        case 'd':
          if (KeyIs(key, "dur")) *checksum += TouchScalar(field.value());
          break;
        default:
          break;
      }
    }
  }
  return count;
}

// The minimal On-Demand pass: the whole decompressed document in one padded
// buffer, parsed by one ondemand::parser, touching ph, name, pid, tid, ts and
// dur of every event and nothing else.
Result<Measurement> MinimalPass(const std::string& path) {
  Measurement m;
  // The exact size first (untimed) so that the document is allocated once,
  // as padded_string::load does for a plain file.
  PERFDX_ASSIGN_OR_RETURN(m.bytes, UncompressedBytes(path));

  const double cpu_start = CpuSeconds();
  const auto start = Clock::now();
  simdjson::padded_string json(m.bytes);
  {
    PERFDX_ASSIGN_OR_RETURN(auto source, io::OpenByteSource(path));
    size_t have = 0;
    while (have < m.bytes) {
      PERFDX_ASSIGN_OR_RETURN(size_t n, source->Read(json.data() + have, m.bytes - have));
      if (n == 0) break;
      have += n;
    }
    if (have != m.bytes) return IoError(fmt::format("{}: changed while reading", path));
  }
  m.read_seconds = SecondsSince(start);

  od::parser parser;
  od::document doc;
  if (auto e = parser.iterate(json).get(doc)) {
    return InvalidInput(fmt::format("{}: {}", path, simdjson::error_message(e)));
  }
  od::json_type type;
  if (doc.type().get(type) != simdjson::SUCCESS) return InvalidInput("not JSON");
  if (type == od::json_type::array) {
    od::array events;
    if (doc.get_array().get(events) != simdjson::SUCCESS) return InvalidInput("bad array");
    PERFDX_ASSIGN_OR_RETURN(m.events, WalkEvents(events, &m.checksum));
  } else {
    od::object root;
    if (doc.get_object().get(root) != simdjson::SUCCESS) return InvalidInput("not a trace");
    for (auto field_result : root) {
      od::field field;
      if (std::move(field_result).get(field) != simdjson::SUCCESS) return InvalidInput("bad key");
      std::string_view key;
      if (field.unescaped_key().get(key) != simdjson::SUCCESS) return InvalidInput("bad key");
      if (key != "traceEvents") continue;
      od::array events;
      if (field.value().get_array().get(events) != simdjson::SUCCESS) {
        return InvalidInput("traceEvents is not an array");
      }
      PERFDX_ASSIGN_OR_RETURN(m.events, WalkEvents(events, &m.checksum));
    }
  }
  m.seconds = SecondsSince(start);
  m.cpu_seconds = CpuSeconds() - cpu_start;
  return m;
}

// The streaming minimal pass: the limit for a reader that never holds the
// file. The decompressed bytes come through the same io::ByteSource in chunks
// of perfdx's size; each chunk's complete events (up to its last `}, {`) are
// handed to one ondemand::parser as one array, as perfdx's fast path does,
// and walked like the whole-document pass. Assumes a well-formed trace: what
// it measures is the cost of the bytes, not of recovering from damage.
Result<Measurement> StreamingMinimalPass(const std::string& path) {
  Measurement m;
  const size_t chunk = formats::ChromeJsonOptions{}.chunk_bytes;
  const double cpu_start = CpuSeconds();
  const auto start = Clock::now();
  PERFDX_ASSIGN_OR_RETURN(auto source, io::OpenByteSource(path));
  // One byte of headroom before the data for the '[' that opens a region.
  size_t capacity = 2 * chunk;
  auto storage = std::make_unique_for_overwrite<char[]>(1 + capacity + simdjson::SIMDJSON_PADDING);
  char* data = storage.get() + 1;
  size_t begin = 0;
  size_t end = 0;
  bool eof = false;
  auto fill = [&]() -> Status {
    std::memmove(data, data + begin, end - begin);
    end -= begin;
    begin = 0;
    if (end + chunk > capacity) {  // an event longer than a chunk: grow
      capacity = 2 * (end + chunk);
      auto grown =
          std::make_unique_for_overwrite<char[]>(1 + capacity + simdjson::SIMDJSON_PADDING);
      std::memcpy(grown.get() + 1, data, end);
      storage = std::move(grown);
      data = storage.get() + 1;
    }
    while (end < capacity && !eof) {
      PERFDX_ASSIGN_OR_RETURN(size_t n, source->Read(data + end, capacity - end));
      if (n == 0) eof = true;
      end += n;
    }
    std::memset(data + end, ' ', simdjson::SIMDJSON_PADDING);
    return Status::Ok();
  };
  PERFDX_RETURN_IF_ERROR(fill());
  // The event array: the first '[' of a bare array, or the one after the key.
  const std::string_view head(data, end);
  size_t open = head.find_first_not_of(" \t\r\n\xEF\xBB\xBF");
  if (open == std::string_view::npos) return InvalidInput("empty");
  if (data[open] == '{') {
    const size_t key = head.find("\"traceEvents\"");
    if (key == std::string_view::npos) return InvalidInput("no traceEvents in the first chunk");
    open = head.find('[', key);
    if (open == std::string_view::npos) return InvalidInput("no event array");
  }
  begin = open + 1;
  od::parser parser;
  for (;;) {
    while (begin < end && (data[begin] == ',' || std::strchr(" \t\r\n", data[begin]) != nullptr)) {
      ++begin;
    }
    if (begin == end || data[begin] == ']') break;
    // The last `}` ws* `,` ws* `{` of the chunk, as perfdx's FindCut.
    size_t cut = std::string_view::npos;
    for (size_t to = end; to > begin;) {
      const void* hit = memrchr(data + begin, '{', to - begin);
      if (hit == nullptr) break;
      size_t i = static_cast<size_t>(static_cast<const char*>(hit) - data);
      to = i;
      while (i > begin && std::strchr(" \t\r\n", data[i - 1]) != nullptr) --i;
      if (i > begin && data[i - 1] == ',') {
        --i;
        while (i > begin && std::strchr(" \t\r\n", data[i - 1]) != nullptr) --i;
        if (i > begin && data[i - 1] == '}') {
          cut = i;
          break;
        }
      }
    }
    const bool last = eof && cut == std::string_view::npos;
    if (cut == std::string_view::npos && !eof) {
      PERFDX_RETURN_IF_ERROR(fill());
      continue;
    }
    // The last region runs to the array's own ']': the first `}` ws* `]`
    // (keys may follow the array, and their values hold brackets too).
    size_t close = cut;
    if (last) {
      close = end;
      for (size_t i = begin; i + 1 < end; ++i) {
        if (data[i] != '}') continue;
        size_t j = i + 1;
        while (j < end && std::strchr(" \t\r\n", data[j]) != nullptr) ++j;
        if (j < end && data[j] == ']') {
          close = j + 1;
          break;
        }
      }
    }
    const char saved_open = data[begin - 1];
    const char saved_close = last ? ' ' : data[close];
    data[begin - 1] = '[';
    if (!last) data[close] = ']';
    od::document doc;
    od::array events;
    simdjson::error_code e = parser
                                 .iterate(data + begin - 1, close - begin + (last ? 1 : 2),
                                          capacity + simdjson::SIMDJSON_PADDING - begin + 1)
                                 .get(doc);
    if (e == simdjson::SUCCESS) e = doc.get_array().get(events);
    if (e != simdjson::SUCCESS) {
      return InvalidInput(
          fmt::format("{}: at byte {} of the JSON: the minimal pass cannot parse it: {}", path,
                      source->bytes_out() - (end - begin), simdjson::error_message(e)));
    }
    PERFDX_ASSIGN_OR_RETURN(uint64_t count, WalkEvents(events, &m.checksum));
    m.events += count;
    data[begin - 1] = saved_open;
    if (!last) data[close] = saved_close;
    if (last) break;
    begin = cut;
    if (!eof && end - begin < chunk) PERFDX_RETURN_IF_ERROR(fill());
  }
  m.bytes = source->bytes_out();
  m.seconds = SecondsSince(start);
  m.cpu_seconds = CpuSeconds() - cpu_start;
  return m;
}

int Main(int argc, char** argv) {
  const bool known =
      argc >= 3 && (std::strcmp(argv[1], "perfdx") == 0 || std::strcmp(argv[1], "analyze") == 0 ||
                    std::strcmp(argv[1], "simdjson") == 0 || std::strcmp(argv[1], "stream") == 0);
  // --bytes N: the uncompressed size, known to the caller, so that the
  // process does not decompress the file a second time to count it (what
  // run_ingest_bench.py --instructions counts is the measurement alone).
  bool options_ok = known && argc % 2 == 1;
  unsigned threads = 0;
  std::optional<uint64_t> bytes_given;
  for (int i = 3; options_ok && i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--threads") == 0) {
      threads = static_cast<unsigned>(std::atoi(argv[i + 1]));
    } else if (std::strcmp(argv[i], "--bytes") == 0) {
      bytes_given = std::strtoull(argv[i + 1], nullptr, 10);
    } else {
      options_ok = false;
    }
  }
  if (!options_ok) {
    std::fprintf(stderr,
                 "usage: %s perfdx|analyze|simdjson|stream TRACE [--threads N] [--bytes N]\n",
                 argv[0]);
    return 64;
  }
  const std::string mode = argv[1];
  const std::string path = argv[2];
  Result<Measurement> result = mode == "perfdx"    ? PerfdxInfo(path, threads)
                               : mode == "analyze" ? PerfdxAnalyze(path, threads)
                               : mode == "stream"  ? StreamingMinimalPass(path)
                                                   : MinimalPass(path);
  // Read before anything else allocates.
  const uint64_t peak_rss = PeakRssBytes();
  if (!result.ok()) {
    std::fprintf(stderr, "perfdx_ingest_bench: %s\n", result.status().message().c_str());
    return 2;
  }
  Measurement m = *result;
  if (bytes_given) {
    m.bytes = *bytes_given;
  } else if (mode == "perfdx" || mode == "analyze") {
    // After the measurement: a streaming pass with a 1 MiB buffer.
    auto bytes = UncompressedBytes(path);
    if (!bytes.ok()) {
      std::fprintf(stderr, "perfdx_ingest_bench: %s\n", bytes.status().message().c_str());
      return 2;
    }
    m.bytes = *bytes;
  }
  const double mb = static_cast<double>(m.bytes) / 1e6;
  JsonWriter out(/*indent=*/0);
  out.BeginObject();
  out.Key("mode").String(mode);
  out.Key("path").String(path);
  out.Key("bytes").Uint(m.bytes);
  out.Key("seconds").Double(m.seconds);
  out.Key("cpu_seconds").Double(m.cpu_seconds);
  out.Key("mb_per_s").Double(m.seconds > 0 ? mb / m.seconds : 0.0);
  out.Key("peak_rss_bytes").Uint(peak_rss);
  out.Key("events").Uint(m.events);
  out.Key("read_seconds").Double(m.read_seconds);
  out.Key("threads").Uint(threads);
  if (mode == "perfdx" || mode == "analyze") {
    out.Key("calling_thread_cpu_seconds").Double(m.calling_thread_cpu_seconds);
    out.Key("calling_thread_run_queue_seconds").Double(m.calling_thread_run_queue_seconds);
    out.Key("critical_path_seconds")
        .Double(
            std::max(m.calling_thread_cpu_seconds, m.cpu_seconds - m.calling_thread_cpu_seconds));
  }
  if (mode == "perfdx") {
    out.Key("minor_faults").Uint(m.minor_faults);
    out.Key("calling_thread_minor_faults").Uint(m.calling_thread_minor_faults);
  }
  if (mode == "analyze") {
    out.Key("analysis_seconds").Double(m.analysis_seconds);
    out.Key("replay_seconds").Double(m.replay_seconds);
  }
  out.Key("march").String(kMarch);
  out.Key("checksum").Uint(m.checksum);
  out.EndObject();
  std::printf("%s\n", out.str().c_str());
  return 0;
}

}  // namespace
}  // namespace perfdx::bench

int main(int argc, char** argv) {
  perfdx::base::KeepLargeBlocksOutOfTheHeap();  // as the CLI does
  return perfdx::bench::Main(argc, argv);
}
