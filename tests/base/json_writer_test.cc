#include "perfdx/base/json_writer.h"

#include <cmath>

#include <gtest/gtest.h>

namespace perfdx {
namespace {

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
