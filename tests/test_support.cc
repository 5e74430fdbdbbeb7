#include "test_support.h"

#include <grp.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <zlib.h>
#include <zstd.h>

#include "perfdx/io/byte_source.h"

namespace perfdx::testing {

std::string SharedPath(const std::string& relative) {
  return "../shared/" + relative;
}

bool HaveShared() {
  return std::filesystem::is_directory("../shared/traces");
}

std::string MissingSharedMessage() {
  std::error_code ec;
  const auto where = std::filesystem::absolute("../shared/traces", ec);
  return "../shared not found: looked for " +
         (ec ? std::string("../shared/traces") : where.string()) +
         " (tests run from the repository root; the shared traces sit beside the checkout)";
}

formats::ChromeJsonOptions ParserOptions(ParserPath path) {
  formats::ChromeJsonOptions options;
  options.fast_path = path != ParserPath::kExact;
  if (path == ParserPath::kParallel) {
    options.decode_threads = 3;
    options.parallel_after_bytes = 0;
  }
  return options;
}

Result<model::Trace> ImportString(const std::string& json, ParserPath path,
                                  const std::string& name) {
  PERFDX_ASSIGN_OR_RETURN(auto source, io::OpenMemoryByteSource(json, name));
  formats::ChromeJsonOptions options = ParserOptions(path);
  // Small chunks exercise the chunk boundaries even on small inputs.
  options.chunk_bytes = 256;
  io::TraceInput input;
  input.trace_path = name;
  return formats::ImportChromeTraceFrom(*source, input, options);
}

Result<model::Trace> ImportString(const std::string& json, bool fast_path,
                                  const std::string& name) {
  return ImportString(json, fast_path ? ParserPath::kFast : ParserPath::kExact, name);
}

Result<model::Trace> ImportFile(const std::string& path, ParserPath parser) {
  formats::LoadOptions options;
  options.json = ParserOptions(parser);
  // Many chunks in flight on the parallel path even for a small file.
  if (parser == ParserPath::kParallel) options.json.chunk_bytes = 4096;
  io::TraceInput input;
  input.trace_path = path;
  // As the loader does: the framework and platform detected too.
  return formats::ImportInput(input, options);
}

Result<model::Trace> ImportFile(const std::string& path, bool fast_path) {
  return ImportFile(path, fast_path ? ParserPath::kFast : ParserPath::kExact);
}

std::vector<std::string> SplitLines(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    const size_t end = text.find('\n', start);
    if (end == std::string::npos) {
      lines.push_back(text.substr(start));
      break;
    }
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

std::string ReadFileOrDie(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) ADD_FAILURE() << "cannot read " << path;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string GzipCompress(const std::string& data) {
  z_stream zs{};
  EXPECT_EQ(deflateInit2(&zs, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
  std::string out(deflateBound(&zs, data.size()) + 64, '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  zs.avail_in = static_cast<uInt>(data.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&zs, Z_FINISH), Z_STREAM_END);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

std::string ZstdCompress(const std::string& data) {
  std::string out(ZSTD_compressBound(data.size()), '\0');
  const size_t n = ZSTD_compress(out.data(), out.size(), data.data(), data.size(), 3);
  EXPECT_FALSE(ZSTD_isError(n));
  out.resize(n);
  return out;
}

TempDir::TempDir() {
  static std::atomic<int> counter{0};
  path_ = (std::filesystem::temp_directory_path() /
           ("perfdx_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++)))
              .string();
  std::filesystem::remove_all(path_);
  std::filesystem::create_directories(path_);
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

std::string TempDir::Write(const std::string& relative, const std::string& content) const {
  const std::filesystem::path p = std::filesystem::path(path_) / relative;
  std::filesystem::create_directories(p.parent_path());
  std::ofstream out(p, std::ios::binary);
  out << content;
  return p.string();
}

std::string RunUnprivileged(const std::function<std::string()>& body) {
  int fds[2];
  if (::pipe(fds) != 0) return "pipe failed";
  const pid_t pid = ::fork();
  if (pid < 0) return "fork failed";
  if (pid == 0) {
    ::close(fds[0]);
    std::string out;
    if (::geteuid() == 0 &&
        (::setgroups(0, nullptr) != 0 || ::setresgid(65534, 65534, 65534) != 0 ||
         ::setresuid(65534, 65534, 65534) != 0)) {
      out = "cannot drop privileges";
    } else {
      out = body();
    }
    size_t done = 0;
    while (done < out.size()) {
      const ssize_t n = ::write(fds[1], out.data() + done, out.size() - done);
      if (n <= 0) break;
      done += static_cast<size_t>(n);
    }
    ::_exit(0);
  }
  ::close(fds[1]);
  std::string out;
  char buf[4096];
  for (;;) {
    const ssize_t n = ::read(fds[0], buf, sizeof(buf));
    if (n <= 0) break;
    out.append(buf, static_cast<size_t>(n));
  }
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return "the child failed: " + out;
  return out;
}

}  // namespace perfdx::testing
