// The exit codes and one-line messages of cli/common (README.md, "Exit codes"):
// bad input 2, a bug in perfdx 3, out of memory 4.
#include <algorithm>
#include <new>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "perfdx/cli/common.h"

namespace perfdx::cli {
namespace {

struct Reported {
  int code;
  std::string stderr_text;
};

Reported Report(const Status& status) {
  ::testing::internal::CaptureStderr();
  const int code = ReportError(status);
  return {code, ::testing::internal::GetCapturedStderr()};
}

Reported Report(const std::exception& e) {
  ::testing::internal::CaptureStderr();
  const int code = ReportException(e);
  return {code, ::testing::internal::GetCapturedStderr()};
}

TEST(ExitCodesTest, TheDocumentedNumbers) {
  EXPECT_EQ(kExitOk, 0);
  EXPECT_EQ(kExitFinding, 1);
  EXPECT_EQ(kExitBadInput, 2);
  EXPECT_EQ(kExitInternal, 3);
  EXPECT_EQ(kExitOutOfMemory, 4);
}

TEST(ExitCodesTest, BadInputIsTwo) {
  for (const Status& s :
       {InvalidInput("t.json: at byte 5: not a JSON trace"), NotFound("t.json: gone"),
        IoError("t.json: denied"), LimitExceeded("t.json: too big"), Unsupported("t.json: v9")}) {
    const Reported r = Report(s);
    EXPECT_EQ(r.code, 2) << s.message();
    EXPECT_EQ(r.stderr_text, "perfdx: error: " + s.message() + "\n");
  }
}

TEST(ExitCodesTest, InternalIsThreeAndAsksForAReport) {
  const Reported r = Report(Internal("unknown input kind"));
  EXPECT_EQ(r.code, 3);
  EXPECT_EQ(r.stderr_text,
            "perfdx: internal error: unknown input kind (please report: this is a bug in perfdx, "
            "not in the input)\n");
}

TEST(ExitCodesTest, OutOfMemoryIsFour) {
  const Reported r = Report(OutOfMemory("run/rank3.json: an allocation failed while loading it"));
  EXPECT_EQ(r.code, 4);
  EXPECT_EQ(r.stderr_text,
            "perfdx: error: out of memory: run/rank3.json: an allocation failed while loading it "
            "(load fewer ranks at once with --threads 1, or give perfdx more memory)\n");
}

TEST(ExitCodesTest, ExceptionsAtMain) {
  const Reported oom = Report(std::bad_alloc());
  EXPECT_EQ(oom.code, 4);
  EXPECT_EQ(oom.stderr_text.rfind("perfdx: error: out of memory: ", 0), 0u) << oom.stderr_text;
  const Reported bug = Report(std::logic_error("map::at"));
  EXPECT_EQ(bug.code, 3);
  EXPECT_EQ(bug.stderr_text.rfind("perfdx: internal error: unexpected exception: map::at (", 0), 0u)
      << bug.stderr_text;
  // One line each, whatever the message.
  EXPECT_EQ(std::count(bug.stderr_text.begin(), bug.stderr_text.end(), '\n'), 1);
}

}  // namespace
}  // namespace perfdx::cli
