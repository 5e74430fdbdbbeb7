// A small streaming JSON writer for reports. Keeps comma/nesting state, escapes
// strings (invalid UTF-8 is replaced, control characters escaped), writes
// non-finite doubles as null.
//
//   JsonWriter w;
//   w.BeginObject();
//   w.Key("events").Int(42);
//   w.Key("ranks").BeginArray().EndArray();
//   w.EndObject();
//   std::string text = w.Take();
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace perfdx {

class JsonWriter {
 public:
  explicit JsonWriter(int indent = 1) : indent_(indent) {}

  JsonWriter& BeginObject();
  JsonWriter& EndObject();
  JsonWriter& BeginArray();
  JsonWriter& EndArray();
  JsonWriter& Key(std::string_view key);
  JsonWriter& String(std::string_view value);
  JsonWriter& Int(int64_t value);
  JsonWriter& Uint(uint64_t value);
  JsonWriter& Double(double value);
  JsonWriter& Bool(bool value);
  JsonWriter& Null();
  // An array of strings.
  JsonWriter& Strings(const std::vector<std::string>& values);

  const std::string& str() const { return out_; }
  std::string Take() { return std::move(out_); }
  // The finished document with its closing newline, as reports write it.
  std::string TakeDocument() {
    out_ += '\n';
    return std::move(out_);
  }

 private:
  void BeforeValue();
  void Newline();

  std::string out_;
  struct Level {
    bool is_object;
    bool empty;
  };
  std::vector<Level> stack_;
  bool after_key_ = false;
  int indent_;
};

// Appends `s` as a JSON string literal (with quotes).
void AppendJsonString(std::string& out, std::string_view s);

}  // namespace perfdx
