#include "perfdx/formats/chrome/json_tokens.h"

#include <string>

#include <gtest/gtest.h>
#include <simdjson.h>

namespace perfdx::formats {
namespace {

namespace od = simdjson::ondemand;

std::string KeyText(const char* raw) {
  std::string key;
  for (const char* p = raw; *p != '"'; ++p) {
    if (*p == '\\') key += *p++;
    key += *p;
  }
  return key;
}

// What JsonTokens makes of an object: each field as key=kind:text, a nested
// object in braces, "!" where the walk failed.
std::string DescribeTokens(JsonTokens& t, uint32_t k, uint32_t* end) {
  std::string out = "{";
  simdjson::error_code error = simdjson::SUCCESS;
  *end = t.ForEachField(
      k,
      [&](const char* raw, uint32_t value, uint32_t* value_end) -> simdjson::error_code {
        out += KeyText(raw) + "=";
        const char c = t.At(value);
        if (c == '"') {
          std::string_view s;
          if (auto e = t.String(value, &s)) return e;
          out += "s:" + std::string(s);
        } else if (c == '[') {
          *value_end = t.Skip(value);
          if (*value_end == JsonTokens::kBad) return simdjson::TAPE_ERROR;
          out += "a:" + std::string(t.Ptr(value), t.Offset(*value_end) - t.Offset(value));
        } else if (c == '{') {
          out += DescribeTokens(t, value, value_end);
          if (*value_end == JsonTokens::kBad) return simdjson::TAPE_ERROR;
        } else {
          out += "t:" + std::string(t.Token(value));
        }
        out += ";";
        return simdjson::SUCCESS;
      },
      &error);
  return out + (*end == JsonTokens::kBad ? "!" : "}");
}

// The same from simdjson's On-Demand front end, the reference.
std::string DescribeOnDemand(od::object object, bool* failed) {
  std::string out = "{";
  for (auto field_result : object) {
    od::field field;
    if (std::move(field_result).get(field) != simdjson::SUCCESS) {
      *failed = true;
      break;
    }
    out += KeyText(field.key().raw()) + "=";
    od::value value = field.value();
    od::json_type type;
    if (value.type().get(type) != simdjson::SUCCESS) {
      *failed = true;
      break;
    }
    if (type == od::json_type::string) {
      std::string_view s;
      if (value.get_string().get(s) != simdjson::SUCCESS) {
        *failed = true;
        break;
      }
      out += "s:" + std::string(s);
    } else if (type == od::json_type::array) {
      od::array array;
      std::string_view text;
      if (value.get_array().get(array) != simdjson::SUCCESS ||
          array.raw_json().get(text) != simdjson::SUCCESS) {
        *failed = true;
        break;
      }
      out += "a:" + std::string(text);
    } else if (type == od::json_type::object) {
      od::object inner;
      if (value.get_object().get(inner) != simdjson::SUCCESS) {
        *failed = true;
        break;
      }
      out += DescribeOnDemand(inner, failed);
      if (*failed) return out;
    } else {
      out += "t:" + std::string(value.raw_json_token());
    }
    out += ";";
  }
  return out + (*failed ? "!" : "}");
}

std::string Padded(std::string_view text) {
  std::string s(text);
  s.append(simdjson::SIMDJSON_PADDING, ' ');
  return s;
}

// Both walks of `text`, which must index (stage 1 accepts it).
void ExpectSameAsOnDemand(std::string_view text) {
  SCOPED_TRACE(std::string(text));
  const std::string buffer = Padded(text);
  JsonTokens tokens;
  ASSERT_EQ(tokens.Index(buffer.data(), text.size()), simdjson::SUCCESS);
  ASSERT_EQ(tokens.At(0), '{');
  uint32_t end = 0;
  const std::string ours = DescribeTokens(tokens, 0, &end);

  od::parser parser;
  od::document doc;
  ASSERT_EQ(parser.iterate(buffer.data(), text.size(), buffer.size()).get(doc), simdjson::SUCCESS);
  od::object object;
  ASSERT_EQ(doc.get_object().get(object), simdjson::SUCCESS);
  bool failed = false;
  const std::string reference = DescribeOnDemand(object, &failed);
  EXPECT_EQ(ours, reference);
  EXPECT_EQ(end == JsonTokens::kBad, failed);
}

TEST(JsonTokensTest, AKinetoEventReadsAsOnDemandReadsIt) {
  ExpectSameAsOnDemand(
      R"({"ph": "X", "cat": "cpu_op", "name": "aten::t", "pid": 3113936, "tid": 3113936, )"
      R"("ts": 1661203462611636, "dur": 6, "args": {"External id": 1001, )"
      R"("Input Dims": [[256, 1440]], "Input type": ["float"], "Module Hierarchy": ""}})");
}

TEST(JsonTokensTest, TokensKeepTheirTrailingWhitespaceAsOnDemandDoes) {
  ExpectSameAsOnDemand("{ \"a\" : 12 , \"b\" : [ 1 , [ ] ]\t, \"c\" :\n true\n, \"d\": null }");
  ExpectSameAsOnDemand(R"({"e": -1.5e3,"f":[],"g":{},"h":{ "i" : { } } })");
}

TEST(JsonTokensTest, EscapedStringsAreUnescapedAsOnDemandDoes) {
  ExpectSameAsOnDemand(R"({"name": "a\"b\\c", "u": "caf\u00e9 \ud83d\ude00", "k\"ey": "x"})");
  ExpectSameAsOnDemand(R"({"path": "C:\\Users\\trace", "empty": "", "slash": "\/"})");
}

TEST(JsonTokensTest, AnEmptyObjectHasNoFields) {
  ExpectSameAsOnDemand("{}");
  ExpectSameAsOnDemand("{ }");
}

TEST(JsonTokensTest, WhereOnDemandFailsTheWalkFails) {
  for (std::string_view text : {
           R"({"a" 1})",             // no ':'
           R"({"a" "b" 1})",         // no ':', a value two tokens on
           R"({"a": })",             // no value
           R"({"a": , "b": 1})",     // no value before ','
           R"({"a": 1,})",           // a trailing ','
           R"({1: 2})",              // a key that is not a string
           R"({"a": 1 "b": 2})",     // no ','
           R"({"a": 1)",             // the text ends in the object
           R"({"a": [1, 2)",         // ... in a skipped array
           R"({"a": {"b": 1, }})",   // a nested object fails
           R"({"a": "x", "b": :})",  // a value that starts with ':'
       }) {
    SCOPED_TRACE(std::string(text));
    const std::string buffer = Padded(text);
    JsonTokens tokens;
    ASSERT_EQ(tokens.Index(buffer.data(), text.size()), simdjson::SUCCESS);
    uint32_t end = 0;
    DescribeTokens(tokens, 0, &end);
    EXPECT_EQ(end, JsonTokens::kBad);
    // On-Demand fails on the same text.
    od::parser parser;
    od::document doc;
    od::object object;
    bool failed =
        parser.iterate(buffer.data(), text.size(), buffer.size()).get(doc) != simdjson::SUCCESS ||
        doc.get_object().get(object) != simdjson::SUCCESS;
    if (!failed) DescribeOnDemand(object, &failed);
    EXPECT_TRUE(failed);
  }
}

TEST(JsonTokensTest, ABadEscapeIsAStringError) {
  const std::string_view text = R"({"name": "a\qb"})";
  const std::string buffer = Padded(text);
  JsonTokens tokens;
  ASSERT_EQ(tokens.Index(buffer.data(), text.size()), simdjson::SUCCESS);
  std::string_view s;
  EXPECT_EQ(tokens.String(3, &s), simdjson::STRING_ERROR);
  EXPECT_EQ(tokens.String(2, &s), simdjson::INCORRECT_TYPE);  // the ':'
}

TEST(JsonTokensTest, StageOneRejectsWhatOnDemandRejects) {
  JsonTokens tokens;
  for (std::string_view text :
       {std::string_view("{\"a\": \"unclosed}"), std::string_view("   "),
        std::string_view("{\"a\": \"\xff\"}"), std::string_view("{\"a\": \"tab\there\"}")}) {
    SCOPED_TRACE(std::string(text));
    const std::string buffer = Padded(text);
    EXPECT_NE(tokens.Index(buffer.data(), text.size()), simdjson::SUCCESS);
    od::parser parser;
    od::document doc;
    EXPECT_NE(parser.iterate(buffer.data(), text.size(), buffer.size()).get(doc),
              simdjson::SUCCESS);
  }
}

TEST(JsonTokensTest, StringsOfOneTextStayValidUntilTheNextIndex) {
  const std::string_view text = R"({"a": "x\ty", "b": "1\n2"})";
  const std::string buffer = Padded(text);
  JsonTokens tokens;
  ASSERT_EQ(tokens.Index(buffer.data(), text.size()), simdjson::SUCCESS);
  std::string_view a;
  std::string_view b;
  ASSERT_EQ(tokens.String(3, &a), simdjson::SUCCESS);
  ASSERT_EQ(tokens.String(7, &b), simdjson::SUCCESS);
  EXPECT_EQ(a, "x\ty");
  EXPECT_EQ(b, "1\n2");
  // A longer text next: the buffer grows, and the strings of this one are new.
  const std::string longer =
      Padded(std::string(R"({"c": "\u0041)") + std::string(200, 'z') + "\"}");
  ASSERT_EQ(tokens.Index(longer.data(), longer.size() - simdjson::SIMDJSON_PADDING),
            simdjson::SUCCESS);
  std::string_view c;
  ASSERT_EQ(tokens.String(3, &c), simdjson::SUCCESS);
  EXPECT_EQ(c, "A" + std::string(200, 'z'));
}

}  // namespace
}  // namespace perfdx::formats
