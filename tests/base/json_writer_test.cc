#include "perfdx/base/json_writer.h"

#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace perfdx {
namespace {

// Where the text goes as it grows: every piece it was given, in order.
class Pieces final : public TextSink {
 public:
  void Write(std::string_view text) override { pieces.emplace_back(text); }
  std::vector<std::string> pieces;
};

// A document of `rows` objects, written to `w`; after each row, what `w`
// still holds is recorded in `held`.
void WriteRows(JsonWriter& w, int rows, std::vector<size_t>* held) {
  w.BeginObject().Key("rows").BeginArray();
  for (int i = 0; i < rows; ++i) {
    w.BeginObject().Key("name").String("kernel \"" + std::to_string(i) + "\"");
    w.Key("dur_ns").Int(i * 1000).Key("share").Double(i / 7.0).EndObject();
    held->push_back(w.str().size());
  }
  w.EndArray().EndObject();
}

// With a sink, the text leaves the writer at each container's end once it
// passes kDrainBytes: the writer never holds more than that and one row, and
// the pieces are, in order, the document a writer without a sink builds.
TEST(JsonWriterTest, GivenASinkItSendsTheTextAsItGrows) {
  std::vector<size_t> held_whole;
  JsonWriter whole;
  WriteRows(whole, 20000, &held_whole);
  const std::string expected = whole.TakeDocument();
  ASSERT_GT(expected.size(), 10 * JsonWriter::kDrainBytes);

  Pieces sink;
  std::vector<size_t> held;
  JsonWriter w(&sink);
  WriteRows(w, 20000, &held);
  w.FinishDocument();
  EXPECT_TRUE(w.str().empty());
  std::string joined;
  for (const std::string& p : sink.pieces) joined += p;
  EXPECT_EQ(joined, expected);
  EXPECT_GE(sink.pieces.size(), 10u);
  for (size_t k = 0; k + 1 < sink.pieces.size(); ++k) {
    EXPECT_GE(sink.pieces[k].size(), JsonWriter::kDrainBytes) << k;
  }
  for (size_t h : held) ASSERT_LT(h, JsonWriter::kDrainBytes) << "the writer kept the text";
}

TEST(JsonWriterTest, CompactNesting) {
  JsonWriter w(0);
  w.BeginObject();
  w.Key("a").Int(-1);
  w.Key("b").BeginArray().Uint(2).Double(0.5).Bool(true).Null().EndArray();
  w.Key("c").BeginObject().EndObject();
  w.EndObject();
  EXPECT_EQ(w.str(), R"({"a":-1,"b":[2,0.5,true,null],"c":{}})");
}

TEST(JsonWriterTest, EscapesAndSanitises) {
  JsonWriter w(0);
  w.BeginArray().String("q\"b\\n\n\x01").String("bad\xFFutf8").Double(std::nan("")).EndArray();
  EXPECT_EQ(w.str(), "[\"q\\\"b\\\\n\\n\\u0001\",\"bad?utf8\",null]");
}

TEST(JsonWriterTest, StringArraysAndTheDocumentsNewline) {
  JsonWriter w(0);
  w.BeginObject();
  w.Key("notes").Strings({"a", "b\"c"});
  w.Key("none").Strings({});
  w.EndObject();
  EXPECT_EQ(w.TakeDocument(), "{\"notes\":[\"a\",\"b\\\"c\"],\"none\":[]}\n");
}

}  // namespace
}  // namespace perfdx
