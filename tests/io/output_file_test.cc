#include "perfdx/io/output_file.h"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "test_support.h"

namespace perfdx::io {
namespace {

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> Names(const std::string& folder) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(folder)) {
    names.push_back(e.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

// Pieces of many sizes, smaller and larger than the buffer, each filled
// with its own letter, so that a lost, doubled or reordered piece shows.
std::vector<std::string> Pieces() {
  std::vector<std::string> pieces;
  const size_t sizes[] = {1, 300 << 10, 5, 256 << 10, (256 << 10) - 1, 2, 1 << 20, 7, 0, 100000};
  char letter = 'a';
  for (size_t n : sizes) pieces.emplace_back(n, letter++);
  return pieces;
}

TEST(OutputFileTest, ThePathHoldsNothingNewUntilCommit) {
  perfdx::testing::TempDir dir;
  const std::string path = dir.path() + "/report.json";
  auto out = OutputFile::Open(path);
  ASSERT_TRUE(out.ok()) << out.status().message();
  std::string expected;
  for (const std::string& p : Pieces()) {
    (*out)->Write(p);
    expected += p;
  }
  // More than the buffer was written: it went to a temporary beside the path.
  EXPECT_FALSE(std::filesystem::exists(path));
  const std::vector<std::string> during = Names(dir.path());
  ASSERT_EQ(during.size(), 1u);
  EXPECT_EQ(during[0], "report.json.tmp." + std::to_string(::getpid()));
  EXPECT_GT(std::filesystem::file_size(dir.path() + "/" + during[0]), 0u);

  ASSERT_TRUE((*out)->Commit().ok());
  EXPECT_EQ(Slurp(path), expected);
  EXPECT_EQ(Names(dir.path()), std::vector<std::string>{"report.json"});
}

TEST(OutputFileTest, DroppedUncommittedItLeavesTheOldFileAndNoTemporary) {
  perfdx::testing::TempDir dir;
  const std::string path = dir.Write("report.json", "old report\n");
  {
    auto out = OutputFile::Open(path);
    ASSERT_TRUE(out.ok());
    for (const std::string& p : Pieces()) (*out)->Write(p);
  }  // a renderer that threw, say
  EXPECT_EQ(Slurp(path), "old report\n");
  EXPECT_EQ(Names(dir.path()), std::vector<std::string>{"report.json"});
}

TEST(OutputFileTest, AReplacedFileKeepsItsMode) {
  perfdx::testing::TempDir dir;
  const std::string path = dir.Write("report.json", "old");
  ASSERT_EQ(::chmod(path.c_str(), 0640), 0);
  ASSERT_TRUE(WriteOutputFile(path, "new").ok());
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0640u);
  EXPECT_EQ(Slurp(path), "new");
}

TEST(OutputFileTest, ASymlinkIsWrittenThroughAndStaysALink) {
  perfdx::testing::TempDir dir;
  std::filesystem::create_directory(dir.path() + "/reports");
  const std::string link = dir.path() + "/latest.json";
  std::filesystem::create_symlink("reports/r1.json", link);  // dangling until written
  ASSERT_TRUE(WriteOutputFile(link, "report").ok());
  EXPECT_TRUE(std::filesystem::is_symlink(link));
  EXPECT_EQ(Slurp(dir.path() + "/reports/r1.json"), "report");
}

TEST(OutputFileTest, AFolderIsAnErrorAndIsLeftAlone) {
  perfdx::testing::TempDir dir;
  auto out = OutputFile::Open(dir.path());
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), StatusCode::kInvalidInput);
  EXPECT_EQ(out.status().message(), dir.path() + ": is a folder; -o needs a file name");
  EXPECT_TRUE(Names(dir.path()).empty());
}

// A device is written in place; its first failed write is what Commit says,
// however much is written after it.
TEST(OutputFileTest, AFailedWriteIsKeptAndReturnedByCommit) {
  ASSERT_EQ(::access("/dev/full", W_OK), 0) << "the test needs /dev/full";
  auto out = OutputFile::Open("/dev/full");
  ASSERT_TRUE(out.ok()) << out.status().message();
  for (const std::string& p : Pieces()) (*out)->Write(p);
  const Status s = (*out)->Commit();
  EXPECT_EQ(s.code(), StatusCode::kIoError);
  EXPECT_EQ(s.message(), "/dev/full: write failed: No space left on device");
  struct stat st {};
  ASSERT_EQ(::stat("/dev/full", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
}

TEST(OutputFileTest, AFolderThatCannotBeWrittenIsAnErrorNamingTheTemporary) {
  perfdx::testing::TempDir dir;
  const std::string missing = dir.path() + "/no/such/folder/report.json";
  auto out = OutputFile::Open(missing);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), StatusCode::kIoError);
  EXPECT_EQ(out.status().message(), missing + ".tmp." + std::to_string(::getpid()) +
                                        ": cannot create: No such file or directory");
}

}  // namespace
}  // namespace perfdx::io
