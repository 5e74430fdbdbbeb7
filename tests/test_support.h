// Helpers shared by the tests.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "perfdx/base/status.h"
#include "perfdx/formats/trace_loader.h"
#include "perfdx/model/trace.h"

namespace perfdx::testing {

// ../shared/<relative>, read in place from the repository root (ctest's
// working directory).
std::string SharedPath(const std::string& relative);
bool HaveShared();
// Says where ../shared was looked for (an absolute path), for the failure message.
std::string MissingSharedMessage();

// How the Chrome parser reads: its fast path (simdjson chunks), its exact
// scalar path, or the fast path with chunks decoded ahead by three threads
// from the first byte on (ChromeJsonOptions::decode_threads).
enum class ParserPath { kFast, kExact, kParallel };
formats::ChromeJsonOptions ParserOptions(ParserPath path);

// Imports a Chrome trace held in memory (optionally gzip/zstd bytes), in
// 256-byte chunks so that chunk boundaries fall everywhere.
Result<model::Trace> ImportString(const std::string& json, ParserPath path,
                                  const std::string& name = "inline.json");
Result<model::Trace> ImportString(const std::string& json, bool fast_path = true,
                                  const std::string& name = "inline.json");
Result<model::Trace> ImportFile(const std::string& path, ParserPath parser);
Result<model::Trace> ImportFile(const std::string& path, bool fast_path = true);

// Names the parameter of tests run on every parser path.
inline std::string ParserPathName(const ::testing::TestParamInfo<ParserPath>& p) {
  switch (p.param) {
    case ParserPath::kFast:
      return "FastPath";
    case ParserPath::kExact:
      return "ScalarPath";
    case ParserPath::kParallel:
      return "ParallelFastPath";
  }
  return "Unknown";
}
inline const auto kEveryParserPath =
    ::testing::Values(ParserPath::kFast, ParserPath::kExact, ParserPath::kParallel);

std::string ReadFileOrDie(const std::string& path);

// The lines of a rendered text, each without its '\n' (a last line without
// one included).
std::vector<std::string> SplitLines(const std::string& text);

std::string GzipCompress(const std::string& data);
std::string ZstdCompress(const std::string& data);

// A unique empty folder under the system temp dir, removed by the destructor.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string Write(const std::string& relative, const std::string& content) const;

 private:
  std::string path_;
};

// Runs `body` in a forked child holding no more rights than the user nobody
// (uid and gid 65534) when the tests run as root, where chmod alone does not
// make a file unreadable; returns what `body` returned, or how the child
// failed. `body` must not use gtest assertions (they would be the child's).
std::string RunUnprivileged(const std::function<std::string()>& body);

}  // namespace perfdx::testing

// Fails (never skips) a test that needs ../shared when the folder is absent: it
// is part of every checkout this project is developed and tested in, and a
// skip would count as a pass. Use in a function returning void.
#define PERFDX_REQUIRE_SHARED()                                  \
  do {                                                           \
    if (!::perfdx::testing::HaveShared()) {                      \
      GTEST_FAIL() << ::perfdx::testing::MissingSharedMessage(); \
    }                                                            \
  } while (0)
