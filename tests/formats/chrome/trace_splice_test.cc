// formats/chrome/trace_splice.h: the new events go at the end of the event
// array, every original byte stays where it was; each expected text is
// written by hand.
#include "perfdx/formats/chrome/trace_splice.h"

#include <gtest/gtest.h>

#include "perfdx/io/byte_source.h"
#include "test_support.h"

namespace perfdx::formats {
namespace {

Result<std::string> Splice(const std::string& trace, const std::string& events) {
  PERFDX_ASSIGN_OR_RETURN(auto source, io::OpenMemoryByteSource(trace, "t.json"));
  std::string out;
  PERFDX_RETURN_IF_ERROR(SpliceEvents(*source, events, out));
  return out;
}

constexpr char kNew[] = R"({"ph":"X","name":"new"})";

TEST(TraceSplice, ObjectFormatWithKeysAfterTheEvents) {
  auto out =
      Splice(R"({"schemaVersion": 1, "traceEvents": [{"ph": "X"}], "deviceProperties": []})", kNew);
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ(*out, "{\"schemaVersion\": 1, \"traceEvents\": [{\"ph\": \"X\"},\n" +
                      std::string(kNew) + "\n], \"deviceProperties\": []}");
}

TEST(TraceSplice, ArrayFormatAndAnEmptyArray) {
  auto out = Splice("[{\"ph\": \"X\"}, {\"ph\": \"B\"}]\n", kNew);
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(*out, "[{\"ph\": \"X\"}, {\"ph\": \"B\"},\n" + std::string(kNew) + "\n]\n");
  auto empty = Splice("{\"traceEvents\": [ ]}", kNew);
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(*empty, "{\"traceEvents\": [ \n" + std::string(kNew) + "\n]}");
}

TEST(TraceSplice, BracketsQuotesAndTheKeyInsideStringsOrDeeperDoNotCount) {
  const std::string trace =
      R"({"otherData": {"traceEvents": [1]}, "note": "traceEvents", "x": "]\"[}",)"
      R"( "traceEvents": [{"name": "a]\\\"[", "args": {"traceEvents": []}}]})";
  auto out = Splice(trace, kNew);
  ASSERT_TRUE(out.ok()) << out.status().message();
  const std::string head = trace.substr(0, trace.size() - 2);  // up to the array's ']'
  EXPECT_EQ(*out, head + ",\n" + kNew + "\n]}");
}

TEST(TraceSplice, NoEventsLeavesTheBytesAsTheyAre) {
  const std::string trace = "\xEF\xBB\xBF{\"traceEvents\": [{\"ph\": \"X\"}]}";
  auto out = Splice(trace, "");
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ(*out, trace);
}

// Regression (trace_splice_fuzzer): compressed data cut after the event
// array closed was spliced, its unreadable tail dropped without a word. The
// stream is refused with what the reader met, where.
TEST(TraceSplice, ACompressedStreamThatCannotBeReadToItsEndIsRefused) {
  const std::string trace = "{\"traceEvents\": [{\"ph\": \"X\"}]}" + std::string(200000, ' ');
  std::string gz = perfdx::testing::GzipCompress(trace);
  ASSERT_GT(gz.size(), 40u);
  gz.resize(gz.size() - 12);  // the last deflate bytes and the trailer
  auto source = io::OpenMemoryByteSource(gz, "t.json.gz");
  ASSERT_TRUE(source.ok());
  std::string out;
  const Status s = SpliceEvents(**source, kNew, out);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message().rfind("t.json.gz: at byte ", 0), 0u) << s.message();
  EXPECT_NE(s.message().find("gzip stream ends early"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("cannot be written back whole"), std::string::npos) << s.message();
}

TEST(TraceSplice, ATraceCutShortOrWithoutEventsIsRefusedWithTheOffset) {
  auto cut = Splice("{\"traceEvents\": [{\"ph\": \"X\"}, {\"ph\"", kNew);
  ASSERT_FALSE(cut.ok());
  EXPECT_EQ(cut.status().message(),
            "t.json: at byte 35: the file ends before its event array is closed (a trace cut "
            "short: its last event cannot be kept whole)");
  auto none = Splice("{\"events\": []}", kNew);
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.status().message(), "t.json: at byte 14: no \"traceEvents\" array in this trace");
  auto text = Splice("hello", kNew);
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(text.status().message(), "t.json: at byte 0: not a JSON trace");
}

}  // namespace
}  // namespace perfdx::formats
