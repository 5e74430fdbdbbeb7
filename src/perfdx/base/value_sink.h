// Where a report's values go: a JSON document (JsonWriter) or, in the Python
// module, Python objects. Each report writes its contract once, as calls on a
// ValueSink, so every front end receives the same keys and values without a
// second serializer and without parsing JSON text back.
//
//   void WriteThing(ValueSink& out, const Thing& t) {
//     out.BeginObject();
//     out.Key("dur_ns").Int(t.dur_ns);
//     out.EndObject();
//   }
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace perfdx {

class ValueSink {
 public:
  virtual ~ValueSink() = default;

  virtual ValueSink& BeginObject() = 0;
  virtual ValueSink& EndObject() = 0;
  virtual ValueSink& BeginArray() = 0;
  virtual ValueSink& EndArray() = 0;
  virtual ValueSink& Key(std::string_view key) = 0;
  // Invalid UTF-8 is replaced ('?'), as base/utf8.h ReplaceInvalidUtf8 does.
  virtual ValueSink& String(std::string_view value) = 0;
  virtual ValueSink& Int(int64_t value) = 0;
  virtual ValueSink& Uint(uint64_t value) = 0;
  // A non-finite value is written as null.
  virtual ValueSink& Double(double value) = 0;
  virtual ValueSink& Bool(bool value) = 0;
  virtual ValueSink& Null() = 0;

  // An array of strings.
  ValueSink& Strings(const std::vector<std::string>& values) {
    BeginArray();
    for (const std::string& v : values) String(v);
    return EndArray();
  }
};

}  // namespace perfdx
